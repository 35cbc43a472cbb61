//===- ExprCodegen.cpp - Lowering of expressions
//---------------------------===//
//
// Expressions evaluate to Values. Operators on tensors follow Triton's
// semantics (Arithmetic.cpp); operators on constexprs follow Python's, by
// way of the host evaluator, so that `BLOCK // 2` or `"a" + "b"` in device
// code mean what they mean on the host.
//
//===----------------------------------------------------------------------===//
#include "CodeGen.h"

#include "tessera/Frontend/Limits.h"

#include "llvm/Support/FormatVariadic.h"

using namespace tessera::frontend;
using namespace tessera::frontend::codegen;
using llvm::cast;
using llvm::dyn_cast;
using llvm::failure;
using llvm::FailureOr;
using llvm::isa;

/// Python's truth value of a non-tensor value.
static bool isTruthy(const Value &v) {
  if (v.isConstexpr())
    return v.getHost().isTruthy();
  if (v.isTuple())
    return !v.getElements().empty();
  return true;
}

/// Lowers the elements of a tuple or list display, expanding `*t`.
static FailureOr<Value> lowerSequence(FunctionCodegen &cg,
                                      llvm::ArrayRef<Expr *> elts) {
  std::vector<Value> out;
  for (const Expr *e : elts) {
    if (auto *star = dyn_cast<StarredExpr>(e)) {
      FailureOr<Value> v = cg.lowerExpr(star->getValue());
      if (failed(v))
        return failure();
      if (!v->isTuple())
        return cg.fail(e, "only tuples can be unpacked with '*', got " +
                              v->typeStr());
      for (const Value &x : v->getElements())
        out.push_back(x);
      continue;
    }
    FailureOr<Value> v = cg.lowerExpr(e);
    if (failed(v))
      return failure();
    out.push_back(*v);
  }
  return Value::tuple(std::move(out));
}

/// `lhs op rhs` on values of which neither is a tensor.
static FailureOr<Value> constexprBinary(FunctionCodegen &cg, BinaryOpKind op,
                                        const Value &lhs, const Value &rhs,
                                        llvm::SMLoc loc) {
  // Tuples may hold tensors: concatenation and repetition work on Values.
  if (lhs.isTuple() && rhs.isTuple() && op == BinaryOpKind::Add) {
    std::vector<Value> elts(lhs.getElements().begin(), lhs.getElements().end());
    elts.insert(elts.end(), rhs.getElements().begin(), rhs.getElements().end());
    return Value::tuple(std::move(elts));
  }
  if (op == BinaryOpKind::Mult && (lhs.isTuple() || rhs.isTuple())) {
    const Value &seq = lhs.isTuple() ? lhs : rhs;
    const Value &count = lhs.isTuple() ? rhs : lhs;
    if (count.isConstexpr() && count.getHost().isIntegral()) {
      // The host evaluator's bound on a repeated sequence: (x,) * 2**40
      // would otherwise build a tuple until memory ran out.
      constexpr int64_t kMaxElements = 1 << 20;
      size_t size = std::max<size_t>(seq.getElements().size(), 1);
      if (count.getHost().getInt() > int64_t(kMaxElements / size))
        return cg.fail(loc, "sequence repetition is too large");
      std::vector<Value> elts;
      for (int64_t i = 0; i < count.getHost().getInt(); ++i)
        elts.insert(elts.end(), seq.getElements().begin(),
                    seq.getElements().end());
      return Value::tuple(std::move(elts));
    }
  }
  std::optional<HostValue> l = lhs.toHost(), r = rhs.toHost();
  if (!l || !r)
    return cg.fail(loc, "unsupported operand types for " + getSpelling(op) +
                            ": " + lhs.typeStr() + " and " + rhs.typeStr());
  FailureOr<HostValue> v = cg.m.eval.evalBinary(op, *l, *r, loc);
  if (failed(v))
    return failure();
  return Value::fromHost(*v);
}

/// Python's `is`: identity, which for the values device code can compare
/// means equality of None, bools and dtypes and sameness of IR values.
static bool isSame(const Value &a, const Value &b) {
  if (a.isConstexpr() && b.isConstexpr())
    return a.getHost().getKind() == b.getHost().getKind() &&
           a.getHost().equals(b.getHost());
  if (a.isType() && b.isType())
    return a.getType() == b.getType();
  if ((a.isTensor() || a.isDescriptor()) && a.getKind() == b.getKind())
    return a.getHandle() == b.getHandle();
  return false;
}

