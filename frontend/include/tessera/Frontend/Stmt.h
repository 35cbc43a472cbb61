//===- Stmt.h - Statement nodes of the Triton-language AST ------*- C++ -*-===//
#ifndef TESSERA_FRONTEND_STMT_H
#define TESSERA_FRONTEND_STMT_H

#include "tessera/Frontend/Expr.h"

namespace tessera::frontend {

class Stmt : public Node {
public:
  static bool classof(const Node *n) {
    return n->getKind() >= NodeKind::ExprStmt &&
           n->getKind() <= NodeKind::Raise;
  }

protected:
  using Node::Node;
};

/// A statement block (the body of a def, if, for, ...).
using StmtList = llvm::ArrayRef<Stmt *>;

/// An expression evaluated for its effect (a call, a docstring).
class ExprStmt : public Stmt {
public:
  ExprStmt(SourceRange r, Expr *value)
      : Stmt(NodeKind::ExprStmt, r), value(value) {}
  Expr *getValue() const { return value; }
  TESSERA_CLASSOF(ExprStmt)
private:
  Expr *value;
};

/// `t0 = t1 = ... = value`; targets are names, attributes, subscripts,
/// starred targets or tuples/lists of those.
class AssignStmt : public Stmt {
public:
  AssignStmt(SourceRange r, llvm::ArrayRef<Expr *> targets, Expr *value)
      : Stmt(NodeKind::Assign, r), targets(targets), value(value) {}
  llvm::ArrayRef<Expr *> getTargets() const { return targets; }
  Expr *getValue() const { return value; }
  TESSERA_CLASSOF(Assign)
private:
  llvm::ArrayRef<Expr *> targets;
  Expr *value;
};

/// `target: annotation [= value]`
class AnnAssignStmt : public Stmt {
public:
  AnnAssignStmt(SourceRange r, Expr *target, Expr *annotation, Expr *value)
      : Stmt(NodeKind::AnnAssign, r), target(target), annotation(annotation),
        value(value) {}
  Expr *getTarget() const { return target; }
  Expr *getAnnotation() const { return annotation; }
  /// Null for a bare declaration `x: int`.
  Expr *getValue() const { return value; }
  TESSERA_CLASSOF(AnnAssign)
private:
  Expr *target, *annotation, *value;
};

/// `target op= value`
class AugAssignStmt : public Stmt {
public:
  AugAssignStmt(SourceRange r, Expr *target, BinaryOpKind op, Expr *value)
      : Stmt(NodeKind::AugAssign, r), target(target), op(op), value(value) {}
  Expr *getTarget() const { return target; }
  BinaryOpKind getOp() const { return op; }
  Expr *getValue() const { return value; }
  TESSERA_CLASSOF(AugAssign)
private:
  Expr *target;
  BinaryOpKind op;
  Expr *value;
};

/// `if test: body else: orelse`; an `elif` is an IfStmt alone in the orelse
/// of its parent, with isElif() set.
class IfStmt : public Stmt {
public:
  IfStmt(SourceRange r, Expr *test, StmtList body, StmtList orelse, bool elif)
      : Stmt(NodeKind::If, r), test(test), body(body), orelse(orelse),
        elif (elif) {}
  Expr *getTest() const { return test; }
  StmtList getBody() const { return body; }
  StmtList getOrElse() const { return orelse; }
  bool isElif() const { return elif; }
  TESSERA_CLASSOF(If)
private:
  Expr *test;
  StmtList body, orelse;
  bool elif;
};

/// `for target in iter: body else: orelse`
class ForStmt : public Stmt {
public:
  ForStmt(SourceRange r, Expr *target, Expr *iter, StmtList body,
          StmtList orelse)
      : Stmt(NodeKind::For, r), target(target), iter(iter), body(body),
        orelse(orelse) {}
  Expr *getTarget() const { return target; }
  Expr *getIter() const { return iter; }
  StmtList getBody() const { return body; }
  /// The `else:` block; non-empty means the loop has one (flag it).
  StmtList getOrElse() const { return orelse; }
  bool hasElse() const { return !orelse.empty(); }
  TESSERA_CLASSOF(For)
private:
  Expr *target, *iter;
  StmtList body, orelse;
};

class WhileStmt : public Stmt {
public:
  WhileStmt(SourceRange r, Expr *test, StmtList body, StmtList orelse)
      : Stmt(NodeKind::While, r), test(test), body(body), orelse(orelse) {}
  Expr *getTest() const { return test; }
  StmtList getBody() const { return body; }
  StmtList getOrElse() const { return orelse; }
  bool hasElse() const { return !orelse.empty(); }
  TESSERA_CLASSOF(While)
private:
  Expr *test;
  StmtList body, orelse;
};

class BreakStmt : public Stmt {
public:
  explicit BreakStmt(SourceRange r) : Stmt(NodeKind::Break, r) {}
  TESSERA_CLASSOF(Break)
};

class ContinueStmt : public Stmt {
public:
  explicit ContinueStmt(SourceRange r) : Stmt(NodeKind::Continue, r) {}
  TESSERA_CLASSOF(Continue)
};

class PassStmt : public Stmt {
public:
  explicit PassStmt(SourceRange r) : Stmt(NodeKind::Pass, r) {}
  TESSERA_CLASSOF(Pass)
};

/// `return [value]`; `return a, b` has a TupleExpr value.
class ReturnStmt : public Stmt {
public:
  ReturnStmt(SourceRange r, Expr *value)
      : Stmt(NodeKind::Return, r), value(value) {}
  Expr *getValue() const { return value; }
  TESSERA_CLASSOF(Return)
private:
  Expr *value;
};

class AssertStmt : public Stmt {
public:
  AssertStmt(SourceRange r, Expr *test, Expr *msg)
      : Stmt(NodeKind::Assert, r), test(test), msg(msg) {}
  Expr *getTest() const { return test; }
  Expr *getMsg() const { return msg; }
  TESSERA_CLASSOF(Assert)
private:
  Expr *test, *msg;
};

class DelStmt : public Stmt {
public:
  DelStmt(SourceRange r, llvm::ArrayRef<Expr *> targets)
      : Stmt(NodeKind::Del, r), targets(targets) {}
  llvm::ArrayRef<Expr *> getTargets() const { return targets; }
  TESSERA_CLASSOF(Del)
private:
  llvm::ArrayRef<Expr *> targets;
};

/// `global a, b` (GlobalStmt) and `nonlocal a, b` (NonlocalStmt).
class GlobalStmt : public Stmt {
public:
  GlobalStmt(SourceRange r, llvm::ArrayRef<llvm::StringRef> names)
      : Stmt(NodeKind::Global, r), names(names) {}
  llvm::ArrayRef<llvm::StringRef> getNames() const { return names; }
  TESSERA_CLASSOF(Global)
private:
  llvm::ArrayRef<llvm::StringRef> names;
};

class NonlocalStmt : public Stmt {
public:
  NonlocalStmt(SourceRange r, llvm::ArrayRef<llvm::StringRef> names)
      : Stmt(NodeKind::Nonlocal, r), names(names) {}
  llvm::ArrayRef<llvm::StringRef> getNames() const { return names; }
  TESSERA_CLASSOF(Nonlocal)
private:
  llvm::ArrayRef<llvm::StringRef> names;
};

/// `a.b.c as d` in an import; asName is empty without `as`.
struct ImportAlias {
  SourceRange range;
  llvm::StringRef name;
  llvm::StringRef asName;
};

/// `import a.b as c, d`
class ImportStmt : public Stmt {
public:
  ImportStmt(SourceRange r, llvm::ArrayRef<ImportAlias> names)
      : Stmt(NodeKind::Import, r), names(names) {}
  llvm::ArrayRef<ImportAlias> getNames() const { return names; }
  TESSERA_CLASSOF(Import)
private:
  llvm::ArrayRef<ImportAlias> names;
};

/// `from ..module import a as b, c` (name "*" for a star import).
class ImportFromStmt : public Stmt {
public:
  ImportFromStmt(SourceRange r, llvm::StringRef module, unsigned level,
                 llvm::ArrayRef<ImportAlias> names)
      : Stmt(NodeKind::ImportFrom, r), module(module), level(level),
        names(names) {}
  /// The dotted module name without the leading dots (may be empty).
  llvm::StringRef getModule() const { return module; }
  /// Number of leading dots of a relative import.
  unsigned getLevel() const { return level; }
  llvm::ArrayRef<ImportAlias> getNames() const { return names; }
  TESSERA_CLASSOF(ImportFrom)
private:
  llvm::StringRef module;
  unsigned level;
  llvm::ArrayRef<ImportAlias> names;
};

/// `@decorators def name(params) -> returns: body`
class FunctionDefStmt : public Stmt {
public:
  FunctionDefStmt(SourceRange r, llvm::StringRef name, SourceLoc nameLoc,
                  llvm::ArrayRef<Expr *> decorators,
                  llvm::ArrayRef<Parameter> params, Expr *returns,
                  StmtList body)
      : Stmt(NodeKind::FunctionDef, r), name(name), nameLoc(nameLoc),
        decorators(decorators), params(params), returns(returns), body(body) {}
  llvm::StringRef getName() const { return name; }
  const SourceLoc &getNameLoc() const { return nameLoc; }
  /// Outermost first, as written.
  llvm::ArrayRef<Expr *> getDecorators() const { return decorators; }
  llvm::ArrayRef<Parameter> getParams() const { return params; }
  Expr *getReturns() const { return returns; }
  StmtList getBody() const { return body; }
  /// The docstring (first statement, a plain string), or empty.
  llvm::StringRef getDocstring() const;
  TESSERA_CLASSOF(FunctionDef)
private:
  llvm::StringRef name;
  SourceLoc nameLoc;
  llvm::ArrayRef<Expr *> decorators;
  llvm::ArrayRef<Parameter> params;
  Expr *returns;
  StmtList body;
};

class ClassDefStmt : public Stmt {
public:
  ClassDefStmt(SourceRange r, llvm::StringRef name,
               llvm::ArrayRef<Expr *> decorators, llvm::ArrayRef<Expr *> bases,
               llvm::ArrayRef<Keyword> keywords, StmtList body)
      : Stmt(NodeKind::ClassDef, r), name(name), decorators(decorators),
        bases(bases), keywords(keywords), body(body) {}
  llvm::StringRef getName() const { return name; }
  llvm::ArrayRef<Expr *> getDecorators() const { return decorators; }
  llvm::ArrayRef<Expr *> getBases() const { return bases; }
  llvm::ArrayRef<Keyword> getKeywords() const { return keywords; }
  StmtList getBody() const { return body; }
  TESSERA_CLASSOF(ClassDef)
private:
  llvm::StringRef name;
  llvm::ArrayRef<Expr *> decorators, bases;
  llvm::ArrayRef<Keyword> keywords;
  StmtList body;
};

/// `context [as vars]` in a with statement.
struct WithItem {
  Expr *context = nullptr;
  Expr *vars = nullptr;
};

class WithStmt : public Stmt {
public:
  WithStmt(SourceRange r, llvm::ArrayRef<WithItem> items, StmtList body)
      : Stmt(NodeKind::With, r), items(items), body(body) {}
  llvm::ArrayRef<WithItem> getItems() const { return items; }
  StmtList getBody() const { return body; }
  TESSERA_CLASSOF(With)
private:
  llvm::ArrayRef<WithItem> items;
  StmtList body;
};

/// `except [type [as name]]: body`
struct ExceptHandler {
  SourceRange range;
  Expr *type = nullptr;
  llvm::StringRef name;
  StmtList body;
};

class TryStmt : public Stmt {
public:
  TryStmt(SourceRange r, StmtList body, llvm::ArrayRef<ExceptHandler> handlers,
          StmtList orelse, StmtList finalbody)
      : Stmt(NodeKind::Try, r), body(body), handlers(handlers), orelse(orelse),
        finalbody(finalbody) {}
  StmtList getBody() const { return body; }
  llvm::ArrayRef<ExceptHandler> getHandlers() const { return handlers; }
  StmtList getOrElse() const { return orelse; }
  StmtList getFinalBody() const { return finalbody; }
  TESSERA_CLASSOF(Try)
private:
  StmtList body;
  llvm::ArrayRef<ExceptHandler> handlers;
  StmtList orelse, finalbody;
};

/// `raise [exc [from cause]]`
class RaiseStmt : public Stmt {
public:
  RaiseStmt(SourceRange r, Expr *exc, Expr *cause)
      : Stmt(NodeKind::Raise, r), exc(exc), cause(cause) {}
  Expr *getExc() const { return exc; }
  Expr *getCause() const { return cause; }
  TESSERA_CLASSOF(Raise)
private:
  Expr *exc, *cause;
};

#undef TESSERA_CLASSOF

} // namespace tessera::frontend

#endif // TESSERA_FRONTEND_STMT_H
