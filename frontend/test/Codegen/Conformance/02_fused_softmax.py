# RUN: tessera-frontend %tessera_src/conformance/kernels/02_fused_softmax.py --kernel softmax_kernel --signature "*fp32:16,*fp32:16,i32,i32,i32,i32,1024,4" | tessera-opt --verify-each | FileCheck %s
# RUN: tessera-frontend %tessera_src/conformance/kernels/02_fused_softmax.py --kernel softmax_kernel --signature "*fp32:16,*fp32:16,i32:16,i32:16,i32,i32,8192,2" | tessera-opt --inline --canonicalize | FileCheck %s --check-prefix=STAGES2
# RUN: tessera-frontend %tessera_src/conformance/kernels/02_fused_softmax.py --kernel softmax_kernel --signature "*fp16:16,*fp16:16,i32,i32,i32,i32,128,4" | tessera-opt --verify-each | FileCheck %s --check-prefix=F16

# The row loop is a tl.range with num_stages: an scf.for carrying nothing.
# CHECK-LABEL: func.func @softmax_kernel
# CHECK: %[[STEP:.*]] = tessera.num_programs x
# CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %[[STEP]] : i32 {
# Masked-off columns read -inf.
# CHECK: arith.constant 0xFF800000 : f32
# CHECK: tessera.reduce(%{{.*}}) {axis = 0 : i32} : (tensor<1024xf32>) -> f32
# CHECK: arith.maxnumf
# CHECK: math.exp %{{.*}} : tensor<1024xf32>
# CHECK: tessera.reduce
# CHECK: arith.addf
# CHECK: arith.divf
# CHECK: tessera.store
# CHECK: } {tessera.num_stages = 4 : i32}

# STAGES2: {tessera.num_stages = 2 : i32}

# tl.max of fp16 reduces in fp32 (Triton's standard library upcasts); the
# subtraction then computes in fp32 and exp needs no conversion.
# F16: arith.extf %{{.*}} : tensor<128xf16> to tensor<128xf32>
# F16: tessera.reduce(%{{.*}}) {axis = 0 : i32} : (tensor<128xf32>) -> f32
# F16: math.exp %{{.*}} : tensor<128xf32>
