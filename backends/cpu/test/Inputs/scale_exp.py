# The kernel of plugin-stages.test's inputs: masked loads, an exp, a
# multiply-add, a masked store and a sum.
import triton
import triton.language as tl


@triton.jit
def scale_exp(X, Y, Z, S, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(X + offs, mask=mask, other=0.0)
    y = tl.load(Y + offs, mask=mask, other=0.0)
    z = tl.exp(x) * y + 1.0
    tl.store(Z + offs, z, mask=mask)
    tl.store(S + pid, tl.sum(z, axis=0))
