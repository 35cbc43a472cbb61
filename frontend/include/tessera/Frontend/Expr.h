//===- Expr.h - Expression nodes of the Triton-language AST -----*- C++ -*-===//
//
// Expression nodes mirror Python's `ast` module closely (same names, same
// fields), so that readers who know Python's AST can walk this one.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_FRONTEND_EXPR_H
#define TESSERA_FRONTEND_EXPR_H

#include "tessera/Frontend/ASTBase.h"

namespace tessera::frontend {

class Expr : public Node {
public:
  static bool classof(const Node *n) {
    return n->getKind() >= NodeKind::Name &&
           n->getKind() <= NodeKind::NamedExpr;
  }

protected:
  using Node::Node;
};

enum class BinaryOpKind : uint8_t {
  Add,
  Sub,
  Mult,
  MatMult,
  Div,
  FloorDiv,
  Mod,
  Pow,
  LShift,
  RShift,
  BitOr,
  BitXor,
  BitAnd
};
enum class UnaryOpKind : uint8_t { UAdd, USub, Invert, Not };
enum class BoolOpKind : uint8_t { And, Or };
enum class CmpOpKind : uint8_t {
  Eq,
  NotEq,
  Lt,
  LtE,
  Gt,
  GtE,
  Is,
  IsNot,
  In,
  NotIn
};

/// Python spelling of an operator ("+", "not in", ...).
llvm::StringRef getSpelling(BinaryOpKind op);
llvm::StringRef getSpelling(UnaryOpKind op);
llvm::StringRef getSpelling(BoolOpKind op);
llvm::StringRef getSpelling(CmpOpKind op);
/// Python's ast class name of an operator ("Add", "NotIn", ...).
llvm::StringRef getName(BinaryOpKind op);
llvm::StringRef getName(UnaryOpKind op);
llvm::StringRef getName(BoolOpKind op);
llvm::StringRef getName(CmpOpKind op);

/// `name=value` in a call, or `**value` when name is empty.
struct Keyword {
  SourceRange range;
  llvm::StringRef name;
  Expr *value = nullptr;
};

/// One `for target in iter if cond...` clause of a comprehension.
struct Comprehension {
  SourceRange range;
  Expr *target = nullptr;
  Expr *iter = nullptr;
  llvm::ArrayRef<Expr *> ifs;
};

enum class ParamKind : uint8_t {
  PositionalOnly, // before '/'
  Positional,     // ordinary
  VarPositional,  // *args
  KeywordOnly,    // after '*' or *args
  VarKeyword      // **kwargs
};

/// A parameter of a def or lambda, with optional annotation and default.
struct Parameter {
  SourceRange range;
  llvm::StringRef name;
  ParamKind kind = ParamKind::Positional;
  Expr *annotation = nullptr;
  Expr *defaultValue = nullptr;
};

#define TESSERA_CLASSOF(KIND)                                                  \
  static bool classof(const Node *n) { return n->getKind() == NodeKind::KIND; }

/// An identifier.
class NameExpr : public Expr {
public:
  NameExpr(SourceRange r, llvm::StringRef id)
      : Expr(NodeKind::Name, r), id(id) {}
  llvm::StringRef getId() const { return id; }
  TESSERA_CLASSOF(Name)
private:
  llvm::StringRef id;
};

/// An integer literal; `fits` is false if it needs more than 64 bits.
class IntLiteralExpr : public Expr {
public:
  IntLiteralExpr(SourceRange r, uint64_t value, bool fits)
      : Expr(NodeKind::IntLiteral, r), value(value), fits(fits) {}
  uint64_t getValue() const { return value; }
  bool fitsIn64Bits() const { return fits; }
  TESSERA_CLASSOF(IntLiteral)
private:
  uint64_t value;
  bool fits;
};

class FloatLiteralExpr : public Expr {
public:
  FloatLiteralExpr(SourceRange r, double value)
      : Expr(NodeKind::FloatLiteral, r), value(value) {}
  double getValue() const { return value; }
  TESSERA_CLASSOF(FloatLiteral)
private:
  double value;
};

/// One string literal or several adjacent ones, concatenated. The value has
/// escapes decoded; for an f-string it is the raw text between the quotes
/// (a later stage reports f-strings as unsupported in device code).
class StringLiteralExpr : public Expr {
public:
  StringLiteralExpr(SourceRange r, llvm::StringRef value, bool isBytes,
                    bool isFString)
      : Expr(NodeKind::StringLiteral, r), value(value), bytes(isBytes),
        fstring(isFString) {}
  llvm::StringRef getValue() const { return value; }
  bool isBytes() const { return bytes; }
  bool isFString() const { return fstring; }
  /// The literal exactly as written, prefixes and quotes included.
  llvm::StringRef getSpelling() const {
    return llvm::StringRef(getLoc().getPointer(),
                           getEndLoc().getPointer() - getLoc().getPointer());
  }
  TESSERA_CLASSOF(StringLiteral)
private:
  llvm::StringRef value;
  bool bytes;
  bool fstring;
};

class BoolLiteralExpr : public Expr {
public:
  BoolLiteralExpr(SourceRange r, bool value)
      : Expr(NodeKind::BoolLiteral, r), value(value) {}
  bool getValue() const { return value; }
  TESSERA_CLASSOF(BoolLiteral)
private:
  bool value;
};

class NoneLiteralExpr : public Expr {
public:
  explicit NoneLiteralExpr(SourceRange r) : Expr(NodeKind::NoneLiteral, r) {}
  TESSERA_CLASSOF(NoneLiteral)
};

/// `...`
class EllipsisLiteralExpr : public Expr {
public:
  explicit EllipsisLiteralExpr(SourceRange r)
      : Expr(NodeKind::EllipsisLiteral, r) {}
  TESSERA_CLASSOF(EllipsisLiteral)
};

/// `value.attr`
class AttributeExpr : public Expr {
public:
  AttributeExpr(SourceRange r, Expr *value, llvm::StringRef attr,
                SourceLoc attrLoc)
      : Expr(NodeKind::Attribute, r), value(value), attr(attr),
        attrLoc(attrLoc) {}
  Expr *getValue() const { return value; }
  llvm::StringRef getAttr() const { return attr; }
  const SourceLoc &getAttrLoc() const { return attrLoc; }
  TESSERA_CLASSOF(Attribute)
private:
  Expr *value;
  llvm::StringRef attr;
  SourceLoc attrLoc;
};

/// `value[index]`; a multi-dimensional index is a TupleExpr of indices and
/// SliceExprs.
class SubscriptExpr : public Expr {
public:
  SubscriptExpr(SourceRange r, Expr *value, Expr *index)
      : Expr(NodeKind::Subscript, r), value(value), index(index) {}
  Expr *getValue() const { return value; }
  Expr *getIndex() const { return index; }
  TESSERA_CLASSOF(Subscript)
private:
  Expr *value;
  Expr *index;
};

/// `lower:upper:step` inside a subscript; each part may be null.
class SliceExpr : public Expr {
public:
  SliceExpr(SourceRange r, Expr *lower, Expr *upper, Expr *step)
      : Expr(NodeKind::Slice, r), lower(lower), upper(upper), step(step) {}
  Expr *getLower() const { return lower; }
  Expr *getUpper() const { return upper; }
  Expr *getStep() const { return step; }
  TESSERA_CLASSOF(Slice)
private:
  Expr *lower, *upper, *step;
};

/// `func(args..., keywords...)`; `*x` arguments are StarredExprs in args.
class CallExpr : public Expr {
public:
  CallExpr(SourceRange r, Expr *func, llvm::ArrayRef<Expr *> args,
           llvm::ArrayRef<Keyword> keywords)
      : Expr(NodeKind::Call, r), func(func), args(args), keywords(keywords) {}
  Expr *getFunc() const { return func; }
  llvm::ArrayRef<Expr *> getArgs() const { return args; }
  llvm::ArrayRef<Keyword> getKeywords() const { return keywords; }
  /// The keyword argument `name`, or null.
  Expr *getKeyword(llvm::StringRef name) const {
    for (const Keyword &k : keywords)
      if (k.name == name)
        return k.value;
    return nullptr;
  }
  TESSERA_CLASSOF(Call)
private:
  Expr *func;
  llvm::ArrayRef<Expr *> args;
  llvm::ArrayRef<Keyword> keywords;
};

class BinOpExpr : public Expr {
public:
  BinOpExpr(SourceRange r, BinaryOpKind op, Expr *lhs, Expr *rhs,
            SourceLoc opLoc)
      : Expr(NodeKind::BinOp, r), op(op), lhs(lhs), rhs(rhs), opLoc(opLoc) {}
  BinaryOpKind getOp() const { return op; }
  Expr *getLHS() const { return lhs; }
  Expr *getRHS() const { return rhs; }
  /// Location of the operator token, for diagnostics about the operation.
  const SourceLoc &getOpLoc() const { return opLoc; }
  TESSERA_CLASSOF(BinOp)
private:
  BinaryOpKind op;
  Expr *lhs, *rhs;
  SourceLoc opLoc;
};

class UnaryOpExpr : public Expr {
public:
  UnaryOpExpr(SourceRange r, UnaryOpKind op, Expr *operand)
      : Expr(NodeKind::UnaryOp, r), op(op), operand(operand) {}
  UnaryOpKind getOp() const { return op; }
  Expr *getOperand() const { return operand; }
  TESSERA_CLASSOF(UnaryOp)
private:
  UnaryOpKind op;
  Expr *operand;
};

/// `a and b and c` (flattened, as Python's ast).
class BoolOpExpr : public Expr {
public:
  BoolOpExpr(SourceRange r, BoolOpKind op, llvm::ArrayRef<Expr *> values)
      : Expr(NodeKind::BoolOp, r), op(op), values(values) {}
  BoolOpKind getOp() const { return op; }
  llvm::ArrayRef<Expr *> getValues() const { return values; }
  TESSERA_CLASSOF(BoolOp)
private:
  BoolOpKind op;
  llvm::ArrayRef<Expr *> values;
};

/// `left op0 c0 op1 c1 ...`, a chained comparison.
class CompareExpr : public Expr {
public:
  CompareExpr(SourceRange r, Expr *left, llvm::ArrayRef<CmpOpKind> ops,
              llvm::ArrayRef<Expr *> comparators)
      : Expr(NodeKind::Compare, r), left(left), ops(ops),
        comparators(comparators) {}
  Expr *getLeft() const { return left; }
  llvm::ArrayRef<CmpOpKind> getOps() const { return ops; }
  llvm::ArrayRef<Expr *> getComparators() const { return comparators; }
  TESSERA_CLASSOF(Compare)
private:
  Expr *left;
  llvm::ArrayRef<CmpOpKind> ops;
  llvm::ArrayRef<Expr *> comparators;
};

/// `body if test else orelse`
class IfExpExpr : public Expr {
public:
  IfExpExpr(SourceRange r, Expr *test, Expr *body, Expr *orelse)
      : Expr(NodeKind::IfExp, r), test(test), body(body), orelse(orelse) {}
  Expr *getTest() const { return test; }
  Expr *getBody() const { return body; }
  Expr *getOrElse() const { return orelse; }
  TESSERA_CLASSOF(IfExp)
private:
  Expr *test, *body, *orelse;
};

class LambdaExpr : public Expr {
public:
  LambdaExpr(SourceRange r, llvm::ArrayRef<Parameter> params, Expr *body)
      : Expr(NodeKind::Lambda, r), params(params), body(body) {}
  llvm::ArrayRef<Parameter> getParams() const { return params; }
  Expr *getBody() const { return body; }
  TESSERA_CLASSOF(Lambda)
private:
  llvm::ArrayRef<Parameter> params;
  Expr *body;
};

/// Shared shape of tuple, list and set displays.
class SequenceExpr : public Expr {
public:
  llvm::ArrayRef<Expr *> getElts() const { return elts; }
  static bool classof(const Node *n) {
    return n->getKind() == NodeKind::Tuple || n->getKind() == NodeKind::List ||
           n->getKind() == NodeKind::Set;
  }

protected:
  SequenceExpr(NodeKind k, SourceRange r, llvm::ArrayRef<Expr *> elts)
      : Expr(k, r), elts(elts) {}

private:
  llvm::ArrayRef<Expr *> elts;
};

class TupleExpr : public SequenceExpr {
public:
  TupleExpr(SourceRange r, llvm::ArrayRef<Expr *> elts, bool parenthesized)
      : SequenceExpr(NodeKind::Tuple, r, elts), parenthesized(parenthesized) {}
  bool isParenthesized() const { return parenthesized; }
  TESSERA_CLASSOF(Tuple)
private:
  bool parenthesized;
};

class ListExpr : public SequenceExpr {
public:
  ListExpr(SourceRange r, llvm::ArrayRef<Expr *> elts)
      : SequenceExpr(NodeKind::List, r, elts) {}
  TESSERA_CLASSOF(List)
};

class SetExpr : public SequenceExpr {
public:
  SetExpr(SourceRange r, llvm::ArrayRef<Expr *> elts)
      : SequenceExpr(NodeKind::Set, r, elts) {}
  TESSERA_CLASSOF(Set)
};

/// `{k: v, **d}`; a null key marks a `**d` entry.
class DictExpr : public Expr {
public:
  DictExpr(SourceRange r, llvm::ArrayRef<Expr *> keys,
           llvm::ArrayRef<Expr *> values)
      : Expr(NodeKind::Dict, r), keys(keys), values(values) {}
  llvm::ArrayRef<Expr *> getKeys() const { return keys; }
  llvm::ArrayRef<Expr *> getValues() const { return values; }
  TESSERA_CLASSOF(Dict)
private:
  llvm::ArrayRef<Expr *> keys, values;
};

/// Shared shape of list/set comprehensions and generator expressions.
class ComprehensionExpr : public Expr {
public:
  Expr *getElt() const { return elt; }
  llvm::ArrayRef<Comprehension> getGenerators() const { return generators; }
  static bool classof(const Node *n) {
    return n->getKind() == NodeKind::ListComp ||
           n->getKind() == NodeKind::SetComp ||
           n->getKind() == NodeKind::GeneratorExp;
  }

protected:
  ComprehensionExpr(NodeKind k, SourceRange r, Expr *elt,
                    llvm::ArrayRef<Comprehension> generators)
      : Expr(k, r), elt(elt), generators(generators) {}

private:
  Expr *elt;
  llvm::ArrayRef<Comprehension> generators;
};

class ListCompExpr : public ComprehensionExpr {
public:
  ListCompExpr(SourceRange r, Expr *elt, llvm::ArrayRef<Comprehension> gens)
      : ComprehensionExpr(NodeKind::ListComp, r, elt, gens) {}
  TESSERA_CLASSOF(ListComp)
};

class SetCompExpr : public ComprehensionExpr {
public:
  SetCompExpr(SourceRange r, Expr *elt, llvm::ArrayRef<Comprehension> gens)
      : ComprehensionExpr(NodeKind::SetComp, r, elt, gens) {}
  TESSERA_CLASSOF(SetComp)
};

class GeneratorExpExpr : public ComprehensionExpr {
public:
  GeneratorExpExpr(SourceRange r, Expr *elt, llvm::ArrayRef<Comprehension> gens)
      : ComprehensionExpr(NodeKind::GeneratorExp, r, elt, gens) {}
  TESSERA_CLASSOF(GeneratorExp)
};

class DictCompExpr : public Expr {
public:
  DictCompExpr(SourceRange r, Expr *key, Expr *value,
               llvm::ArrayRef<Comprehension> generators)
      : Expr(NodeKind::DictComp, r), key(key), value(value),
        generators(generators) {}
  Expr *getKey() const { return key; }
  Expr *getValue() const { return value; }
  llvm::ArrayRef<Comprehension> getGenerators() const { return generators; }
  TESSERA_CLASSOF(DictComp)
private:
  Expr *key, *value;
  llvm::ArrayRef<Comprehension> generators;
};

/// `*value` in a call, display or assignment target.
class StarredExpr : public Expr {
public:
  StarredExpr(SourceRange r, Expr *value)
      : Expr(NodeKind::Starred, r), value(value) {}
  Expr *getValue() const { return value; }
  TESSERA_CLASSOF(Starred)
private:
  Expr *value;
};

/// `target := value` (the walrus); parsed so a later stage can reject it.
class NamedExprExpr : public Expr {
public:
  NamedExprExpr(SourceRange r, NameExpr *target, Expr *value)
      : Expr(NodeKind::NamedExpr, r), target(target), value(value) {}
  NameExpr *getTarget() const { return target; }
  Expr *getValue() const { return value; }
  TESSERA_CLASSOF(NamedExpr)
private:
  NameExpr *target;
  Expr *value;
};

} // namespace tessera::frontend

#endif // TESSERA_FRONTEND_EXPR_H
