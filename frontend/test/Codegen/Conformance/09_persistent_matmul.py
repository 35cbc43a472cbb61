# All four kernels, every autotune config, fp16 and fp8 e4m3; the descriptor
# kernels with and without warp specialization.
# RUN: tessera-frontend %tessera_src/conformance/kernels/09_persistent_matmul.py --kernel matmul_kernel --signature "*fp16:16,*fp16:16,*fp16:16,i32:16,i32:16,i32:16,i32:16,i32:1,i32:16,i32:1,i32:16,i32:1" --autotune-config all | tessera-opt --split-input-file --verify-each | FileCheck %s --check-prefix=MM
# RUN: tessera-frontend %tessera_src/conformance/kernels/09_persistent_matmul.py --kernel matmul_kernel --signature "*fp8e4nv:16,*fp8e4nv:16,*fp8e4nv:16,i32:16,i32:16,i32:16,i32:1,i32:16,i32:16,i32:1,i32:16,i32:1" --autotune-config all | tessera-opt --split-input-file --inline --canonicalize | FileCheck %s --check-prefix=MM
# RUN: tessera-frontend %tessera_src/conformance/kernels/09_persistent_matmul.py --kernel matmul_kernel_persistent --signature "*fp16:16,*fp16:16,*fp16:16,i32:16,i32:16,i32:16,i32:16,i32:1,i32:16,i32:1,i32:16,i32:1" --constexpr NUM_SMS=132 --autotune-config all | tessera-opt --split-input-file --verify-each | FileCheck %s --check-prefix=PERS
# RUN: tessera-frontend %tessera_src/conformance/kernels/09_persistent_matmul.py --kernel matmul_kernel_persistent --signature "*fp8e4nv:16,*fp8e4nv:16,*fp8e4nv:16,i32:16,i32:16,i32:16,i32:1,i32:16,i32:16,i32:1,i32:16,i32:1" --constexpr NUM_SMS=132 --autotune-config all | tessera-opt --split-input-file --inline --canonicalize | FileCheck %s --check-prefix=PERS
# RUN: tessera-frontend %tessera_src/conformance/kernels/09_persistent_matmul.py --kernel matmul_kernel_descriptor --signature "*fp16:16,*fp16:16,*fp16:16,i32:16,i32:16,i32:16" --constexpr WARP_SPECIALIZE=False --autotune-config all | tessera-opt --split-input-file --verify-each | FileCheck %s --check-prefix=DESC
# RUN: tessera-frontend %tessera_src/conformance/kernels/09_persistent_matmul.py --kernel matmul_kernel_descriptor --signature "*fp8e4nv:16,*fp8e4nv:16,*fp8e4nv:16,i32:16,i32:16,i32:16" --constexpr WARP_SPECIALIZE=True --autotune-config all | tessera-opt --split-input-file --inline --canonicalize | FileCheck %s --check-prefix=DESCWS
# RUN: tessera-frontend %tessera_src/conformance/kernels/09_persistent_matmul.py --kernel matmul_kernel_descriptor --signature "*fp16:16,*fp16:16,*fp16:16,i32:16,i32:16,i32:16" --constexpr WARP_SPECIALIZE=True --autotune-config all | tessera-opt --split-input-file --verify-each | FileCheck %s --check-prefix=DESCWS
# RUN: tessera-frontend %tessera_src/conformance/kernels/09_persistent_matmul.py --kernel matmul_kernel_descriptor --signature "*fp8e4nv:16,*fp8e4nv:16,*fp8e4nv:16,i32:16,i32:16,i32:16" --constexpr WARP_SPECIALIZE=False --autotune-config all | tessera-opt --split-input-file --verify-each | FileCheck %s --check-prefix=DESC
# RUN: tessera-frontend %tessera_src/conformance/kernels/09_persistent_matmul.py --kernel matmul_kernel_descriptor_persistent --signature "*fp16:16,*fp16:16,*fp16:16,i32:16,i32:16,i32:16" --constexpr NUM_SMS=132 --constexpr WARP_SPECIALIZE=False --autotune-config all | tessera-opt --split-input-file --verify-each | FileCheck %s --check-prefix=DP
# RUN: tessera-frontend %tessera_src/conformance/kernels/09_persistent_matmul.py --kernel matmul_kernel_descriptor_persistent --signature "*fp16:16,*fp16:16,*fp16:16,i32:16,i32:16,i32:16" --constexpr NUM_SMS=132 --constexpr WARP_SPECIALIZE=True --autotune-config all | tessera-opt --split-input-file --inline --canonicalize | FileCheck %s --check-prefix=DP
# RUN: tessera-frontend %tessera_src/conformance/kernels/09_persistent_matmul.py --kernel matmul_kernel_descriptor_persistent --signature "*fp8e4nv:16,*fp8e4nv:16,*fp8e4nv:16,i32:16,i32:16,i32:16" --constexpr NUM_SMS=132 --constexpr WARP_SPECIALIZE=False --autotune-config all | tessera-opt --split-input-file --verify-each | FileCheck %s --check-prefix=DP
# RUN: tessera-frontend %tessera_src/conformance/kernels/09_persistent_matmul.py --kernel matmul_kernel_descriptor_persistent --signature "*fp8e4nv:16,*fp8e4nv:16,*fp8e4nv:16,i32:16,i32:16,i32:16" --constexpr NUM_SMS=132 --constexpr WARP_SPECIALIZE=True --autotune-config all | tessera-opt --split-input-file --verify-each | FileCheck %s --check-prefix=DP

# MM-LABEL: func.func @matmul_kernel
# MM: tessera.hint %{{.*}} {contiguity = array<i64: 128>, divisibility = array<i64: 128>} : tensor<128xi32>
# MM: tessera.dot

# The tile loop is a flattened tl.range.
# PERS-LABEL: func.func @matmul_kernel_persistent
# PERS: scf.for
# PERS: scf.for
# PERS: tessera.dot
# PERS: } {tessera.flatten}

# DESC-LABEL: func.func @matmul_kernel_descriptor
# DESC: scf.for
# DESC: tessera.descriptor_load
# DESC: tessera.trans %{{.*}} {order = array<i32: 1, 0>}
# DESC: tessera.dot
# DESC-NOT: tessera.warp_specialize
# DESC: tessera.descriptor_store

# DESCWS-LABEL: func.func @matmul_kernel_descriptor
# DESCWS: } {tessera.warp_specialize}

# EPILOGUE_SUBTILE=True stores two halves (reshape, permute, split); False
# stores the whole tile.
# DP-LABEL: func.func @matmul_kernel_descriptor_persistent
# DP: tessera.reshape %{{.*}} : tensor<128x{{128|256}}xf32> -> tensor<128x2x{{64|128}}xf32>
# DP: tessera.trans %{{.*}} {order = array<i32: 0, 2, 1>}
# DP: tessera.split
# DP-COUNT-2: tessera.descriptor_store
# DP: tessera.flatten
# DP-LABEL: func.func @matmul_kernel_descriptor_persistent
# DP-NOT: tessera.split
# DP: tessera.descriptor_store
