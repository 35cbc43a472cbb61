# Specialization: an AOT signature maps onto the parameters in order;
# `:16` marks divisibility (an argument attribute), `:1` and literals make
# constexprs (not arguments); constexprs may also come by name, from an
# autotune config, from heuristics or from defaults. The key is the cache
# key of the compiled kernel.
# RUN: tessera-frontend %s --kernel k --signature "*fp32:16,*fp16,i32:16,i64,i32:1,fp32,u1" --constexpr BLOCK=64 --print-key | FileCheck %s
# RUN: tessera-frontend %s --kernel k --signature "*fp32,*fp16,i32,i64,i32,fp32,u1,128,'fast'" --print-key | FileCheck %s --check-prefix=LIT
# RUN: tessera-frontend %s --kernel tuned --signature "*fp32,i32" --autotune-config 1 --print-key | FileCheck %s --check-prefix=TUNED
# RUN: tessera-frontend %s --kernel heur --signature "*fp32,i32,100" --print-key | FileCheck %s --check-prefix=HEUR
import triton
import triton.language as tl


@triton.jit
def k(a, b, n, m, one, s, flag, BLOCK: tl.constexpr, MODE: tl.constexpr = "exact"):
    # CHECK: // key: k(*fp32:16,*fp16,i32:16,i64,one=1,fp32,i1,BLOCK=64,MODE='exact')
    # CHECK-LABEL: func.func @k(%arg0: !tessera.ptr<f32> {tessera.divisibility = 16 : i32}, %arg1: !tessera.ptr<f16>, %arg2: i32 {tessera.divisibility = 16 : i32}, %arg3: i64, %arg4: f32, %arg5: i1) attributes {tessera.kernel}
    # `one` is the constant 1.
    # CHECK: arith.constant 1 : i32
    # LIT: // key: k(*fp32,*fp16,i32,i64,i32,fp32,i1,BLOCK=128,MODE='fast')
    # LIT: tessera.make_range {end = 128 : i32, start = 0 : i32}
    offs = tl.arange(0, BLOCK) + one
    if MODE == "fast":
        x = tl.load(a + offs, mask=offs < n)
    else:
        x = tl.load(a + offs, mask=(offs < n) & (offs < m) & flag)
    tl.store(b + offs, (x * s).to(tl.float16), mask=offs < n)


@triton.autotune(configs=[triton.Config({'BLOCK': 32}, num_warps=2),
                          triton.Config({'BLOCK': 256}, num_warps=8, num_stages=2)],
                 key=['n'])
@triton.jit
def tuned(p, n, BLOCK: tl.constexpr):
    # TUNED: // key: tuned(*fp32,i32,BLOCK=256){num_warps=8,num_stages=2}
    # TUNED: func.func @tuned(%arg0: !tessera.ptr<f32>, %arg1: i32) attributes {tessera.kernel, tessera.num_stages = 2 : i32, tessera.num_warps = 8 : i32}
    # TUNED: tessera.make_range {end = 256 : i32, start = 0 : i32}
    offs = tl.arange(0, BLOCK)
    tl.store(p + offs, 1.0, mask=offs < n)


@triton.heuristics({'BLOCK': lambda args: triton.next_power_of_2(args['N'])})
@triton.jit
def heur(p, n, N: tl.constexpr, BLOCK: tl.constexpr):
    # HEUR: // key: heur(*fp32,i32,N=100,BLOCK=128)
    # HEUR: tessera.make_range {end = 128 : i32, start = 0 : i32}
    offs = tl.arange(0, BLOCK)
    tl.store(p + offs, 1.0, mask=offs < N)
