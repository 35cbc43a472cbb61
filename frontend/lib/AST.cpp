//===- AST.cpp - The Triton-language AST ----------------------------------===//
#include "tessera/Frontend/AST.h"

using namespace tessera::frontend;
using llvm::cast;

llvm::StringRef tessera::frontend::getNodeKindName(NodeKind kind) {
  switch (kind) {
#define EXPR(KIND, CLASS)                                                      \
  case NodeKind::KIND:                                                         \
    return #KIND;
#define STMT(KIND, CLASS)                                                      \
  case NodeKind::KIND:                                                         \
    return #KIND;
#include "tessera/Frontend/ASTNodes.def"
  }
  return "?";
}

llvm::StringRef tessera::frontend::getSpelling(BinaryOpKind op) {
  static const char *const spellings[] = {"+",  "-",  "*",  "@", "/", "//", "%",
                                          "**", "<<", ">>", "|", "^", "&"};
  return spellings[static_cast<unsigned>(op)];
}
llvm::StringRef tessera::frontend::getName(BinaryOpKind op) {
  static const char *const names[] = {
      "Add", "Sub",    "Mult",   "MatMult", "Div",    "FloorDiv", "Mod",
      "Pow", "LShift", "RShift", "BitOr",   "BitXor", "BitAnd"};
  return names[static_cast<unsigned>(op)];
}
llvm::StringRef tessera::frontend::getSpelling(UnaryOpKind op) {
  static const char *const spellings[] = {"+", "-", "~", "not"};
  return spellings[static_cast<unsigned>(op)];
}
llvm::StringRef tessera::frontend::getName(UnaryOpKind op) {
  static const char *const names[] = {"UAdd", "USub", "Invert", "Not"};
  return names[static_cast<unsigned>(op)];
}
llvm::StringRef tessera::frontend::getSpelling(BoolOpKind op) {
  return op == BoolOpKind::And ? "and" : "or";
}
llvm::StringRef tessera::frontend::getName(BoolOpKind op) {
  return op == BoolOpKind::And ? "And" : "Or";
}
llvm::StringRef tessera::frontend::getSpelling(CmpOpKind op) {
  static const char *const spellings[] = {"==", "!=", "<",      "<=", ">",
                                          ">=", "is", "is not", "in", "not in"};
  return spellings[static_cast<unsigned>(op)];
}
llvm::StringRef tessera::frontend::getName(CmpOpKind op) {
  static const char *const names[] = {"Eq",  "NotEq", "Lt",    "LtE", "Gt",
                                      "GtE", "Is",    "IsNot", "In",  "NotIn"};
  return names[static_cast<unsigned>(op)];
}

llvm::StringRef FunctionDefStmt::getDocstring() const {
  if (body.empty())
    return {};
  auto *stmt = llvm::dyn_cast<ExprStmt>(body.front());
  if (!stmt)
    return {};
  auto *str = llvm::dyn_cast<StringLiteralExpr>(stmt->getValue());
  if (!str || str->isFString() || str->isBytes())
    return {};
  return str->getValue();
}

