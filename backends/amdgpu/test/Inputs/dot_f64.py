# A dot no AMD matrix instruction takes (fp64): the FMA fallback and its remark.
import triton
import triton.language as tl


@triton.jit
def dot_f64(a_ptr, b_ptr, c_ptr, BLOCK: tl.constexpr):
    r = tl.arange(0, BLOCK)
    offs = r[:, None] * BLOCK + r[None, :]
    a = tl.load(a_ptr + offs)
    b = tl.load(b_ptr + offs)
    tl.store(c_ptr + offs, tl.dot(a, b))