/// One comparison `lhs op rhs`.
static FailureOr<Value> compareValues(FunctionCodegen &cg, CmpOpKind op,
                                      const Value &lhs, const Value &rhs,
                                      llvm::SMLoc loc) {
  if (op == CmpOpKind::Is || op == CmpOpKind::IsNot) {
    bool same = isSame(lhs, rhs);
    return Value::constant(
        HostValue::boolean(op == CmpOpKind::Is ? same : !same));
  }
  if (lhs.isTensor() || rhs.isTensor()) {
    if (op == CmpOpKind::In || op == CmpOpKind::NotIn)
      return cg.fail(loc,
                     "'" + getSpelling(op) + "' is not supported on tensors");
    return cg.compare(op, lhs, rhs);
  }
  if (lhs.isType() || rhs.isType()) {
    if (op != CmpOpKind::Eq && op != CmpOpKind::NotEq)
      return cg.fail(loc, "dtypes can only be compared with == and !=");
    bool eq = lhs.isType() && rhs.isType() && lhs.getType() == rhs.getType();
    return Value::constant(HostValue::boolean(op == CmpOpKind::Eq ? eq : !eq));
  }
  std::optional<HostValue> l = lhs.toHost(), r = rhs.toHost();
  if (!l || !r)
    return cg.fail(loc, "cannot compare " + lhs.typeStr() + " and " +
                            rhs.typeStr() + " with '" + getSpelling(op) + "'");
  FailureOr<bool> v = cg.m.eval.evalCompare(op, *l, *r, loc);
  if (failed(v))
    return failure();
  return Value::constant(HostValue::boolean(*v));
}

/// A chained comparison `a < b < c`: constexpr links short-circuit as in
/// Python, tensor links combine with `&`.
static FailureOr<Value> lowerCompare(FunctionCodegen &cg,
                                     const CompareExpr *cmp) {
  FailureOr<Value> left = cg.lowerExpr(cmp->getLeft());
  if (failed(left))
    return failure();
  std::optional<Value> acc;
  for (size_t i = 0; i < cmp->getOps().size(); ++i) {
    const Expr *rhsExpr = cmp->getComparators()[i];
    FailureOr<Value> right = cg.lowerExpr(rhsExpr);
    if (failed(right))
      return failure();
    FailureOr<Value> link = compareValues(cg, cmp->getOps()[i], *left, *right,
                                          rhsExpr->getLoc().ptr);
    if (failed(link))
      return failure();
    if (!link->isTensor() && !isTruthy(*link))
      return *link;
    if (link->isTensor()) {
      if (acc) {
        FailureOr<Value> both = cg.bitwise(BinaryOpKind::BitAnd, *acc, *link);
        if (failed(both))
          return failure();
        acc = *both;
      } else {
        acc = *link;
      }
    }
    left = right;
  }
  return acc ? *acc : Value::constant(HostValue::boolean(true));
}

/// `a and b` / `a or b` as Triton lowers them: constexpr operands decide
/// (and short-circuit) as in Python; tensor operands are all evaluated and
/// combined with logical_and / logical_or.
static FailureOr<Value> lowerBoolOp(FunctionCodegen &cg, const BoolOpExpr *e) {
  bool isAnd = e->getOp() == BoolOpKind::And;
  std::vector<Value> nontrivial;
  Value last;
  for (const Expr *operand : e->getValues()) {
    FailureOr<Value> v = cg.lowerExpr(operand);
    if (failed(v))
      return failure();
    last = *v;
    if (!v->isTensor()) {
      bool truthy = isTruthy(*v);
      if (isAnd && !truthy)
        return *v;
      if (!isAnd && truthy)
        return *v;
      continue;
    }
    nontrivial.push_back(*v);
  }
  if (nontrivial.empty())
    return last;
  while (nontrivial.size() >= 2) {
    Value rhs = nontrivial.back();
    nontrivial.pop_back();
    Value lhs = nontrivial.back();
    nontrivial.pop_back();
    FailureOr<Value> r = cg.logicalAndOr(isAnd, lhs, rhs);
    if (failed(r))
      return failure();
    nontrivial.push_back(*r);
  }
  return nontrivial.front();
}

