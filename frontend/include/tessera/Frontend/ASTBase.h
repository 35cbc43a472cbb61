//===- ASTBase.h - AST node base classes and context ------------*- C++ -*-===//
//
// AST design:
//  - Every node derives from Node, which carries a NodeKind (ASTNodes.def) and
//    a SourceRange; Expr and Stmt split the kinds. Use llvm::isa / cast /
//    dyn_cast (classof is defined on every class) or switch on getKind().
//  - Nodes are allocated in an ASTContext (a bump allocator) and never freed
//    individually; they hold only pointers, StringRef and ArrayRef into the
//    same arena, so they are trivially destructible (checked statically).
//  - Child lists are ArrayRef<Expr *> / ArrayRef<Stmt *>; optional children
//    are null pointers.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_FRONTEND_ASTBASE_H
#define TESSERA_FRONTEND_ASTBASE_H

#include "tessera/Frontend/SourceLoc.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Allocator.h"

#include <type_traits>

namespace tessera::frontend {

enum class NodeKind : uint8_t {
#define EXPR(KIND, CLASS) KIND,
#define STMT(KIND, CLASS) KIND,
#include "tessera/Frontend/ASTNodes.def"
};

/// The name of a node kind, as printed by the AST dumper ("BinOp", ...).
llvm::StringRef getNodeKindName(NodeKind kind);

/// Base of every AST node.
class Node {
public:
  NodeKind getKind() const { return kind; }
  const SourceRange &getRange() const { return range; }
  /// Where the node starts (line/column 1-based).
  const SourceLoc &getLoc() const { return range.begin; }
  /// One past where the node ends.
  const SourceLoc &getEndLoc() const { return range.end; }
  llvm::SMRange getSMRange() const { return range.getSMRange(); }
  void setRange(SourceRange r) { range = r; }

protected:
  Node(NodeKind kind, SourceRange range) : kind(kind), range(range) {}

private:
  NodeKind kind;
  SourceRange range;
};

/// Owns the nodes, strings and arrays of one parsed file.
class ASTContext {
public:
  ASTContext() = default;
  ASTContext(const ASTContext &) = delete;
  ASTContext &operator=(const ASTContext &) = delete;

  /// Allocates a node; its destructor never runs.
  template <typename T, typename... Args> T *create(Args &&...args) {
    static_assert(std::is_trivially_destructible_v<T>,
                  "AST nodes live in a bump allocator");
    return new (allocator.Allocate<T>()) T(std::forward<Args>(args)...);
  }

  /// Copies `values` into the arena.
  template <typename T> llvm::ArrayRef<T> copy(llvm::ArrayRef<T> values) {
    static_assert(std::is_trivially_destructible_v<T>);
    if (values.empty())
      return {};
    T *mem = allocator.Allocate<T>(values.size());
    std::uninitialized_copy(values.begin(), values.end(), mem);
    return llvm::ArrayRef<T>(mem, values.size());
  }

  /// Copies `text` into the arena.
  llvm::StringRef copyString(llvm::StringRef text) {
    if (text.empty())
      return {};
    char *mem = allocator.Allocate<char>(text.size());
    std::copy(text.begin(), text.end(), mem);
    return llvm::StringRef(mem, text.size());
  }

private:
  llvm::BumpPtrAllocator allocator;
};

} // namespace tessera::frontend

#endif // TESSERA_FRONTEND_ASTBASE_H
