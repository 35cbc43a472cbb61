# libdevice functions lower to tessera.extern_elementwise with the symbol
# __tessera_<name>_<argument types>, whatever module they are reached
# through; arguments broadcast to a common shape; no implicit conversion.
# RUN: tessera-frontend %s --target-module=cuda --kernel ext --signature "*fp32,*fp64,*i32" | FileCheck %s
# RUN: tessera-frontend %s --target-module=cuda --kernel ext --signature "*fp32,*fp64,*i32" | tessera-opt --verify-each --canonicalize > /dev/null
import triton
import triton.language as tl
from triton.language.extra import libdevice
from triton.language.extra.cuda import libdevice as target_libdevice
import triton.language.extra.libdevice as ld


@triton.jit
def ext(pf, pd, pi):
    offs = tl.arange(0, 16)
    x = tl.load(pf + offs)
    d = tl.load(pd + offs)
    i = tl.load(pi + offs)
    # CHECK: tessera.extern_elementwise %{{.*}} {libname = "", libpath = "", pure = true, symbol = "__tessera_asin_fp32"} : (tensor<16xf32>) -> tensor<16xf32>
    a = libdevice.asin(x)
    # CHECK: symbol = "__tessera_tanh_fp64"} : (tensor<16xf64>) -> tensor<16xf64>
    b = target_libdevice.tanh(d)
    # A scalar argument is broadcast; pow(fp32, i32) is its own overload.
    # CHECK: %[[E:.*]] = tessera.splat %{{.*}} : tensor<16xi32>
    # CHECK: tessera.extern_elementwise %{{.*}}, %[[E]] {{{.*}}symbol = "__tessera_pow_fp32_i32"} : (tensor<16xf32>, tensor<16xi32>) -> tensor<16xf32>
    c = ld.pow(x, 3)
    # CHECK: symbol = "__tessera_pow_fp32_fp32"
    c2 = libdevice.pow(x, a)
    # Results may have another type than the arguments.
    # CHECK: symbol = "__tessera_isinf_fp32"} : (tensor<16xf32>) -> tensor<16xi32>
    e = libdevice.isinf(x)
    # CHECK: symbol = "__tessera_popc_i32"
    f = libdevice.popc(i)
    # Old spelling: tl.math.NAME for a libdevice function.
    # CHECK: symbol = "__tessera_erfinv_fp32"
    g = tl.math.erfinv(x)
    tl.store(pf + offs, a + b.to(tl.float32) + c + c2 + g)
    tl.store(pi + offs, e + f)
