//===- Semantic.cpp - Constants, casts and broadcasting
//--------------------===//
//
// The parts of Triton's semantics that every operation builds on: turning
// Python numbers into tensors, implicit casts, explicit casts and bitcasts,
// and the broadcasting of shapes.
//
//===----------------------------------------------------------------------===//
#include "CodeGen.h"

#include "tessera/Frontend/Codegen/Promotion.h"
#include "tessera/Frontend/Limits.h"

#include "llvm/Support/FormatVariadic.h"

using namespace tessera::frontend;
using namespace tessera::frontend::codegen;
using llvm::failure;
using llvm::FailureOr;
using llvm::LogicalResult;
using llvm::success;
namespace tt = mlir::tessera;

static std::string shapeStr(llvm::ArrayRef<int64_t> shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i)
    s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + "]";
}

//===----------------------------------------------------------------------===//
// Diagnostics and locations
//===----------------------------------------------------------------------===//

LogicalResult FunctionCodegen::fail(llvm::SMLoc at, const llvm::Twine &message,
                                    const llvm::Twine &hint) {
  InFlightDiagnostic diag = m.diags.error(at, message);
  std::string hintText = hint.str();
  if (!hintText.empty())
    diag.hint(hintText);
  for (auto it = frames.rbegin(); it != frames.rend(); ++it)
    diag.note(it->callLoc, "in the call to '" + it->function + "' here");
  return failure();
}

mlir::Location FunctionCodegen::getLoc(const SourceLoc &sl) {
  return mlir::FileLineColLoc::get(&m.ctx, km.getFilename(), sl.line,
                                   sl.column);
}

LocationScope::LocationScope(FunctionCodegen &cg, const Node *node)
    : cg(cg), savedLoc(cg.loc), savedCurLoc(cg.curLoc) {
  cg.loc = cg.getLoc(node->getLoc());
  cg.curLoc = node->getLoc().ptr;
}

LocationScope::~LocationScope() {
  cg.loc = savedLoc;
  cg.curLoc = savedCurLoc;
}

//===----------------------------------------------------------------------===//
// Constants
//===----------------------------------------------------------------------===//

Value FunctionCodegen::scalarConstant(const HostValue &v, const TType &dtype) {
  mlir::Type type = dtype.toMLIR(getContext());
  mlir::TypedAttr attr;
  if (dtype.isInt()) {
    int64_t x = v.isFloat() ? int64_t(v.getFloat()) : v.getInt();
    unsigned bits = dtype.getPrimitiveBitwidth();
    attr = mlir::IntegerAttr::get(
        type, llvm::APInt(bits, uint64_t(x), /*isSigned=*/dtype.isSignedInt(),
                          /*implicitTrunc=*/true));
  } else {
    attr = mlir::FloatAttr::get(type, v.getNumber());
  }
  auto op = mlir::arith::ConstantOp::create(b, loc, attr);
  return Value::tensor(op, dtype);
}

Value FunctionCodegen::zeroValue(const TType &type) {
  const TType &elem = type.getElement();
  Value scalar;
  if (elem.isPointer()) {
    Value zero =
        scalarConstant(HostValue::integer(0), TType::scalar(ScalarKind::Int64));
    scalar =
        Value::tensor(tt::IntToPtrOp::create(b, loc, elem.toMLIR(getContext()),
                                             zero.getHandle()),
                      elem);
  } else {
    scalar = scalarConstant(HostValue::integer(0), elem);
  }
  return splat(scalar, type.getShape());
}

FailureOr<Value> FunctionCodegen::toTensor(const Value &v) {
  if (v.isTensor())
    return v;
  if (v.isNumber()) {
    const HostValue &h = v.getHost();
    return scalarConstant(h, pythonScalarType(h));
  }
  return fail("cannot convert " + v.typeStr() + " to a tensor");
}

FailureOr<Value> FunctionCodegen::makeScalar(const Value &v,
                                             const TType &dtype) {
  if (v.isTensor()) {
    if (v.getType().isBlock() && v.getType().getNumElements() != 1)
      return fail("expected a scalar, got a block of type " +
                  v.getType().str());
    return castTo(v, dtype);
  }
  if (v.isNumber())
    return scalarConstant(v.getHost(), dtype);
  return fail("expected a scalar, got " + v.typeStr());
}

//===----------------------------------------------------------------------===//
// Shapes
//===----------------------------------------------------------------------===//

