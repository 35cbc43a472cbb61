//===- ASTPrinter.cpp - Readable dump of the AST --------------------------===//
#include "tessera/Frontend/ASTPrinter.h"
#include "tessera/Frontend/PyFormat.h"

#include "llvm/ADT/StringExtras.h"

using namespace tessera::frontend;
using llvm::cast;

namespace {
class Printer {
public:
  Printer(llvm::raw_ostream &os, const ASTPrintOptions &options)
      : os(os), options(options) {}

  void print(const Node *node, unsigned indent, llvm::StringRef label);

private:
  void line(unsigned indent, llvm::StringRef label) {
    os.indent(indent * 2);
    if (!label.empty())
      os << label << ": ";
  }
  void range(const SourceRange &r) {
    if (!options.locations)
      return;
    os << " <" << r.begin.line << ":" << r.begin.column << "-" << r.end.line
       << ":" << r.end.column << ">";
  }
  void child(const Node *node, unsigned indent, llvm::StringRef label) {
    if (node)
      print(node, indent, label);
  }
  void children(llvm::ArrayRef<Expr *> nodes, unsigned indent,
                llvm::StringRef label) {
    for (const Node *n : nodes)
      child(n, indent, label);
  }
  void block(StmtList body, unsigned indent, llvm::StringRef label) {
    if (body.empty())
      return;
    os.indent(indent * 2) << label << ":\n";
    for (const Stmt *s : body)
      print(s, indent + 1, "");
  }
  void params(llvm::ArrayRef<Parameter> ps, unsigned indent) {
    for (const Parameter &p : ps) {
      line(indent, "param");
      static const char *const kinds[] = {"positional-only", "", "*args",
                                          "keyword-only", "**kwargs"};
      os << "'" << p.name << "'";
      llvm::StringRef kind = kinds[static_cast<unsigned>(p.kind)];
      if (!kind.empty())
        os << " " << kind;
      range(p.range);
      os << "\n";
      child(p.annotation, indent + 1, "annotation");
      child(p.defaultValue, indent + 1, "default");
    }
  }
  void generators(llvm::ArrayRef<Comprehension> gens, unsigned indent) {
    for (const Comprehension &c : gens) {
      line(indent, "for");
      os << "comprehension";
      range(c.range);
      os << "\n";
      child(c.target, indent + 1, "target");
      child(c.iter, indent + 1, "iter");
      children(c.ifs, indent + 1, "if");
    }
  }
  void keywords(llvm::ArrayRef<Keyword> kws, unsigned indent) {
    for (const Keyword &k : kws) {
      line(indent, "keyword");
      if (k.name.empty())
        os << "**";
      else
        os << "'" << k.name << "'";
      range(k.range);
      os << "\n";
      child(k.value, indent + 1, "value");
    }
  }

  llvm::raw_ostream &os;
  const ASTPrintOptions &options;
};
} // namespace