/// `x[...]` on a tensor: `None` inserts a dimension, `:` keeps one, `...`
/// stands for as many `:` as the remaining dimensions need. As in Triton,
/// the i-th item acts on dimension i of the result so far, and a `:` past
/// its rank does nothing (`scalar_ptr[None, None, :]` is a 1x1 block).
static FailureOr<Value> subscriptTensor(FunctionCodegen &cg, const Value &t,
                                        const SubscriptExpr *sub) {
  llvm::SmallVector<const Expr *> items;
  if (auto *tuple = dyn_cast<TupleExpr>(sub->getIndex()))
    items.append(tuple->getElts().begin(), tuple->getElts().end());
  else
    items.push_back(sub->getIndex());
  enum class Item { NewAxis, Keep, Ellipsis };
  llvm::SmallVector<Item> kinds;
  for (const Expr *item : items) {
    if (auto *slice = dyn_cast<SliceExpr>(item)) {
      for (const Expr *part :
           {slice->getLower(), slice->getUpper(), slice->getStep()})
        if (part && !isa<NoneLiteralExpr>(part))
          return cg.fail(item,
                         "unsupported tensor index: only ':' slices "
                         "(whole dimensions) are supported",
                         "use tl.arange offsets and masks to address part "
                         "of a tensor");
      kinds.push_back(Item::Keep);
      continue;
    }
    FailureOr<Value> v = cg.lowerExpr(item);
    if (failed(v))
      return failure();
    if (v->isNone()) {
      kinds.push_back(Item::NewAxis);
    } else if (v->isConstexpr() && v->getHost().isSymbol() &&
               v->getHost().getString() == "Ellipsis") {
      kinds.push_back(Item::Ellipsis);
    } else {
      return cg.fail(item, "unsupported tensor index of type " + v->typeStr(),
                     "tensors can be indexed with None, ':' and '...' "
                     "only; use tl.arange offsets and masks to address "
                     "elements");
    }
  }
  size_t rank = t.getType().getShape().size();
  size_t kept = llvm::count(kinds, Item::Keep);
  size_t numEllipsis = llvm::count(kinds, Item::Ellipsis);
  if (numEllipsis > 1)
    return cg.fail(sub->getIndex(), "an index can only have a single '...'");
  Value result = t;
  int64_t dim = 0;
  for (auto [k, item] : llvm::zip(kinds, items)) {
    switch (k) {
    case Item::NewAxis: {
      int64_t resultRank = result.getType().getShape().size();
      if (dim > resultRank)
        return cg.fail(item,
                       llvm::formatv("None at index position {0} is past the "
                                     "rank {1} of the tensor it expands",
                                     dim, resultRank),
                       "the ':' before it stand for dimensions the tensor "
                       "does not have");
      result = cg.expandDims(result, dim);
      ++dim;
      break;
    }
    case Item::Keep:
      ++dim;
      break;
    case Item::Ellipsis:
      dim += kept < rank ? rank - kept : 0;
      break;
    }
  }
  return result;
}

static FailureOr<Value> lowerSubscript(FunctionCodegen &cg,
                                       const SubscriptExpr *sub) {
  FailureOr<Value> base = cg.lowerExpr(sub->getValue());
  if (failed(base))
    return failure();
  if (base->isTensor())
    return subscriptTensor(cg, *base, sub);
  if (base->isTuple()) {
    llvm::ArrayRef<Value> elts = base->getElements();
    int64_t size = elts.size();
    if (auto *slice = dyn_cast<SliceExpr>(sub->getIndex())) {
      int64_t parts[3] = {0, size, 1};
      const Expr *exprs[3] = {slice->getLower(), slice->getUpper(),
                              slice->getStep()};
      bool given[3] = {false, false, false};
      for (int i = 0; i < 3; ++i) {
        if (!exprs[i])
          continue;
        FailureOr<Value> v = cg.lowerExpr(exprs[i]);
        if (failed(v))
          return failure();
        if (v->isNone())
          continue;
        FailureOr<int64_t> x =
            cg.requireInt(*v, "a tuple slice bound", exprs[i]);
        if (failed(x))
          return failure();
        parts[i] = *x;
        given[i] = true;
      }
      int64_t step = parts[2];
      if (step == 0)
        return cg.fail(sub->getIndex(), "slice step cannot be zero");
      auto clampIdx = [&](int64_t v, bool isGiven, int64_t dflt) {
        if (!isGiven)
          return dflt;
        if (v < 0)
          v += size;
        return step > 0 ? std::clamp<int64_t>(v, 0, size)
                        : std::clamp<int64_t>(v, -1, size - 1);
      };
      int64_t start = clampIdx(parts[0], given[0], step > 0 ? 0 : size - 1);
      int64_t stop = clampIdx(parts[1], given[1], step > 0 ? size : -1);
      std::vector<Value> out;
      for (int64_t i = start; step > 0 ? i < stop : i > stop; i += step)
        out.push_back(elts[i]);
      return Value::tuple(std::move(out));
    }
    FailureOr<Value> idx = cg.lowerExpr(sub->getIndex());
    if (failed(idx))
      return failure();
    FailureOr<int64_t> i =
        cg.requireInt(*idx, "a tuple index", sub->getIndex());
    if (failed(i))
      return failure();
    int64_t k = *i < 0 ? *i + size : *i;
    if (k < 0 || k >= size)
      return cg.fail(sub->getIndex(),
                     llvm::formatv("tuple index {0} is out of range for a "
                                   "tuple of {1} elements",
                                   *i, size));
    return elts[k];
  }
  if (base->isConstexpr() &&
      (base->getHost().isString() || base->getHost().isDict())) {
    FailureOr<Value> idx = cg.lowerExpr(sub->getIndex());
    if (failed(idx))
      return failure();
    std::optional<HostValue> key = idx->toHost();
    const HostValue &h = base->getHost();
    if (h.isDict()) {
      if (key)
        if (const HostValue *v = h.lookup(*key))
          return Value::fromHost(*v);
      return cg.fail(sub->getIndex(), "key is not in the dict");
    }
    if (!key || !key->isIntegral())
      return cg.fail(sub->getIndex(), "string indices must be integers");
    int64_t i = key->getInt(), size = h.getString().size();
    if (i < 0)
      i += size;
    if (i < 0 || i >= size)
      return cg.fail(sub->getIndex(), "string index out of range");
    return Value::constant(HostValue::string(std::string(1, h.getString()[i])));
  }
  return cg.fail(sub, "cannot subscript a value of type " + base->typeStr());
}