void tessera::frontend::forEachChild(
    const Node *node, llvm::function_ref<void(const Node *)> fn) {
  auto opt = [&](const Node *n) {
    if (n)
      fn(n);
  };
  auto all = [&](auto range) {
    for (const Node *n : range)
      opt(n);
  };
  auto params = [&](llvm::ArrayRef<Parameter> ps) {
    for (const Parameter &p : ps) {
      opt(p.annotation);
      opt(p.defaultValue);
    }
  };
  auto gens = [&](llvm::ArrayRef<Comprehension> cs) {
    for (const Comprehension &c : cs) {
      opt(c.target);
      opt(c.iter);
      all(c.ifs);
    }
  };
  switch (node->getKind()) {
  case NodeKind::Name:
  case NodeKind::IntLiteral:
  case NodeKind::FloatLiteral:
  case NodeKind::StringLiteral:
  case NodeKind::BoolLiteral:
  case NodeKind::NoneLiteral:
  case NodeKind::EllipsisLiteral:
  case NodeKind::Break:
  case NodeKind::Continue:
  case NodeKind::Pass:
  case NodeKind::Global:
  case NodeKind::Nonlocal:
  case NodeKind::Import:
  case NodeKind::ImportFrom:
    return;
  case NodeKind::Attribute:
    return fn(cast<AttributeExpr>(node)->getValue());
  case NodeKind::Subscript: {
    auto *s = cast<SubscriptExpr>(node);
    fn(s->getValue());
    return fn(s->getIndex());
  }
  case NodeKind::Slice: {
    auto *s = cast<SliceExpr>(node);
    opt(s->getLower());
    opt(s->getUpper());
    return opt(s->getStep());
  }
  case NodeKind::Call: {
    auto *c = cast<CallExpr>(node);
    fn(c->getFunc());
    all(c->getArgs());
    for (const Keyword &k : c->getKeywords())
      fn(k.value);
    return;
  }
  case NodeKind::BinOp: {
    auto *b = cast<BinOpExpr>(node);
    fn(b->getLHS());
    return fn(b->getRHS());
  }
  case NodeKind::UnaryOp:
    return fn(cast<UnaryOpExpr>(node)->getOperand());
  case NodeKind::BoolOp:
    return all(cast<BoolOpExpr>(node)->getValues());
  case NodeKind::Compare: {
    auto *c = cast<CompareExpr>(node);
    fn(c->getLeft());
    return all(c->getComparators());
  }
  case NodeKind::IfExp: {
    auto *e = cast<IfExpExpr>(node);
    fn(e->getBody());
    fn(e->getTest());
    return fn(e->getOrElse());
  }
  case NodeKind::Lambda: {
    auto *l = cast<LambdaExpr>(node);
    params(l->getParams());
    return fn(l->getBody());
  }
  case NodeKind::Tuple:
  case NodeKind::List:
  case NodeKind::Set:
    return all(cast<SequenceExpr>(node)->getElts());
  case NodeKind::Dict: {
    auto *d = cast<DictExpr>(node);
    for (size_t i = 0, e = d->getValues().size(); i != e; ++i) {
      opt(d->getKeys()[i]);
      fn(d->getValues()[i]);
    }
    return;
  }
  case NodeKind::ListComp:
  case NodeKind::SetComp:
  case NodeKind::GeneratorExp: {
    auto *c = cast<ComprehensionExpr>(node);
    fn(c->getElt());
    return gens(c->getGenerators());
  }
  case NodeKind::DictComp: {
    auto *c = cast<DictCompExpr>(node);
    fn(c->getKey());
    fn(c->getValue());
    return gens(c->getGenerators());
  }
  case NodeKind::Starred:
    return fn(cast<StarredExpr>(node)->getValue());
  case NodeKind::NamedExpr: {
    auto *n = cast<NamedExprExpr>(node);
    fn(n->getTarget());
    return fn(n->getValue());
  }
  case NodeKind::ExprStmt:
    return fn(cast<ExprStmt>(node)->getValue());
  case NodeKind::Assign: {
    auto *a = cast<AssignStmt>(node);
    all(a->getTargets());
    return fn(a->getValue());
  }
  case NodeKind::AnnAssign: {
    auto *a = cast<AnnAssignStmt>(node);
    fn(a->getTarget());
    fn(a->getAnnotation());
    return opt(a->getValue());
  }
  case NodeKind::AugAssign: {
    auto *a = cast<AugAssignStmt>(node);
    fn(a->getTarget());
    return fn(a->getValue());
  }
  case NodeKind::If: {
    auto *s = cast<IfStmt>(node);
    fn(s->getTest());
    all(s->getBody());
    return all(s->getOrElse());
  }
  case NodeKind::For: {
    auto *s = cast<ForStmt>(node);
    fn(s->getTarget());
    fn(s->getIter());
    all(s->getBody());
    return all(s->getOrElse());
  }
  case NodeKind::While: {
    auto *s = cast<WhileStmt>(node);
    fn(s->getTest());
    all(s->getBody());
    return all(s->getOrElse());
  }
  case NodeKind::Return:
    return opt(cast<ReturnStmt>(node)->getValue());
  case NodeKind::Assert: {
    auto *s = cast<AssertStmt>(node);
    fn(s->getTest());
    return opt(s->getMsg());
  }
  case NodeKind::Del:
    return all(cast<DelStmt>(node)->getTargets());
  case NodeKind::FunctionDef: {
    auto *f = cast<FunctionDefStmt>(node);
    all(f->getDecorators());
    params(f->getParams());
    opt(f->getReturns());
    return all(f->getBody());
  }
  case NodeKind::ClassDef: {
    auto *c = cast<ClassDefStmt>(node);
    all(c->getDecorators());
    all(c->getBases());
    for (const Keyword &k : c->getKeywords())
      fn(k.value);
    return all(c->getBody());
  }
  case NodeKind::With: {
    auto *w = cast<WithStmt>(node);
    for (const WithItem &item : w->getItems()) {
      fn(item.context);
      opt(item.vars);
    }
    return all(w->getBody());
  }
  case NodeKind::Try: {
    auto *t = cast<TryStmt>(node);
    all(t->getBody());
    for (const ExceptHandler &h : t->getHandlers()) {
      opt(h.type);
      all(h.body);
    }
    all(t->getOrElse());
    return all(t->getFinalBody());
  }
  case NodeKind::Raise: {
    auto *r = cast<RaiseStmt>(node);
    opt(r->getExc());
    return opt(r->getCause());
  }
  }
}

void tessera::frontend::walk(const Node *node,
                             llvm::function_ref<bool(const Node *)> fn) {
  if (!fn(node))
    return;
  forEachChild(node, [&](const Node *child) { walk(child, fn); });
}
