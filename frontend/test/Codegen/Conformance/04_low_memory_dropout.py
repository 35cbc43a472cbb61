# RUN: tessera-frontend %tessera_src/conformance/kernels/04_low_memory_dropout.py --kernel dropout_kernel --signature "*fp32:16,*i8:16,*fp32:16,i32,fp32,1024" | tessera-opt --verify-each | FileCheck %s --check-prefix=MASK
# RUN: tessera-frontend %tessera_src/conformance/kernels/04_low_memory_dropout.py --kernel seeded_dropout_kernel --signature "*fp32:16,*fp32:16,i32,fp32,i32,1024" | tessera-opt --verify-each | FileCheck %s
# RUN: tessera-frontend %tessera_src/conformance/kernels/04_low_memory_dropout.py --kernel seeded_dropout_kernel --signature "*fp32:16,*fp32:16,i32:16,fp32,i32,1024" | tessera-opt --inline --canonicalize | FileCheck %s --check-prefix=CANON

# MASK-LABEL: func.func @dropout_kernel
# MASK: tessera.load %{{.*}}, %{{.*}} : tensor<1024x!tessera.ptr<i8>>
# `1 - p` and `x / (1 - p)` compute in fp32.
# MASK: arith.subf %{{.*}} : f32
# MASK: arith.divf %{{.*}} : tensor<1024xf32>
# `keep != 0` compares in int32: the 0 becomes an int32 tensor first.
# MASK: arith.extsi %{{.*}} : tensor<1024xi8> to tensor<1024xi32>
# MASK: arith.cmpi ne, %{{.*}} : tensor<1024xi32>
# MASK: arith.select

# The seed (i32) is widened to u64 and split into the Philox key; 10 rounds
# of mulhi/mul/xor on u32 counters; the first word becomes a float in [0, 1).
# CHECK-LABEL: func.func @seeded_dropout_kernel
# CHECK: arith.extsi %{{.*}} : i32 to i64
# CHECK: arith.shrui
# CHECK-COUNT-20: tessera.mulhiui
# CHECK-NOT: tessera.mulhiui
# CHECK: arith.cmpi slt, %{{.*}} : tensor<1024xi32>
# CHECK: arith.select
# CHECK: arith.sitofp %{{.*}} : tensor<1024xi32> to tensor<1024xf32>
# CHECK: arith.constant 4.6566126E-10 : f32
# CHECK: arith.mulf
# CHECK: arith.cmpf ogt

# CANON-LABEL: func.func @seeded_dropout_kernel
# CANON-DAG: arith.constant dense<-766435501> : tensor<1024xi32>
# CANON-DAG: arith.constant dense<-845247145> : tensor<1024xi32>
# CANON: tessera.store