/// Fails at `e` when `v` is or holds a block of more than kMaxBlockElements:
/// every shape-making op (a builtin, a broadcast, a dot) is an expression,
/// so checking each expression's value bounds them all.
static llvm::LogicalResult checkBlockLimit(FunctionCodegen &cg, const Value &v,
                                           const Expr *e) {
  if (v.isTuple()) {
    for (const Value &x : v.getElements())
      if (failed(checkBlockLimit(cg, x, e)))
        return failure();
    return llvm::success();
  }
  if (!v.isTensor() || !v.getType().isBlock())
    return llvm::success();
  llvm::ArrayRef<int64_t> shape = v.getType().getShape();
  int64_t numel = countBlockElements(shape);
  if (numel <= kMaxBlockElements)
    return llvm::success();
  std::string dims;
  for (int64_t d : shape)
    dims += (dims.empty() ? "" : ", ") + std::to_string(d);
  return cg.fail(e, llvm::formatv("this makes a block of shape [{0}] with {1} "
                                  "elements; a block has at most {2}",
                                  dims, numel, kMaxBlockElements));
}

FailureOr<Value> FunctionCodegen::lowerExpr(const Expr *e) {
  FailureOr<Value> v = lowerExprUnchecked(e);
  if (failed(v) || failed(checkBlockLimit(*this, *v, e)))
    return failure();
  return v;
}

