# RUN: tessera-frontend %tessera_src/conformance/kernels/08_grouped_gemm.py --kernel grouped_matmul_kernel --signature "*i64:16,*i64:16,*i64:16,*i32:16,*i32:16,i32" --autotune-config all | tessera-opt --split-input-file --verify-each | FileCheck %s
# RUN: tessera-frontend %tessera_src/conformance/kernels/08_grouped_gemm.py --kernel grouped_matmul_kernel --signature "*i64:16,*i64:16,*i64:16,*i32:16,*i32:16,i32" --autotune-config all | tessera-opt --split-input-file --inline --canonicalize | FileCheck %s
# RUN: tessera-frontend %tessera_src/conformance/kernels/08_grouped_gemm.py --kernel grouped_matmul_desc_kernel --signature "*i64:16,*i64:16,*i64:16,*i32:16,*i32:16,i32" --constexpr FP8=False --autotune-config all | tessera-opt --split-input-file --verify-each | FileCheck %s --check-prefix=DESC
# RUN: tessera-frontend %tessera_src/conformance/kernels/08_grouped_gemm.py --kernel grouped_matmul_desc_kernel --signature "*i64:16,*i64:16,*i64:16,*i32:16,*i32:16,i32" --constexpr FP8=True --autotune-config all | tessera-opt --split-input-file --inline --canonicalize | FileCheck %s --check-prefix=FP8

# The tile counter and the running tile offset are carried by the group loop;
# the inner while loop carries the tile counter; the condition is a run-time
# `and` of two comparisons.
# CHECK-LABEL: func.func @grouped_matmul_kernel
# CHECK: scf.for {{.*}} -> (i32, i32)
# CHECK: scf.while (%{{.*}} = %{{.*}}) : (i32) -> i32 {
# CHECK: arith.andi %{{.*}} : i1
# CHECK: scf.condition
# CHECK: tessera.int_to_ptr %{{.*}} : i64 -> !tessera.ptr<f16>
# CHECK: tessera.dot
# CHECK: scf.yield

# DESC-LABEL: func.func @grouped_matmul_desc_kernel
# DESC: scf.if
# DESC: tessera.make_tensor_descriptor %{{.*}} : !tessera.ptr<f16> -> !tessera.tensordesc<tensor<{{.*}}xf16>>
# DESC: scf.while
# DESC: tessera.descriptor_load
# DESC: tessera.trans
# DESC: tessera.dot
# DESC: tessera.descriptor_store

# FP8-LABEL: func.func @grouped_matmul_desc_kernel
# FP8: tessera.int_to_ptr %{{.*}} : i64 -> !tessera.ptr<f8E4M3FN>
# FP8: tessera.dot %{{.*}} : tensor<{{.*}}xf8E4M3FN> * tensor<{{.*}}xf8E4M3FN> -> tensor<{{.*}}xf32>
