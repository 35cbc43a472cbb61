//===- BuiltinsAtomic.cpp - stub -===//
#include "Builtins.h"
using namespace tessera::frontend::codegen;
void tessera::frontend::codegen::registerAtomicBuiltins(BuiltinRegistry &r) {}