Value FunctionCodegen::splat(const Value &scalar,
                             llvm::ArrayRef<int64_t> shape) {
  if (shape.empty())
    return scalar;
  TType type = TType::block(scalar.getType(), shape);
  auto op = tt::SplatOp::create(b, loc, type.toMLIR(getContext()),
                                scalar.getHandle());
  return Value::tensor(op, type);
}

FailureOr<Value> FunctionCodegen::broadcastTo(const Value &v,
                                              llvm::ArrayRef<int64_t> shape) {
  if (!v.getType().isBlock())
    return splat(v, shape);
  llvm::ArrayRef<int64_t> src = v.getType().getShape();
  if (src.size() != shape.size())
    return fail("cannot broadcast, rank mismatch: " + shapeStr(src) + ", " +
                shapeStr(shape));
  if (src == shape)
    return v;
  for (size_t i = 0; i < src.size(); ++i)
    if (shape[i] != src[i] && src[i] != 1)
      return fail(llvm::formatv("cannot broadcast, the expanded size of the "
                                "tensor ({0}) must match the existing size "
                                "({1}) at non-singleton dimension {2}: {3}, "
                                "{4}",
                                shape[i], src[i], i, shapeStr(src),
                                shapeStr(shape)));
  // Broadcasting multiplies sizes: [N, 1] with [1, M] is N * M elements,
  // past the limit that arange/zeros/full enforce (a GPU target then
  // compiled for minutes).
  if (int64_t numel = countBlockElements(shape); numel > kMaxBlockElements)
    return fail(llvm::formatv("broadcasting makes a block of shape {0} with "
                              "{1} elements; a block has at most {2}",
                              shapeStr(shape), numel, kMaxBlockElements));
  TType type = TType::block(v.getType().getElement(), shape);
  auto op =
      tt::BroadcastOp::create(b, loc, type.toMLIR(getContext()), v.getHandle());
  return Value::tensor(op, type);
}

FailureOr<std::pair<Value, Value>>
FunctionCodegen::broadcastPair(const Value &a, const Value &b0) {
  Value lhs = a, rhs = b0;
  bool lb = lhs.getType().isBlock(), rb = rhs.getType().isBlock();
  if (lb && !rb) {
    rhs = splat(rhs, lhs.getType().getShape());
  } else if (!lb && rb) {
    lhs = splat(lhs, rhs.getType().getShape());
  } else if (lb && rb) {
    while (lhs.getType().getShape().size() < rhs.getType().getShape().size())
      lhs = expandDims(lhs, 0);
    while (rhs.getType().getShape().size() < lhs.getType().getShape().size())
      rhs = expandDims(rhs, 0);
    llvm::ArrayRef<int64_t> ls = lhs.getType().getShape(),
                            rs = rhs.getType().getShape();
    std::vector<int64_t> shape;
    for (size_t i = 0; i < ls.size(); ++i) {
      if (ls[i] == 1)
        shape.push_back(rs[i]);
      else if (rs[i] == 1 || rs[i] == ls[i])
        shape.push_back(ls[i]);
      else
        return fail(llvm::formatv("incompatible shapes: dimension {0} is {1} "
                                  "on the left and {2} on the right ({3} vs "
                                  "{4})",
                                  i, ls[i], rs[i], shapeStr(ls), shapeStr(rs)));
    }
    FailureOr<Value> l = broadcastTo(lhs, shape);
    if (failed(l))
      return failure();
    FailureOr<Value> r = broadcastTo(rhs, shape);
    if (failed(r))
      return failure();
    lhs = *l;
    rhs = *r;
  }
  return std::make_pair(lhs, rhs);
}

FailureOr<std::vector<Value>>
FunctionCodegen::broadcastAll(llvm::ArrayRef<Value> values) {
  // The common shape, aligning trailing dimensions.
  std::vector<int64_t> shape;
  for (const Value &v : values) {
    llvm::ArrayRef<int64_t> s = v.getType().getShape();
    if (s.size() > shape.size())
      shape.insert(shape.begin(), s.size() - shape.size(), 1);
    size_t off = shape.size() - s.size();
    for (size_t i = 0; i < s.size(); ++i) {
      int64_t &d = shape[off + i];
      if (d == 1)
        d = s[i];
      else if (s[i] != 1 && s[i] != d)
        return fail(llvm::formatv("incompatible shapes for broadcasting: "
                                  "dimension {0} is {1} in one operand and "
                                  "{2} in another",
                                  off + i, d, s[i]));
    }
  }
  std::vector<Value> out;
  for (const Value &v : values) {
    Value x = v;
    if (x.getType().isBlock())
      while (x.getType().getShape().size() < shape.size())
        x = expandDims(x, 0);
    FailureOr<Value> b = broadcastTo(x, shape);
    if (failed(b))
      return failure();
    out.push_back(*b);
  }
  return out;
}

