//===- AST.h - The Triton-language AST --------------------------*- C++ -*-===//
//
// Umbrella header for the AST (see ASTBase.h for the design) plus the two
// ways to walk it:
//  - forEachChild / walk: generic pre-order traversal over Node pointers,
//    handy for searches ("does this function use a walrus?").
//  - ASTVisitor<Derived, Ret>: a CRTP dispatcher with one visitX(XClass *)
//    per kind, for passes that handle each kind differently (lowering).
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_FRONTEND_AST_H
#define TESSERA_FRONTEND_AST_H

#include "tessera/Frontend/Stmt.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/Casting.h"
#include "llvm/Support/ErrorHandling.h"

namespace tessera::frontend {

/// Calls `fn` on every direct child node in source order (expressions inside
/// parameters, keywords, comprehensions and handlers included).
void forEachChild(const Node *node, llvm::function_ref<void(const Node *)> fn);

/// Pre-order traversal of `node` and everything below it. Returning false
/// from `fn` skips the children of that node.
void walk(const Node *node, llvm::function_ref<bool(const Node *)> fn);

/// CRTP visitor: `Derived` implements `Ret visitName(NameExpr *)` etc. for
/// the kinds it handles; the others go to visitExpr / visitStmt.
template <typename Derived, typename Ret = void> class ASTVisitor {
public:
  Ret visit(Node *node) {
    switch (node->getKind()) {
#define EXPR(KIND, CLASS)                                                      \
  case NodeKind::KIND:                                                         \
    return derived().visit##KIND(llvm::cast<CLASS>(node));
#define STMT(KIND, CLASS)                                                      \
  case NodeKind::KIND:                                                         \
    return derived().visit##KIND(llvm::cast<CLASS>(node));
#include "tessera/Frontend/ASTNodes.def"
    }
    llvm_unreachable("unknown node kind");
  }

  Ret visitExpr(Expr *) { return Ret(); }
  Ret visitStmt(Stmt *) { return Ret(); }
#define EXPR(KIND, CLASS)                                                      \
  Ret visit##KIND(CLASS *node) { return derived().visitExpr(node); }
#define STMT(KIND, CLASS)                                                      \
  Ret visit##KIND(CLASS *node) { return derived().visitStmt(node); }
#include "tessera/Frontend/ASTNodes.def"

private:
  Derived &derived() { return *static_cast<Derived *>(this); }
};

} // namespace tessera::frontend

#endif // TESSERA_FRONTEND_AST_H
