# Forward kernels: every autotune config for HEAD_DIM 64 and 128, causal
# (STAGE=3) and not (STAGE=1); backward kernels for both causal settings.
# RUN: tessera-frontend %tessera_src/conformance/kernels/06_fused_attention.py --kernel _attn_fwd --signature "*fp16:16,*fp16:16,*fp16:16,fp32,*fp32:16,*fp16:16,i32:16,i32:16,i32:16,i32:1,i32:16,i32:16,i32:16,i32:1,i32:16,i32:16,i32:16,i32:1,i32:16,i32:16,i32:16,i32:1,i32,i32,i32:16" --constexpr HEAD_DIM=64 --constexpr STAGE=1 --autotune-config all | tessera-opt --split-input-file --verify-each | FileCheck %s --check-prefix=FWD1
# RUN: tessera-frontend %tessera_src/conformance/kernels/06_fused_attention.py --kernel _attn_fwd --signature "*fp16:16,*fp16:16,*fp16:16,fp32,*fp32:16,*fp16:16,i32:16,i32:16,i32:16,i32:1,i32:16,i32:16,i32:16,i32:1,i32:16,i32:16,i32:16,i32:1,i32:16,i32:16,i32:16,i32:1,i32,i32,i32:16" --constexpr HEAD_DIM=128 --constexpr STAGE=3 --autotune-config all | tessera-opt --split-input-file --inline --canonicalize | FileCheck %s --check-prefix=FWD3
# RUN: tessera-frontend %tessera_src/conformance/kernels/06_fused_attention.py --kernel _attn_fwd --signature "*fp16:16,*fp16:16,*fp16:16,fp32,*fp32:16,*fp16:16,i32:16,i32:16,i32:16,i32:1,i32:16,i32:16,i32:16,i32:1,i32:16,i32:16,i32:16,i32:1,i32:16,i32:16,i32:16,i32:1,i32,i32,i32:16" --constexpr HEAD_DIM=128 --constexpr STAGE=1 --autotune-config all | tessera-opt --split-input-file --verify-each | FileCheck %s --check-prefix=FWD1
# RUN: tessera-frontend %tessera_src/conformance/kernels/06_fused_attention.py --kernel _attn_fwd --signature "*fp16:16,*fp16:16,*fp16:16,fp32,*fp32:16,*fp16:16,i32:16,i32:16,i32:16,i32:1,i32:16,i32:16,i32:16,i32:1,i32:16,i32:16,i32:16,i32:1,i32:16,i32:16,i32:16,i32:1,i32,i32,i32:16" --constexpr HEAD_DIM=64 --constexpr STAGE=3 --autotune-config all | tessera-opt --split-input-file --verify-each | FileCheck %s --check-prefix=FWD3CALLS
# RUN: tessera-frontend %tessera_src/conformance/kernels/06_fused_attention.py --kernel _attn_fwd_desc --signature "*fp16:16,*fp16:16,*fp16:16,fp32,*fp32:16,*fp16:16,i32,i32,i32:16" --constexpr HEAD_DIM=64 --constexpr STAGE=1 --autotune-config all | tessera-opt --split-input-file --verify-each | FileCheck %s --check-prefix=DESC
# RUN: tessera-frontend %tessera_src/conformance/kernels/06_fused_attention.py --kernel _attn_fwd_desc --signature "*fp16:16,*fp16:16,*fp16:16,fp32,*fp32:16,*fp16:16,i32,i32,i32:16" --constexpr HEAD_DIM=128 --constexpr STAGE=3 --autotune-config all | tessera-opt --split-input-file --inline --canonicalize | FileCheck %s --check-prefix=DESC
# RUN: tessera-frontend %tessera_src/conformance/kernels/06_fused_attention.py --kernel _attn_fwd_desc --signature "*fp16:16,*fp16:16,*fp16:16,fp32,*fp32:16,*fp16:16,i32,i32,i32:16" --constexpr HEAD_DIM=64 --constexpr STAGE=3 --autotune-config all | tessera-opt --split-input-file --verify-each | FileCheck %s --check-prefix=DESC
# RUN: tessera-frontend %tessera_src/conformance/kernels/06_fused_attention.py --kernel _attn_fwd_desc --signature "*fp16:16,*fp16:16,*fp16:16,fp32,*fp32:16,*fp16:16,i32,i32,i32:16" --constexpr HEAD_DIM=128 --constexpr STAGE=1 --autotune-config all | tessera-opt --split-input-file --verify-each | FileCheck %s --check-prefix=DESC
# RUN: tessera-frontend %tessera_src/conformance/kernels/06_fused_attention.py --kernel _attn_bwd_preprocess --signature "*fp16:16,*fp16:16,*fp32:16,i32,i32,i32:16,128,64" | tessera-opt --verify-each | FileCheck %s --check-prefix=PRE
# RUN: tessera-frontend %tessera_src/conformance/kernels/06_fused_attention.py --kernel _attn_bwd_preprocess --signature "*fp16:16,*fp16:16,*fp32:16,i32,i32,i32:16,128,128" | tessera-opt --inline --canonicalize | FileCheck %s --check-prefix=PRE
# RUN: tessera-frontend %tessera_src/conformance/kernels/06_fused_attention.py --kernel _attn_bwd --signature "*fp16:16,*fp16:16,*fp16:16,fp32,*fp16:16,*fp16:16,*fp16:16,*fp16:16,*fp32:16,*fp32:16,i32:16,i32:16,i32:16,i32:1,i32,i32:16,32,128,128,32,2,64,True" | tessera-opt --verify-each | FileCheck %s --check-prefix=BWDC
# RUN: tessera-frontend %tessera_src/conformance/kernels/06_fused_attention.py --kernel _attn_bwd --signature "*fp16:16,*fp16:16,*fp16:16,fp32,*fp16:16,*fp16:16,*fp16:16,*fp16:16,*fp32:16,*fp32:16,i32:16,i32:16,i32:16,i32:1,i32,i32:16,32,128,128,32,2,128,False" | tessera-opt --inline --canonicalize | FileCheck %s --check-prefix=BWD
# RUN: tessera-frontend %tessera_src/conformance/kernels/06_fused_attention.py --kernel _attn_bwd --signature "*fp16:16,*fp16:16,*fp16:16,fp32,*fp16:16,*fp16:16,*fp16:16,*fp16:16,*fp32:16,*fp32:16,i32:16,i32:16,i32:16,i32:1,i32,i32:16,32,128,128,32,2,128,True" | tessera-opt --inline --canonicalize | FileCheck %s --check-prefix=BWD
# RUN: tessera-frontend %tessera_src/conformance/kernels/06_fused_attention.py --kernel _attn_bwd --signature "*fp16:16,*fp16:16,*fp16:16,fp32,*fp16:16,*fp16:16,*fp16:16,*fp16:16,*fp32:16,*fp32:16,i32:16,i32:16,i32:16,i32:1,i32,i32:16,32,128,128,32,2,64,False" | tessera-opt --verify-each | FileCheck %s --check-prefix=BWD

