# Every autotune config, with and without the fused activation, for fp16 and
# both fp8 formats (the fp8 B operand is K-major: stride_bk = 1).
# RUN: tessera-frontend %tessera_src/conformance/kernels/03_matmul.py --kernel matmul_kernel --signature "*fp16:16,*fp16:16,*fp16:16,i32:16,i32:16,i32:16,i32:16,i32:1,i32:16,i32:1,i32:16,i32:1" --constexpr 'ACTIVATION=""' --autotune-config all | tessera-opt --split-input-file --verify-each | FileCheck %s
# RUN: tessera-frontend %tessera_src/conformance/kernels/03_matmul.py --kernel matmul_kernel --signature "*fp16:16,*fp16:16,*fp16:16,i32:16,i32:16,i32:16,i32:16,i32:1,i32:16,i32:1,i32:16,i32:1" --constexpr 'ACTIVATION=""' --autotune-config all --print-key | FileCheck %s --check-prefix=KEY
# RUN: tessera-frontend %tessera_src/conformance/kernels/03_matmul.py --kernel matmul_kernel --signature "*fp16:16,*fp16:16,*fp16:16,i32:16,i32:16,i32:16,i32:16,i32:1,i32:16,i32:1,i32:16,i32:1" --constexpr 'ACTIVATION="leaky_relu"' --autotune-config all | tessera-opt --split-input-file --inline --canonicalize | FileCheck %s --check-prefix=RELU
# RUN: tessera-frontend %tessera_src/conformance/kernels/03_matmul.py --kernel matmul_kernel --signature "*fp8e4nv:16,*fp8e4nv:16,*fp16:16,i32:16,i32:16,i32:16,i32,i32:1,i32:16,i32:16,i32:16,i32:1" --constexpr 'ACTIVATION=""' --autotune-config all | tessera-opt --split-input-file --verify-each | FileCheck %s --check-prefix=FP8
# RUN: tessera-frontend %tessera_src/conformance/kernels/03_matmul.py --kernel matmul_kernel --signature "*fp8e5:16,*fp8e5:16,*fp16:16,i32,i32,i32,i32,i32:1,i32:1,i32,i32,i32:1" --constexpr 'ACTIVATION="leaky_relu"' --autotune-config all | tessera-opt --split-input-file --inline --canonicalize | FileCheck %s --check-prefix=FP8E5
# RUN: tessera-frontend %tessera_src/conformance/kernels/03_matmul.py --kernel matmul_kernel --signature "*fp16:16,*fp16:16,*fp16:16,i32:16,i32:16,i32:16,i32:16,i32:1,i32:16,i32:1,i32:16,i32:1" --constexpr 'ACTIVATION=""' --autotune-config all | FileCheck %s --check-prefix=COUNT

# One module per autotune config.
# COUNT-COUNT-16: func.func @matmul_kernel(
# COUNT-NOT: func.func @matmul_kernel(

# KEY: // key: matmul_kernel(*fp16:16,*fp16:16,*fp16:16,i32:16,i32:16,i32:16,i32:16,stride_ak=1,i32:16,stride_bn=1,i32:16,stride_cn=1,BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,BLOCK_SIZE_K=64,GROUP_SIZE_M=8,ACTIVATION=''){num_warps=8,num_stages=3}
# CHECK-LABEL: func.func @matmul_kernel
# CHECK-SAME: tessera.num_stages = 3 : i32, tessera.num_warps = 8 : i32
# CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) -> (tensor<128x64x!tessera.ptr<f16>>, tensor<64x256x!tessera.ptr<f16>>, tensor<128x256xf32>)
# CHECK: tessera.dot %{{.*}}, %{{.*}}, %{{.*}} {inputPrecision = #tessera<precision tf32>} : tensor<128x64xf16> * tensor<64x256xf16> -> tensor<128x256xf32>
# CHECK: arith.truncf %{{.*}} : tensor<128x256xf32> to tensor<128x256xf16>
# CHECK-NOT: call @leaky_relu
# KEY: // key: matmul_kernel({{.*}}BLOCK_SIZE_M=128,BLOCK_SIZE_N=128,BLOCK_SIZE_K=64,GROUP_SIZE_M=8,ACTIVATION=''){num_warps=4,num_stages=4}

# The activation is a device function, inlined here: where(acc >= 0, acc, 0.01 * acc).
# RELU-LABEL: func.func @matmul_kernel
# RELU: tessera.dot
# RELU: arith.cmpf oge, %{{.*}} : tensor<128x256xf32>
# RELU: arith.select %{{.*}} : tensor<128x256xi1>, tensor<128x256xf32>
# RELU-NOT: call

# FP8-LABEL: func.func @matmul_kernel
# FP8: tessera.dot %{{.*}} : tensor<128x64xf8E4M3FN> * tensor<64x256xf8E4M3FN> -> tensor<128x256xf32>

# FP8E5-LABEL: func.func @matmul_kernel
# FP8E5: tessera.dot %{{.*}} : tensor<128x64xf8E5M2> * tensor<64x256xf8E5M2> -> tensor<128x256xf32>
