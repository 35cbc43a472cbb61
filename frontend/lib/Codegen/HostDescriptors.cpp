//===- HostDescriptors.cpp - Tensor descriptors passed to a kernel --------===//
//
// A kernel parameter specialized as `tensordesc<fp16[64, 64]>` receives a
// descriptor built on the host (Triton's TensorDescriptor). It is passed as
// its fields: the base pointer, the shape (i32 each) and the strides (i64
// each), and the kernel rebuilds the descriptor from them at its entry with
// tessera.make_tensor_desc. Every backend then treats it as a descriptor made
// in the kernel: the cpu reads the fields, a target with tensor-memory
// copies recognizes a descriptor whose fields are launch parameters and
// encodes its tensor map at launch, others use the plain tiled lowering.
//
// What the host guarantees (Triton's TensorDescriptor checks, repeated by
// the runtime at launch) is stated on the parameters: a 16-byte aligned base,
// strides but the last multiples of 16 bytes, and a last stride of 1, which
// the kernel uses as the constant 1 (its parameter is still passed, as in
// Triton's calling convention).
//
//===----------------------------------------------------------------------===//
#include "Builtins.h"

using namespace tessera::frontend;
using namespace tessera::frontend::codegen;
namespace tt = mlir::tessera;

void tessera::frontend::codegen::appendHostDescriptorParamTypes(
    FunctionCodegen &cg, const SpecializedParam &param,
    llvm::SmallVectorImpl<mlir::Type> &types) {
  const TType &block = param.type.getDescBlock();
  size_t rank = block.getShape().size();
  types.push_back(TType::pointer(block.getElement()).toMLIR(cg.getContext()));
  types.append(rank, mlir::IntegerType::get(cg.getContext(), 32));
  types.append(rank, mlir::IntegerType::get(cg.getContext(), 64));
}

Value tessera::frontend::codegen::bindHostDescriptor(
    FunctionCodegen &cg, const SpecializedParam &param, unsigned &argIndex) {
  const TType &block = param.type.getDescBlock();
  size_t rank = block.getShape().size();
  mlir::Block &entry = cg.fn.getBody().front();
  mlir::OpBuilder attrs(cg.getContext());
  unsigned base = argIndex;
  cg.fn.setArgAttr(base, tt::kDivisibilityAttrName,
                   attrs.getI32IntegerAttr(16));
  // Strides but the last are multiples of 16 bytes: of 16 / element bytes
  // elements (1 for elements of 16 bytes or more).
  unsigned elementBytes = std::max(1u, block.getPrimitiveBitwidth() / 8);
  unsigned strideDivisibility = std::max(1u, 16 / elementBytes);
  std::vector<Value> shape, strides;
  for (size_t d = 0; d < rank; ++d)
    shape.push_back(Value::tensor(entry.getArgument(base + 1 + d),
                                  TType::scalar(ScalarKind::Int32)));
  for (size_t d = 0; d < rank; ++d) {
    unsigned index = base + 1 + rank + d;
    if (d + 1 < rank) {
      if (strideDivisibility > 1)
        cg.fn.setArgAttr(index, tt::kDivisibilityAttrName,
                         attrs.getI32IntegerAttr(int32_t(strideDivisibility)));
      strides.push_back(Value::tensor(entry.getArgument(index),
                                      TType::scalar(ScalarKind::Int64)));
    } else {
      strides.push_back(cg.scalarConstant(HostValue::integer(1),
                                          TType::scalar(ScalarKind::Int64)));
    }
  }
  argIndex += 1 + 2 * rank;
  llvm::SmallVector<mlir::Value> shapeHandles, strideHandles;
  for (const Value &v : shape)
    shapeHandles.push_back(v.getHandle());
  for (const Value &v : strides)
    strideHandles.push_back(v.getHandle());
  auto op = tt::MakeTensorDescOp::create(
      cg.b, cg.loc, param.type.toMLIR(cg.getContext()), entry.getArgument(base),
      shapeHandles, strideHandles,
      param.nanPadding ? tt::PaddingOption::nan : tt::PaddingOption::zero);
  return Value::descriptor(op, param.type, shape, strides);
}