Value FunctionCodegen::expandDims(const Value &v, int axis) {
  std::vector<int64_t> shape(v.getType().getShape());
  shape.insert(shape.begin() + axis, 1);
  if (!v.getType().isBlock())
    return splat(v, shape);
  TType type = TType::block(v.getType().getElement(), shape);
  auto op = tt::ExpandDimsOp::create(b, loc, type.toMLIR(getContext()),
                                     v.getHandle(), axis);
  return Value::tensor(op, type);
}

FailureOr<Value> FunctionCodegen::reshape(const Value &v0,
                                          llvm::ArrayRef<int64_t> shape,
                                          bool canReorder) {
  Value v = v0;
  for (int64_t d : shape)
    if (d <= 0)
      return fail(llvm::formatv("reshape() needs positive dimensions, got {0}",
                                shapeStr(shape)));
  int64_t numel = countBlockElements(shape);
  int64_t have = v.getType().isBlock() ? v.getType().getNumElements() : 1;
  if (numel != have)
    return fail(llvm::formatv("reshape() cannot change the number of elements "
                              "of a tensor: {0} has {1} elements, {2} has {3}",
                              shapeStr(v.getType().getShape()), have,
                              shapeStr(shape), numel));
  if (!v.getType().isBlock())
    return splat(v, shape);
  TType type = TType::block(v.getType().getElement(), shape);
  if (type == v.getType() && !canReorder)
    return v;
  auto op = tt::ReshapeOp::create(b, loc, type.toMLIR(getContext()),
                                  v.getHandle(), canReorder);
  return Value::tensor(op, type);
}

FailureOr<Value> FunctionCodegen::permute(const Value &v,
                                          llvm::ArrayRef<int64_t> dims) {
  llvm::ArrayRef<int64_t> shape = v.getType().getShape();
  if (shape.size() != dims.size())
    return fail(llvm::formatv("permute dims must have the same length as the "
                              "input shape: got {0} dims for a rank-{1} "
                              "tensor",
                              dims.size(), shape.size()));
  std::vector<bool> seen(dims.size(), false);
  for (int64_t d : dims) {
    if (d < 0 || d >= int64_t(dims.size()) || seen[d])
      return fail("permute dims must be a permutation of 0, 1, ..., n-1, "
                  "but were " +
                  shapeStr(dims));
    seen[d] = true;
  }
  std::vector<int64_t> newShape;
  llvm::SmallVector<int32_t> order;
  for (int64_t d : dims) {
    newShape.push_back(shape[d]);
    order.push_back(int32_t(d));
  }
  TType type = TType::block(v.getType().getElement(), newShape);
  auto op = tt::TransOp::create(b, loc, type.toMLIR(getContext()),
                                v.getHandle(), order);
  return Value::tensor(op, type);
}

//===----------------------------------------------------------------------===//
// Casts
//===----------------------------------------------------------------------===//