void Printer::print(const Node *node, unsigned indent, llvm::StringRef label) {
  line(indent, label);
  os << getNodeKindName(node->getKind());
  unsigned in = indent + 1;
  // The node's own attributes go on its line; children follow.
  switch (node->getKind()) {
  case NodeKind::Name:
    os << " '" << cast<NameExpr>(node)->getId() << "'";
    break;
  case NodeKind::IntLiteral: {
    auto *i = cast<IntLiteralExpr>(node);
    if (i->fitsIn64Bits())
      os << " " << i->getValue();
    else
      os << " <more than 64 bits>";
    break;
  }
  case NodeKind::FloatLiteral:
    os << " " << formatPythonFloat(cast<FloatLiteralExpr>(node)->getValue());
    break;
  case NodeKind::StringLiteral: {
    auto *s = cast<StringLiteralExpr>(node);
    if (s->isBytes())
      os << " bytes";
    if (s->isFString())
      os << " fstring";
    os << " " << quotePythonString(s->getValue());
    break;
  }
  case NodeKind::BoolLiteral:
    os << (cast<BoolLiteralExpr>(node)->getValue() ? " True" : " False");
    break;
  case NodeKind::Attribute:
    os << " '" << cast<AttributeExpr>(node)->getAttr() << "'";
    break;
  case NodeKind::BinOp:
    os << " " << getName(cast<BinOpExpr>(node)->getOp());
    break;
  case NodeKind::UnaryOp:
    os << " " << getName(cast<UnaryOpExpr>(node)->getOp());
    break;
  case NodeKind::BoolOp:
    os << " " << getName(cast<BoolOpExpr>(node)->getOp());
    break;
  case NodeKind::Compare:
    for (CmpOpKind op : cast<CompareExpr>(node)->getOps())
      os << " " << getName(op);
    break;
  case NodeKind::Tuple:
    if (cast<TupleExpr>(node)->isParenthesized())
      os << " parenthesized";
    break;
  case NodeKind::AugAssign:
    os << " " << getName(cast<AugAssignStmt>(node)->getOp());
    break;
  case NodeKind::If:
    if (cast<IfStmt>(node)->isElif())
      os << " elif";
    break;
  case NodeKind::For:
    if (cast<ForStmt>(node)->hasElse())
      os << " with-else";
    break;
  case NodeKind::While:
    if (cast<WhileStmt>(node)->hasElse())
      os << " with-else";
    break;
  case NodeKind::Global:
  case NodeKind::Nonlocal: {
    auto names = llvm::isa<GlobalStmt>(node)
                     ? cast<GlobalStmt>(node)->getNames()
                     : cast<NonlocalStmt>(node)->getNames();
    for (llvm::StringRef n : names)
      os << " '" << n << "'";
    break;
  }
  case NodeKind::Import:
    for (const ImportAlias &a : cast<ImportStmt>(node)->getNames()) {
      os << " '" << a.name << "'";
      if (!a.asName.empty())
        os << " as '" << a.asName << "'";
    }
    break;
  case NodeKind::ImportFrom: {
    auto *i = cast<ImportFromStmt>(node);
    os << " '" << std::string(i->getLevel(), '.') << i->getModule() << "'";
    for (const ImportAlias &a : i->getNames()) {
      os << " '" << a.name << "'";
      if (!a.asName.empty())
        os << " as '" << a.asName << "'";
    }
    break;
  }
  case NodeKind::FunctionDef:
    os << " '" << cast<FunctionDefStmt>(node)->getName() << "'";
    break;
  case NodeKind::ClassDef:
    os << " '" << cast<ClassDefStmt>(node)->getName() << "'";
    break;
  default:
    break;
  }
  range(node->getRange());
  os << "\n";

  switch (node->getKind()) {
  case NodeKind::Attribute:
    return child(cast<AttributeExpr>(node)->getValue(), in, "value");
  case NodeKind::Subscript:
    child(cast<SubscriptExpr>(node)->getValue(), in, "value");
    return child(cast<SubscriptExpr>(node)->getIndex(), in, "index");
  case NodeKind::Slice: {
    auto *s = cast<SliceExpr>(node);
    child(s->getLower(), in, "lower");
    child(s->getUpper(), in, "upper");
    return child(s->getStep(), in, "step");
  }
  case NodeKind::Call: {
    auto *c = cast<CallExpr>(node);
    child(c->getFunc(), in, "func");
    children(c->getArgs(), in, "arg");
    return keywords(c->getKeywords(), in);
  }
  case NodeKind::BinOp:
    child(cast<BinOpExpr>(node)->getLHS(), in, "lhs");
    return child(cast<BinOpExpr>(node)->getRHS(), in, "rhs");
  case NodeKind::UnaryOp:
    return child(cast<UnaryOpExpr>(node)->getOperand(), in, "operand");
  case NodeKind::BoolOp:
    return children(cast<BoolOpExpr>(node)->getValues(), in, "value");
  case NodeKind::Compare:
    child(cast<CompareExpr>(node)->getLeft(), in, "left");
    return children(cast<CompareExpr>(node)->getComparators(), in,
                    "comparator");
  case NodeKind::IfExp: {
    auto *e = cast<IfExpExpr>(node);
    child(e->getTest(), in, "test");
    child(e->getBody(), in, "body");
    return child(e->getOrElse(), in, "orelse");
  }
  case NodeKind::Lambda:
    params(cast<LambdaExpr>(node)->getParams(), in);
    return child(cast<LambdaExpr>(node)->getBody(), in, "body");
  case NodeKind::Tuple:
  case NodeKind::List:
  case NodeKind::Set:
    return children(cast<SequenceExpr>(node)->getElts(), in, "elt");
  case NodeKind::Dict: {
    auto *d = cast<DictExpr>(node);
    for (size_t i = 0, e = d->getValues().size(); i != e; ++i) {
      if (d->getKeys()[i])
        child(d->getKeys()[i], in, "key");
      child(d->getValues()[i], in, d->getKeys()[i] ? "value" : "**value");
    }
    return;
  }
  case NodeKind::ListComp:
  case NodeKind::SetComp:
  case NodeKind::GeneratorExp:
    child(cast<ComprehensionExpr>(node)->getElt(), in, "elt");
    return generators(cast<ComprehensionExpr>(node)->getGenerators(), in);
  case NodeKind::DictComp:
    child(cast<DictCompExpr>(node)->getKey(), in, "key");
    child(cast<DictCompExpr>(node)->getValue(), in, "value");
    return generators(cast<DictCompExpr>(node)->getGenerators(), in);
  case NodeKind::Starred:
    return child(cast<StarredExpr>(node)->getValue(), in, "value");
  case NodeKind::NamedExpr:
    child(cast<NamedExprExpr>(node)->getTarget(), in, "target");
    return child(cast<NamedExprExpr>(node)->getValue(), in, "value");
  case NodeKind::ExprStmt:
    return child(cast<ExprStmt>(node)->getValue(), in, "value");
  case NodeKind::Assign:
    children(cast<AssignStmt>(node)->getTargets(), in, "target");
    return child(cast<AssignStmt>(node)->getValue(), in, "value");
  case NodeKind::AnnAssign: {
    auto *a = cast<AnnAssignStmt>(node);
    child(a->getTarget(), in, "target");
    child(a->getAnnotation(), in, "annotation");
    return child(a->getValue(), in, "value");
  }
  case NodeKind::AugAssign:
    child(cast<AugAssignStmt>(node)->getTarget(), in, "target");
    return child(cast<AugAssignStmt>(node)->getValue(), in, "value");
  case NodeKind::If:
    child(cast<IfStmt>(node)->getTest(), in, "test");
    block(cast<IfStmt>(node)->getBody(), in, "body");
    return block(cast<IfStmt>(node)->getOrElse(), in, "orelse");
  case NodeKind::For: {
    auto *f = cast<ForStmt>(node);
    child(f->getTarget(), in, "target");
    child(f->getIter(), in, "iter");
    block(f->getBody(), in, "body");
    return block(f->getOrElse(), in, "orelse");
  }
  case NodeKind::While:
    child(cast<WhileStmt>(node)->getTest(), in, "test");
    block(cast<WhileStmt>(node)->getBody(), in, "body");
    return block(cast<WhileStmt>(node)->getOrElse(), in, "orelse");
  case NodeKind::Return:
    return child(cast<ReturnStmt>(node)->getValue(), in, "value");
  case NodeKind::Assert:
    child(cast<AssertStmt>(node)->getTest(), in, "test");
    return child(cast<AssertStmt>(node)->getMsg(), in, "msg");
  case NodeKind::Del:
    return children(cast<DelStmt>(node)->getTargets(), in, "target");
  case NodeKind::FunctionDef: {
    auto *f = cast<FunctionDefStmt>(node);
    children(f->getDecorators(), in, "decorator");
    params(f->getParams(), in);
    child(f->getReturns(), in, "returns");
    return block(f->getBody(), in, "body");
  }
  case NodeKind::ClassDef: {
    auto *c = cast<ClassDefStmt>(node);
    children(c->getDecorators(), in, "decorator");
    children(c->getBases(), in, "base");
    keywords(c->getKeywords(), in);
    return block(c->getBody(), in, "body");
  }
  case NodeKind::With:
    for (const WithItem &item : cast<WithStmt>(node)->getItems()) {
      child(item.context, in, "context");
      child(item.vars, in, "as");
    }
    return block(cast<WithStmt>(node)->getBody(), in, "body");
  case NodeKind::Try: {
    auto *t = cast<TryStmt>(node);
    block(t->getBody(), in, "body");
    for (const ExceptHandler &h : t->getHandlers()) {
      line(in, "handler");
      os << "except";
      if (!h.name.empty())
        os << " as '" << h.name << "'";
      range(h.range);
      os << "\n";
      child(h.type, in + 1, "type");
      block(h.body, in + 1, "body");
    }
    block(t->getOrElse(), in, "orelse");
    return block(t->getFinalBody(), in, "finally");
  }
  case NodeKind::Raise:
    child(cast<RaiseStmt>(node)->getExc(), in, "exc");
    return child(cast<RaiseStmt>(node)->getCause(), in, "cause");
  default:
    return;
  }
}

void tessera::frontend::printAST(const Node *node, llvm::raw_ostream &os,
                                 const ASTPrintOptions &options,
                                 unsigned indent) {
  Printer(os, options).print(node, indent, "");
}

std::string tessera::frontend::dumpAST(const Node *node,
                                       const ASTPrintOptions &options) {
  std::string text;
  llvm::raw_string_ostream os(text);
  printAST(node, os, options);
  return text;
}
