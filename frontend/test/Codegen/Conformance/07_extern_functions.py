# libdevice.asin lowers to tessera.extern_elementwise with the vendor-neutral
# symbol __tessera_asin_<type>.
# RUN: tessera-frontend %tessera_src/conformance/kernels/07_extern_functions.py --kernel asin_kernel --signature "*fp32:16,*fp32:16,i32,1024" | tessera-opt --verify-each | FileCheck %s
# RUN: tessera-frontend %tessera_src/conformance/kernels/07_extern_functions.py --kernel asin_kernel --signature "*fp64:16,*fp64:16,i32:16,512" | tessera-opt --inline --canonicalize | FileCheck %s --check-prefix=F64

# CHECK-LABEL: func.func @asin_kernel
# CHECK: tessera.extern_elementwise %{{.*}} {libname = "", libpath = "", pure = true, symbol = "__tessera_asin_fp32"} : (tensor<1024xf32>) -> tensor<1024xf32>

# F64: symbol = "__tessera_asin_fp64"} : (tensor<512xf64>) -> tensor<512xf64>
