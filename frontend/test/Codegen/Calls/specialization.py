# Calls to jit functions specialize them on their compile-time arguments,
# whatever the callee's annotations: MASK=True and MASK=False give two
# functions; a parameter annotated tl.constexpr receiving a tensor is a
# run-time argument; defaults and keywords bind as in Python; callees may be
# defined after their callers; noinline functions stay calls.
# RUN: tessera-frontend %s --kernel k --signature "*fp32,i32" | FileCheck %s
# RUN: tessera-frontend %s --kernel k --signature "*fp32,i32" | tessera-opt --inline --canonicalize --symbol-dce | FileCheck %s --check-prefix=INLINED
import triton
import triton.language as tl


@triton.jit
def k(p, n):
    offs = tl.arange(0, 16)
    # CHECK: call @masked_load__Pfp32__i32S16S__i32__cTrue(
    a = masked_load(p, offs, n, MASK=True)
    # CHECK: call @masked_load__Pfp32__i32S16S__i32__cFalse(
    b = masked_load(p, offs, n, False)
    # The same specialization is lowered once.
    # CHECK: call @masked_load__Pfp32__i32S16S__i32__cTrue(
    c = masked_load(p, offs, n, True)
    # SCALE is annotated tl.constexpr but receives a tensor: a run-time value.
    # CHECK: call @scaled__fp32S16S__fp32(
    d = scaled(a + b + c, n.to(tl.float32))
    # CHECK: call @scaled__fp32S16S__c2_2e0(
    e = scaled(d, SCALE=2.0)
    # A jit function passed as an argument is a compile-time value.
    # CHECK: call @apply__cdouble__fp32S16S(
    f = apply(double, e)
    # A tuple mixing tensors and constexprs.
    # CHECK: call @first_plus__Tfp32S16S_c3_T(
    g = first_plus((f, 3))
    # CHECK: call @keep_out__i32(%arg1) : (i32) -> ()
    keep_out(n)
    tl.store(p + offs, g)


@triton.jit
def masked_load(p, offs, n, MASK: tl.constexpr):
    if MASK:
        return tl.load(p + offs, mask=offs < n, other=0.0)
    else:
        return tl.load(p + offs)


@triton.jit
def scaled(x, SCALE: tl.constexpr = 1.0):
    return x * SCALE


@triton.jit
def double(x):
    return x * 2


@triton.jit
def apply(fn, x):
    return fn(x)


@triton.jit
def first_plus(t):
    return t[0] + t[1]


@triton.jit(noinline=True)
def keep_out(n):
    tl.device_print("n", n)


# CHECK-LABEL: func.func private @masked_load__Pfp32__i32S16S__i32__cTrue(%arg0: !tessera.ptr<f32>, %arg1: tensor<16xi32>, %arg2: i32) -> tensor<16xf32>
# CHECK: tessera.load %{{.*}}, %{{.*}}, %{{.*}} : tensor<16x!tessera.ptr<f32>>
# CHECK-LABEL: func.func private @masked_load__Pfp32__i32S16S__i32__cFalse(
# CHECK: tessera.load %{{.*}} : tensor<16x!tessera.ptr<f32>>
# CHECK-NOT: func.func private @masked_load__Pfp32__i32S16S__i32__cTrue(
# CHECK-LABEL: func.func private @scaled__fp32S16S__fp32(%arg0: tensor<16xf32>, %arg1: f32) -> tensor<16xf32>
# CHECK-LABEL: func.func private @scaled__fp32S16S__c2_2e0(%arg0: tensor<16xf32>) -> tensor<16xf32>
# CHECK: arith.constant 2.000000e+00 : f32
# CHECK-LABEL: func.func private @apply__cdouble__fp32S16S(
# CHECK: call @double__fp32S16S(
# CHECK-LABEL: func.func private @first_plus__Tfp32S16S_c3_T(%arg0: tensor<16xf32>) -> tensor<16xf32>
# CHECK-LABEL: func.func private @keep_out__i32(%arg0: i32) attributes {no_inline}

# Everything inlines except the noinline function.
# INLINED-LABEL: func.func @k(
# INLINED-NOT: call @masked_load
# INLINED: call @keep_out__i32
# INLINED-NOT: func.func private @masked_load
# INLINED: func.func private @keep_out__i32
