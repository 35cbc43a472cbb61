# Helpers imported from another module and package of the search path, in
# every spelling: from-imports with aliases, module aliases, attributes of
# packages and subpackages, re-exports through __init__.py, relative imports
# inside the package, and a helper reading its own module's globals.
# RUN: tessera-frontend %s --kernel k --signature "*fp32" --module-path %S/Inputs | FileCheck %s
import triton
import triton.language as tl

import mypkg
import mypkg.ext.ops as ops
from mypkg import exported_helper
from mypkg.utils import helper, scale as sc
import nspkg.sub.mod


@triton.jit
def helper_here(x):
    # A helper of the kernel's own module with the name of an imported one.
    return x - 1


@triton.jit
def k(p):
    offs = tl.arange(0, 16)
    x = tl.load(p + offs)
    # CHECK-LABEL: func.func @k
    # CHECK: call @mypkg_2eutils_helper__fp32S16S(
    x = helper(x)
    # CHECK: call @helper_here__fp32S16S(
    x = helper_here(x)
    # CHECK: call @mypkg_2eutils_scale__fp32S16S__c3(
    x = sc(x)
    # CHECK: call @mypkg_2eutils_scale__fp32S16S__c5(
    x = sc(x, 5)
    # CHECK: call @mypkg_2eext_2eops_twice__fp32S16S(
    x = ops.twice(x)
    # CHECK: call @mypkg_2eext_2eops_scaled__fp32S16S(
    x = mypkg.ext.ops.scaled(x)
    # The re-export is the same function: the same specialization.
    # CHECK: call @mypkg_2eutils_helper__fp32S16S(
    x = exported_helper(x)
    # CHECK: call @mypkg_2eutils_uses_global__fp32S16S(
    x = mypkg.utils.uses_global(x)
    # CHECK: call @nspkg_2esub_2emod_ns_helper__fp32S16S(
    x = nspkg.sub.mod.ns_helper(x)
    # Module constants read through the module are compile-time values.
    # CHECK: arith.constant 3.000000e+00 : f32
    x = x * mypkg.utils.SCALE
    # CHECK: arith.constant 7.000000e+00 : f32
    x = x * mypkg.utils.PLAIN
    tl.store(p + offs, x)

# The helpers are lowered once each, in their modules.
# CHECK-LABEL: func.func private @mypkg_2eutils_helper__fp32S16S(
# CHECK: arith.constant 1.000000e+00 : f32
# CHECK-LABEL: func.func private @mypkg_2eext_2eops_twice__fp32S16S(
# CHECK-COUNT-2: call @mypkg_2eutils_helper__fp32S16S(
# CHECK-LABEL: func.func private @mypkg_2eutils_uses_global__fp32S16S(
# CHECK: arith.constant 3.000000e+00 : f32
