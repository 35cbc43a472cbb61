//===- BuiltinsRandom.cpp - stub -===//
#include "Builtins.h"
using namespace tessera::frontend::codegen;
void tessera::frontend::codegen::registerRandomBuiltins(BuiltinRegistry &r) {}
