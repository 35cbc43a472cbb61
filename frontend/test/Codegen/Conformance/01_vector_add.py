# Lowers conformance kernel 01 and checks that the IR verifies, also after
# inlining and canonicalization.
# RUN: tessera-frontend %tessera_src/conformance/kernels/01_vector_add.py --kernel add_kernel --signature "*fp32:16,*fp32:16,*fp32:16,i32,1024" | tessera-opt --verify-each | FileCheck %s
# RUN: tessera-frontend %tessera_src/conformance/kernels/01_vector_add.py --kernel add_kernel --signature "*fp16:16,*fp16:16,*fp16:16,i32:16,256" | tessera-opt --inline --canonicalize | FileCheck %s --check-prefix=F16

# CHECK-LABEL: func.func @add_kernel(%{{.*}}: !tessera.ptr<f32> {tessera.divisibility = 16 : i32}, %{{.*}}: !tessera.ptr<f32> {tessera.divisibility = 16 : i32}, %{{.*}}: !tessera.ptr<f32> {tessera.divisibility = 16 : i32}, %{{.*}}: i32) attributes {tessera.kernel}
# CHECK: tessera.program_id x
# CHECK: tessera.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32>
# CHECK: %[[MASK:.*]] = arith.cmpi slt
# CHECK: tessera.load %{{.*}}, %[[MASK]] : tensor<1024x!tessera.ptr<f32>>
# CHECK: arith.addf %{{.*}} : tensor<1024xf32>
# CHECK: tessera.store %{{.*}}, %{{.*}}, %[[MASK]] : tensor<1024x!tessera.ptr<f32>>

# F16-LABEL: func.func @add_kernel
# F16: arith.addf %{{.*}} : tensor<256xf16>
