//===- BuiltinsMath.cpp - stub -===//
#include "Builtins.h"
using namespace tessera::frontend::codegen;
void tessera::frontend::codegen::registerMathBuiltins(BuiltinRegistry &r) {}