FailureOr<Value>
FunctionCodegen::castTo(const Value &v, const TType &dstIn,
                        std::optional<tt::RoundingMode> rounding) {
  const TType &srcTy = v.getType();
  const TType &src = srcTy.getElement();
  const TType &dst = dstIn.getElement();
  if (src == dst)
    return v;
  TType dstTy = srcTy.withElement(dst);
  mlir::Type dstMLIR = dstTy.toMLIR(getContext());
  mlir::Value h = v.getHandle();
  auto result = [&](mlir::Value out) { return Value::tensor(out, dstTy); };

  bool useCustomRounding = false;
  if (dst.isFloating() && src.isFloating() &&
      dst.getPrimitiveBitwidth() < src.getPrimitiveBitwidth()) {
    if (!rounding)
      rounding = tt::RoundingMode::rtne;
    else if (*rounding != tt::RoundingMode::rtne)
      useCustomRounding = true;
  } else if (rounding) {
    return fail("fp_downcast_rounding should be set only for truncating fp "
                "conversions; the source scalar type is " +
                src.str() + " and the destination type is " + dst.str());
  }

  // fp8 conversions (and rounding modes arith cannot express) go through
  // tessera.fp_to_fp, which the target lowers.
  bool customFloat =
      src.is(ScalarKind::FP8E4B15) || dst.is(ScalarKind::FP8E4B15);
  if ((src.isFP8() && dst.isFloating()) || (src.isFloating() && dst.isFP8()) ||
      useCustomRounding ||
      (customFloat && src.isFloating() && dst.isFloating())) {
    // Equal-width conversions (fp8 to fp8) round too.
    bool narrowing = dst.getPrimitiveBitwidth() < src.getPrimitiveBitwidth() ||
                     dst.getPrimitiveBitwidth() == src.getPrimitiveBitwidth();
    tt::RoundingModeAttr mode;
    if (narrowing)
      mode = tt::RoundingModeAttr::get(
          getContext(), rounding.value_or(tt::RoundingMode::rtne));
    return result(tt::FpToFpOp::create(b, loc, dstMLIR, h, mode));
  }
  // fp16 and bf16 convert to anything but fp32 through fp32.
  if ((src.is(ScalarKind::FP16) || src.is(ScalarKind::BF16)) &&
      !dst.is(ScalarKind::FP32)) {
    FailureOr<Value> f32 = castTo(v, TType::scalar(ScalarKind::FP32));
    if (failed(f32))
      return failure();
    return castTo(*f32, dst);
  }
  if (src.isFloating() && dst.isFloating()) {
    if (src.getPrimitiveBitwidth() > dst.getPrimitiveBitwidth())
      return result(mlir::arith::TruncFOp::create(b, loc, dstMLIR, h));
    return result(mlir::arith::ExtFOp::create(b, loc, dstMLIR, h));
  }
  if (src.isInt() && dst.isInt()) {
    if (dst.isBool())
      return result(
          mlir::arith::CmpIOp::create(b, loc, mlir::arith::CmpIPredicate::ne, h,
                                      zeroValue(srcTy).getHandle()));
    unsigned sb = src.getPrimitiveBitwidth(), db = dst.getPrimitiveBitwidth();
    if (sb == db)
      return Value::tensor(h, dstTy);
    if (db < sb)
      return result(mlir::arith::TruncIOp::create(b, loc, dstMLIR, h));
    if (src.isSignedInt())
      return result(mlir::arith::ExtSIOp::create(b, loc, dstMLIR, h));
    return result(mlir::arith::ExtUIOp::create(b, loc, dstMLIR, h));
  }
  if (src.isStandardFloating() && dst.isInt()) {
    if (dst.isBool()) {
      auto cmp =
          mlir::arith::CmpFOp::create(b, loc, mlir::arith::CmpFPredicate::UNE,
                                      h, zeroValue(srcTy).getHandle());
      return result(cmp);
    }
    if (dst.isSignedInt())
      return result(mlir::arith::FPToSIOp::create(b, loc, dstMLIR, h));
    return result(mlir::arith::FPToUIOp::create(b, loc, dstMLIR, h));
  }
  if (src.isInt() && dst.isStandardFloating()) {
    if (src.isBool() || src.isUnsignedInt())
      return result(mlir::arith::UIToFPOp::create(b, loc, dstMLIR, h));
    return result(mlir::arith::SIToFPOp::create(b, loc, dstMLIR, h));
  }
  if (src.isPointer() && dst.isInt()) {
    if (dst.getPrimitiveBitwidth() == 64)
      return result(tt::PtrToIntOp::create(b, loc, dstMLIR, h));
    if (dst.isBool()) {
      FailureOr<Value> asInt = castTo(v, TType::scalar(ScalarKind::Int64));
      if (failed(asInt))
        return failure();
      return result(mlir::arith::CmpIOp::create(
          b, loc, mlir::arith::CmpIPredicate::ne, asInt->getHandle(),
          zeroValue(asInt->getType()).getHandle()));
    }
  }
  if (src.isInt() && dst.isPointer()) {
    // int_to_ptr takes 64-bit integers.
    Value wide = v;
    if (src.getPrimitiveBitwidth() != 64) {
      FailureOr<Value> w =
          castTo(v, TType::scalar(src.isSignedInt() ? ScalarKind::Int64
                                                    : ScalarKind::UInt64));
      if (failed(w))
        return failure();
      wide = *w;
    }
    return result(tt::IntToPtrOp::create(b, loc, dstMLIR, wide.getHandle()));
  }
  if (src.isPointer() && dst.isPointer())
    return result(tt::BitcastOp::create(b, loc, dstMLIR, h));
  return fail("cannot cast a value of type " + srcTy.str() + " to " +
              dst.str());
}