FailureOr<Value> FunctionCodegen::lowerExprUnchecked(const Expr *e) {
  LocationScope scope(*this, e);
  switch (e->getKind()) {
  case NodeKind::Name:
    return lookupName(cast<NameExpr>(e));
  case NodeKind::IntLiteral: {
    auto *lit = cast<IntLiteralExpr>(e);
    if (!lit->fitsIn64Bits() ||
        lit->getValue() > uint64_t(std::numeric_limits<int64_t>::max()))
      return fail(e, "integer literal does not fit in 64 bits");
    return Value::constant(HostValue::integer(int64_t(lit->getValue())));
  }
  case NodeKind::FloatLiteral:
    return Value::constant(
        HostValue::floating(cast<FloatLiteralExpr>(e)->getValue()));
  case NodeKind::StringLiteral: {
    auto *str = cast<StringLiteralExpr>(e);
    if (str->isFString())
      return fail(e, "f-strings are not supported in device code",
                  "build the message from plain string literals");
    if (str->isBytes())
      return fail(e, "bytes literals are not supported in device code");
    return Value::constant(HostValue::string(str->getValue().str()));
  }
  case NodeKind::BoolLiteral:
    return Value::constant(
        HostValue::boolean(cast<BoolLiteralExpr>(e)->getValue()));
  case NodeKind::NoneLiteral:
    return Value::none();
  case NodeKind::EllipsisLiteral:
    return Value::constant(HostValue::symbol("Ellipsis"));
  case NodeKind::Attribute: {
    auto *attr = cast<AttributeExpr>(e);
    FailureOr<Value> base = lowerExpr(attr->getValue());
    if (failed(base))
      return failure();
    return getAttribute(*base, attr->getAttr(), attr->getAttrLoc().ptr);
  }
  case NodeKind::Subscript:
    return lowerSubscript(*this, cast<SubscriptExpr>(e));
  case NodeKind::Slice:
    return fail(e, "a slice is only allowed inside a subscript");
  case NodeKind::Call:
    return lowerCall(cast<CallExpr>(e));
  case NodeKind::BinOp: {
    auto *bin = cast<BinOpExpr>(e);
    FailureOr<Value> lhs = lowerExpr(bin->getLHS());
    if (failed(lhs))
      return failure();
    FailureOr<Value> rhs = lowerExpr(bin->getRHS());
    if (failed(rhs))
      return failure();
    curLoc = bin->getOpLoc().ptr;
    if (lhs->isTensor() || rhs->isTensor())
      return binaryOp(bin->getOp(), *lhs, *rhs);
    return constexprBinary(*this, bin->getOp(), *lhs, *rhs, curLoc);
  }
  case NodeKind::UnaryOp: {
    auto *un = cast<UnaryOpExpr>(e);
    FailureOr<Value> v = lowerExpr(un->getOperand());
    if (failed(v))
      return failure();
    if (v->isTensor()) {
      switch (un->getOp()) {
      case UnaryOpKind::UAdd:
        return *v;
      case UnaryOpKind::USub:
        return minus(*v);
      case UnaryOpKind::Invert:
        return invert(*v);
      case UnaryOpKind::Not:
        return logicalNot(*v);
      }
    }
    if (un->getOp() == UnaryOpKind::Not)
      return Value::constant(HostValue::boolean(!isTruthy(*v)));
    std::optional<HostValue> h = v->toHost();
    if (!h)
      return fail(e, "bad operand type for unary " + getSpelling(un->getOp()) +
                         ": " + v->typeStr());
    FailureOr<HostValue> r = m.eval.evalUnary(un->getOp(), *h, e->getLoc().ptr);
    if (failed(r))
      return failure();
    return Value::fromHost(*r);
  }
  case NodeKind::BoolOp:
    return lowerBoolOp(*this, cast<BoolOpExpr>(e));
  case NodeKind::Compare:
    return lowerCompare(*this, cast<CompareExpr>(e));
  case NodeKind::IfExp:
    return lowerIfExp(cast<IfExpExpr>(e));
  case NodeKind::Tuple:
  case NodeKind::List:
    return lowerSequence(*this, cast<SequenceExpr>(e)->getElts());
  case NodeKind::ListComp: {
    auto *comp = cast<ListCompExpr>(e);
    if (comp->getGenerators().size() != 1)
      return fail(e, "nested comprehensions are not supported in device code");
    const Comprehension &gen = comp->getGenerators()[0];
    if (!gen.ifs.empty())
      return fail(gen.ifs[0], "conditions in comprehensions are not supported "
                              "in device code");
    auto *target = dyn_cast<NameExpr>(gen.target);
    if (!target)
      return fail(gen.target, "a comprehension in device code must bind a "
                              "single name");
    FailureOr<Value> iter = lowerExpr(gen.iter);
    if (failed(iter))
      return failure();
    if (!iter->isTuple())
      return fail(gen.iter, "comprehensions in device code iterate over "
                            "tuples only, got " +
                                iter->typeStr());
    std::vector<Value> out;
    for (const Value &item : iter->getElements()) {
      setValue(target->getId(), item);
      FailureOr<Value> v = lowerExpr(comp->getElt());
      if (failed(v))
        return failure();
      out.push_back(*v);
    }
    return Value::tuple(std::move(out));
  }
  case NodeKind::Lambda:
    return fail(e, "lambda expressions are not supported in device code",
                "define a @triton.jit function instead");
  case NodeKind::Set:
    return fail(e, "sets are not supported in device code");
  case NodeKind::Dict:
    return fail(e, "dicts are not supported in device code");
  case NodeKind::SetComp:
  case NodeKind::DictComp:
  case NodeKind::GeneratorExp:
    return fail(e,
                "this kind of comprehension is not supported in device "
                "code",
                "only list comprehensions over tuples are");
  case NodeKind::Starred:
    return fail(e, "a starred expression is only allowed in a call or in a "
                   "tuple");
  case NodeKind::NamedExpr:
    return fail(e, "assignment expressions (':=') are not supported in "
                   "device code");
  default:
    return fail(e, "unsupported expression");
  }
}
