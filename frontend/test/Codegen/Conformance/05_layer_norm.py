# RUN: tessera-frontend %tessera_src/conformance/kernels/05_layer_norm.py --kernel _layer_norm_fwd_fused --signature "*fp16:16,*fp16:16,*fp16:16,*fp16:16,*fp32:16,*fp32:16,i32:16,i32:16,fp32,8192" | tessera-opt --verify-each | FileCheck %s --check-prefix=FWD
# RUN: tessera-frontend %tessera_src/conformance/kernels/05_layer_norm.py --kernel _layer_norm_fwd_fused --signature "*fp32:16,*fp32:16,*fp32:16,*fp32:16,*fp32:16,*fp32:16,i32,i32,fp32,512" | tessera-opt --inline --canonicalize | FileCheck %s --check-prefix=FWD32
# RUN: tessera-frontend %tessera_src/conformance/kernels/05_layer_norm.py --kernel _layer_norm_bwd_dx_fused --signature "*fp16:16,*fp16:16,*fp32:16,*fp32:16,*fp16:16,*fp16:16,*fp32:16,*fp32:16,*i32:16,i32:16,i32:16,64,8192" | tessera-opt --verify-each | FileCheck %s --check-prefix=DX
# RUN: tessera-frontend %tessera_src/conformance/kernels/05_layer_norm.py --kernel _layer_norm_bwd_dx_fused --signature "*fp32:16,*fp32:16,*fp32:16,*fp32:16,*fp32:16,*fp32:16,*fp32:16,*fp32:16,*i32:16,i32,i32,256,512" | tessera-opt --inline --canonicalize | FileCheck %s --check-prefix=DX
# RUN: tessera-frontend %tessera_src/conformance/kernels/05_layer_norm.py --kernel _layer_norm_bwd_dwdb --signature "*fp32:16,*fp32:16,*fp16:16,*fp16:16,i32,i32:16,32,128" | tessera-opt --verify-each | FileCheck %s --check-prefix=DWDB

# Three loops over the row; the pointer arguments X and Y are rebound by `+=`.
# FWD-LABEL: func.func @_layer_norm_fwd_fused
# FWD: tessera.addptr %arg0
# FWD: tessera.addptr %arg1
# FWD: scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}) -> (tensor<8192xf32>)
# FWD: arith.extf %{{.*}} : tensor<8192xf16> to tensor<8192xf32>
# FWD: scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}) -> (tensor<8192xf32>)
# FWD: math.sqrt %{{.*}} : f32
# FWD: tessera.store %{{.*}} : !tessera.ptr<f32>
# FWD: scf.for
# FWD: arith.truncf %{{.*}} : tensor<8192xf32> to tensor<8192xf16>

# FWD32-LABEL: func.func @_layer_norm_fwd_fused
# FWD32: math.sqrt

# The lock is a spin loop on atomic_cas (scf.while), then an scf.if on the
# count yields the two partial sums.
# DX-LABEL: func.func @_layer_norm_bwd_dx_fused
# DX: scf.while : () -> () {
# DX: tessera.atomic_cas %{{.*}} : !tessera.ptr<i32>
# DX: scf.condition
# DX: } do {
# DX: tessera.load %{{.*}} : !tessera.ptr<i32>
# DX: scf.if %{{.*}} -> (tensor<{{.*}}xf32>, tensor<{{.*}}xf32>) {
# DX: tessera.atomic_rmw xchg
# DX: } else {
# DX: tessera.debug_barrier
# DX: tessera.atomic_rmw xchg

# DWDB-LABEL: func.func @_layer_norm_bwd_dwdb
# DWDB: scf.for {{.*}} -> (tensor<32x128xf32>, tensor<32x128xf32>)
# DWDB: tessera.reduce(%{{.*}}) {axis = 0 : i32} : (tensor<32x128xf32>) -> tensor<128xf32>
# DWDB: arith.truncf %{{.*}} : tensor<128xf32> to tensor<128xf16>
