# libdevice functions AMD's ocml lacks, as real kernels call them.
import triton
import triton.language as tl
from triton.language.extra import libdevice

@triton.jit
def k(X, Y, N, Z, I, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(X + offs)
    y = tl.load(Y + offs)
    n = tl.load(N + offs)
    z = libdevice.div_rn(x, y) + libdevice.div_rz(x, y) + libdevice.pow(x, n) + libdevice.rsqrt(y)
    tl.store(Z + offs, z)
    tl.store(I + offs, libdevice.finitef(x) + libdevice.float2int_rn(y) + libdevice.isnan(x))