# Non-causal: one call of the inner loop, which carries acc, l_i and m_i.
# FWD1-LABEL: func.func @_attn_fwd
# FWD1: %{{.*}}:3 = call @_attn_fwd_inner__
# FWD1-NOT: call @_attn_fwd_inner__
# FWD1-LABEL: func.func private @_attn_fwd_inner__
# FWD1: scf.for {{.*}} -> (tensor<{{.*}}xf32>, tensor<{{.*}}xf32>, tensor<{{.*}}xf32>)
# FWD1: tessera.hint %{{.*}} {divisibility = array<i64: {{.*}}>}
# FWD1: tessera.dot
# FWD1: math.exp2
# FWD1: tessera.dot
# FWD1: return %{{.*}}, %{{.*}}, %{{.*}} :

# Causal: the off-band and the masked on-band passes, inlined.
# FWD3-LABEL: func.func @_attn_fwd
# FWD3-NOT: call
# FWD3: scf.for
# FWD3: tessera.dot
# FWD3: scf.for
# FWD3: arith.cmpi sge
# FWD3: tessera.dot

# Two specializations of the inner loop: STAGE=1 and STAGE=2.
# FWD3CALLS-LABEL: func.func @_attn_fwd
# FWD3CALLS: call @_attn_fwd_inner__{{.*}}__c1__
# FWD3CALLS: call @_attn_fwd_inner__{{.*}}__c2__

# DESC-LABEL: func.func @_attn_fwd_desc
# DESC: tessera.make_tensor_descriptor %{{.*}} : !tessera.ptr<f16> -> !tessera.tensordesc<tensor<{{64|128}}x{{64|128}}xf16>>
# DESC: tessera.descriptor_load
# DESC: tessera.descriptor_store

# PRE-LABEL: func.func @_attn_bwd_preprocess
# PRE: arith.extsi %{{.*}} : i32 to i64
# PRE: tessera.reduce(%{{.*}}) {axis = 1 : i32}

# BWDC-LABEL: func.func @_attn_bwd
# BWDC: call @_attn_bwd_dkdv__{{.*}}__c16__c128__c64__i32__i32__c8__cTrue(
# BWDC: call @_attn_bwd_dkdv__{{.*}}__cFalse(
# BWDC: call @_attn_bwd_dq__{{.*}}__cTrue(
# BWDC: call @_attn_bwd_dq__{{.*}}__cFalse(

# BWD-LABEL: func.func @_attn_bwd
# BWD: tessera.trans
# BWD: tessera.dot