FailureOr<Value> FunctionCodegen::bitcast(const Value &v, const TType &dstIn) {
  const TType &srcTy = v.getType();
  TType dstTy = srcTy.withElement(dstIn.getElement());
  if (srcTy == dstTy)
    return v;
  const TType &src = srcTy.getElement(), &dst = dstTy.getElement();
  if (src.isPointer() || dst.isPointer())
    return castTo(v, dst);
  unsigned sb = src.getPrimitiveBitwidth(), db = dst.getPrimitiveBitwidth();
  if (sb != db)
    return fail(llvm::formatv("cannot bitcast data-type of size {0} to "
                              "data-type of size {1}",
                              sb, db));
  mlir::Type dstMLIR = dstTy.toMLIR(getContext());
  if (dstMLIR == v.getHandle().getType())
    return Value::tensor(v.getHandle(), dstTy);
  return Value::tensor(
      mlir::arith::BitcastOp::create(b, loc, dstMLIR, v.getHandle()), dstTy);
}

//===----------------------------------------------------------------------===//
// Implicit conversions of binary operations
//===----------------------------------------------------------------------===//

FailureOr<std::pair<Value, Value>>
FunctionCodegen::binaryTypeCheck(const Value &lhsIn, const Value &rhsIn,
                                 bool allowLhsPtr, bool allowRhsPtr,
                                 bool arithmeticCheck, bool divOrMod) {
  for (const Value *v : {&lhsIn, &rhsIn})
    if (!v->isTensor() && !v->isNumber())
      return fail("expected a tensor or a number, got " + v->typeStr());
  bool lhsScalar = lhsIn.isNumber(), rhsScalar = rhsIn.isNumber();
  TType lt = lhsScalar ? pythonScalarType(lhsIn.getHost())
                       : lhsIn.getType().getElement();
  TType rt = rhsScalar ? pythonScalarType(rhsIn.getHost())
                       : rhsIn.getType().getElement();
  auto checkPtr = [&](const TType &a, const TType &other,
                      bool allow) -> LogicalResult {
    if (!a.isPointer())
      return success();
    if (!allow || (other.isPointer() && a != other) || other.isFloating())
      return fail("invalid operands of type " + lt.str() + " and " + rt.str());
    return success();
  };
  if (failed(checkPtr(lt, rt, allowLhsPtr)) ||
      failed(checkPtr(rt, lt, allowRhsPtr)))
    return failure();

  Value lhs, rhs;
  if (arithmeticCheck && !lt.isPointer() && !rt.isPointer()) {
    Promotion p = computeType(lt, lhsScalar, rt, rhsScalar, divOrMod);
    if (!p.ok())
      return fail(p.error);
    const TType &ret = p.type;
    for (auto [isScalar, v] :
         {std::pair{lhsScalar, &lhsIn}, std::pair{rhsScalar, &rhsIn}}) {
      if (!isScalar || !ret.isInt())
        continue;
      const HostValue &h = v->getHost();
      if (h.isFloat())
        continue;
      if (ret.isUnsignedInt() && h.getInt() < 0)
        return fail("cannot perform a binary operation between an unsigned "
                    "tensor and a negative scalar; cast one of them "
                    "explicitly");
      if (!fitsIn(h.getInt(), ret))
        return fail("scalar " + h.repr() + " is out of range for type " +
                    ret.str());
    }
    auto convert = [&](bool isScalar, const Value &v) -> FailureOr<Value> {
      if (isScalar)
        return scalarConstant(v.getHost(), ret);
      return castTo(v, ret);
    };
    FailureOr<Value> l = convert(lhsScalar, lhsIn);
    if (failed(l))
      return failure();
    FailureOr<Value> r = convert(rhsScalar, rhsIn);
    if (failed(r))
      return failure();
    lhs = *l;
    rhs = *r;
  } else {
    FailureOr<Value> l = toTensor(lhsIn);
    if (failed(l))
      return failure();
    FailureOr<Value> r = toTensor(rhsIn);
    if (failed(r))
      return failure();
    lhs = *l;
    rhs = *r;
  }
  return broadcastPair(lhs, rhs);
}
