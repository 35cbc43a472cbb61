//===- BuiltinsReduce.cpp - stub -===//
#include "Builtins.h"
using namespace tessera::frontend::codegen;
void tessera::frontend::codegen::registerReduceBuiltins(BuiltinRegistry &r) {}
llvm::FailureOr<tessera::frontend::Value>
tessera::frontend::codegen::unsplat(FunctionCodegen &cg,
                                    const tessera::frontend::Value &v) {
  return cg.fail("todo");
}
