# Parameters annotated tl.const (or `*k` in a signature) are const pointers,
# as in Triton: they may be loaded through, not stored or atomically updated
# through, and a const and a plain pointer are different types.
# RUN: tessera-frontend %s --kernel ok_load --signature "*fp32,*fp32,8" | FileCheck %s --check-prefix=OK
# RUN: not tessera-frontend %s --kernel e_store --signature "*fp32,8" 2>&1 | FileCheck %s --check-prefix=STORE
# RUN: not tessera-frontend %s --kernel e_store_sig --signature "*kfp32,8" 2>&1 | FileCheck %s --check-prefix=STORE_SIG
# RUN: not tessera-frontend %s --kernel e_atomic --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=ATOMIC
# RUN: not tessera-frontend %s --kernel e_ternary --signature "*fp32,*fp32,i1" 2>&1 | FileCheck %s --check-prefix=TERNARY
# RUN: tessera-frontend %s --kernel ok_load --signature "*kfp32,*fp32,8" --print-key | FileCheck %s --check-prefix=KEY_SIG
# RUN: not tessera-frontend %s --kernel e_helper --signature "*fp32,*fp32" 2>&1 | FileCheck %s --check-prefix=HELPER
import triton
import triton.language as tl


@triton.jit
def ok_load(src: tl.const, dst, N: tl.constexpr):
    # OK: tessera.load
    # OK: tessera.store
    offs = tl.arange(0, N)
    tl.store(dst + offs, tl.load(src + offs))


@triton.jit
def e_store(out: tl.const, N: tl.constexpr):
    # STORE: const_pointers.py:[[@LINE+3]]:14: error: cannot store to a constant pointer (<[8], const_pointer<fp32>>)
    # STORE-NEXT: {{^}}    tl.store(out + tl.arange(0, N), 1.0)
    # STORE-NEXT: {{^}}             ^
    tl.store(out + tl.arange(0, N), 1.0)


@triton.jit
def e_store_sig(out, N: tl.constexpr):
    # STORE_SIG: const_pointers.py:[[@LINE+1]]:14: error: cannot store to a constant pointer (const_pointer<fp32>)
    tl.store(out, 1.0)


@triton.jit
def e_atomic(out: tl.const):
    # ATOMIC: const_pointers.py:[[@LINE+1]]:5: error: atomic_add cannot update memory through a constant pointer (const_pointer<fp32>)
    tl.atomic_add(out, 1.0)


@triton.jit
def e_ternary(c_out: tl.const, out, choose):
    # TERNARY: const_pointers.py:[[@LINE+1]]:17: error: a conditional expression with a run-time condition has inconsistent types const_pointer<fp32> and pointer<fp32>
    final_out = c_out if choose else out
    tl.store(final_out, 1.0)


# KEY_SIG: // key: ok_load(*kfp32,*fp32,N=8)


@triton.jit
def store_one(p):
    tl.store(p, 1.0)


@triton.jit
def e_helper(out, c_out: tl.const):
    # A helper specialized for a plain pointer is not reused for a const one.
    store_one(out)
    # HELPER: const_pointers.py:[[@LINE-7]]:14: error: cannot store to a constant pointer (const_pointer<fp32>)
    store_one(c_out)
# HELPER: const_pointers.py:[[@LINE-1]]:5: note: in the call to 'store_one' here
