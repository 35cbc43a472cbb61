# A strided copy: `stride` specializes to the constant 1 in the tests.
import triton
import triton.language as tl


@triton.jit
def copy_kernel(x_ptr, out_ptr, stride, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.load(x_ptr + offs * stride))
