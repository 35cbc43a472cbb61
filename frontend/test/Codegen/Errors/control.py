# Control-flow errors: returns inside loops, conditions that are not
# scalars or constexpr bools, malformed loop iterators, loop-carried
# variables that change type.
# RUN: not tessera-frontend %s --kernel return_in_loop --signature "i32" 2>&1 | FileCheck %s --check-prefix=RETURN_IN_LOOP
# RUN: not tessera-frontend %s --kernel return_in_loop_if --signature "i32" 2>&1 | FileCheck %s --check-prefix=RETURN_IN_LOOP_IF
# RUN: not tessera-frontend %s --kernel cond_string --signature "i32" 2>&1 | FileCheck %s --check-prefix=COND_STRING
# RUN: not tessera-frontend %s --kernel while_block --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=WHILE_BLOCK
# RUN: not tessera-frontend %s --kernel static_range_runtime --signature "i32" 2>&1 | FileCheck %s --check-prefix=STATIC_RANGE_RUNTIME
# RUN: not tessera-frontend %s --kernel range_float --signature "i32" 2>&1 | FileCheck %s --check-prefix=RANGE_FLOAT
# RUN: not tessera-frontend %s --kernel range_block --signature "i32" 2>&1 | FileCheck %s --check-prefix=RANGE_BLOCK
# RUN: not tessera-frontend %s --kernel num_stages_runtime --signature "i32" 2>&1 | FileCheck %s --check-prefix=NUM_STAGES_RUNTIME
# RUN: not tessera-frontend %s --kernel static_step_zero --signature "i32" 2>&1 | FileCheck %s --check-prefix=STATIC_STEP_ZERO
# RUN: not tessera-frontend %s --kernel for_tuple_target --signature "i32" 2>&1 | FileCheck %s --check-prefix=FOR_TUPLE_TARGET
# RUN: not tessera-frontend %s --kernel unknown_kw_range --signature "i32" 2>&1 | FileCheck %s --check-prefix=UNKNOWN_KW_RANGE
# RUN: not tessera-frontend %s --kernel loop_dtype_change --signature "i32" 2>&1 | FileCheck %s --check-prefix=LOOP_DTYPE_CHANGE
# RUN: not tessera-frontend %s --kernel use_dead --signature "*fp32,i32" 2>&1 | FileCheck %s --check-prefix=USE_DEAD
import triton
import triton.language as tl


@triton.jit
def return_in_loop(n):
    for i in range(n):
        return


@triton.jit
def return_in_loop_if(n):
    for i in range(n):
        if i > 2:
            return


@triton.jit
def cond_string(n):
    if "yes":
        pass


@triton.jit
def while_block(p):
    x = tl.arange(0, 4)
    while x < 3:
        x += 1


@triton.jit
def static_range_runtime(n):
    for i in tl.static_range(n):
        pass


@triton.jit
def range_float(n):
    for i in range(1.5):
        pass


@triton.jit
def range_block(n):
    for i in range(tl.arange(0, 4)):
        pass


@triton.jit
def num_stages_runtime(n):
    for i in tl.range(0, n, num_stages=n):
        pass


@triton.jit
def static_step_zero(n):
    for i in tl.static_range(0, 4, 0):
        pass


@triton.jit
def for_tuple_target(n):
    for i, j in range(n):
        pass


@triton.jit
def unknown_kw_range(n):
    for i in tl.range(0, n, stages=3):
        pass


@triton.jit
def loop_dtype_change(n):
    x = tl.zeros([4], tl.float32)
    while n > 0:
        x = x.to(tl.float16)
        n -= 1


@triton.jit
def dead_desc_return(p, n):
    if n > 0:
        return tl.make_tensor_descriptor(p, [n], [1], [16])


@triton.jit
def use_dead(p, n):
    d = dead_desc_return(p, n)

# The diagnostics, in the order of the RUN lines above.
# RETURN_IN_LOOP: control.py:24:9: error: cannot have `return` statements inside `while` or `for` statements in device code
# RETURN_IN_LOOP-NEXT: {{^}}        return{{$}}
# RETURN_IN_LOOP-NEXT: {{^}}        ^{{$}}
# RETURN_IN_LOOP_IF: control.py:30:9: error: cannot have `return` statements inside `while` or `for` statements in device code
# RETURN_IN_LOOP_IF-NEXT: {{^}}        if i > 2:{{$}}
# RETURN_IN_LOOP_IF-NEXT: {{^}}        ^{{$}}
# COND_STRING: control.py:36:8: error: conditions can only be tensors or constexprs of type bool, int or None, not constexpr['yes']
# COND_STRING-NEXT: {{^}}    if "yes":{{$}}
# COND_STRING-NEXT: {{^}}       ^{{$}}
# WHILE_BLOCK: control.py:43:11: error: the truth value of a tensor with more than one element is ambiguous
# WHILE_BLOCK-NEXT: {{^}}    while x < 3:{{$}}
# WHILE_BLOCK-NEXT: {{^}}          ^{{$}}
# WHILE_BLOCK-NEXT: control.py:43:11: note: reduce it first (tl.max, tl.sum, ...) or use tl.where
# STATIC_RANGE_RUNTIME: control.py:49:5: error: the end of tl.static_range must be a constexpr integer, got int32
# STATIC_RANGE_RUNTIME-NEXT: {{^}}    for i in tl.static_range(n):{{$}}
# STATIC_RANGE_RUNTIME-NEXT: {{^}}    ^{{$}}
# RANGE_FLOAT: control.py:55:14: error: the upper bound of a for loop must be an integer, got fp32
# RANGE_FLOAT-NEXT: {{^}}    for i in range(1.5):{{$}}
# RANGE_FLOAT-NEXT: {{^}}             ^{{$}}
# RANGE_BLOCK: control.py:61:14: error: the upper bound of a for loop must be a scalar, got <[4], int32>
# RANGE_BLOCK-NEXT: {{^}}    for i in range(tl.arange(0, 4)):{{$}}
# RANGE_BLOCK-NEXT: {{^}}             ^{{$}}
# NUM_STAGES_RUNTIME: control.py:67:40: error: num_stages must be a constexpr integer, got int32
# NUM_STAGES_RUNTIME-NEXT: {{^}}    for i in tl.range(0, n, num_stages=n):{{$}}
# NUM_STAGES_RUNTIME-NEXT: {{^}}                                       ^{{$}}
# STATIC_STEP_ZERO: control.py:73:14: error: tl.static_range() step must not be zero
# STATIC_STEP_ZERO-NEXT: {{^}}    for i in tl.static_range(0, 4, 0):{{$}}
# STATIC_STEP_ZERO-NEXT: {{^}}             ^{{$}}
# FOR_TUPLE_TARGET: control.py:79:9: error: the target of a for loop must be a single name in device code
# FOR_TUPLE_TARGET-NEXT: {{^}}    for i, j in range(n):{{$}}
# FOR_TUPLE_TARGET-NEXT: {{^}}        ^{{$}}
# UNKNOWN_KW_RANGE: control.py:85:36: error: tl.range() got an unexpected keyword argument 'stages'
# UNKNOWN_KW_RANGE-NEXT: {{^}}    for i in tl.range(0, n, stages=3):{{$}}
# UNKNOWN_KW_RANGE-NEXT: {{^}}                                   ^{{$}}
# LOOP_DTYPE_CHANGE: control.py:92:5: error: loop-carried variable 'x' has initial type <[4], fp32> but is reassigned to <[4], fp16> in the loop
# LOOP_DTYPE_CHANGE-NEXT: {{^}}    while n > 0:{{$}}
# LOOP_DTYPE_CHANGE-NEXT: {{^}}    ^{{$}}
# LOOP_DTYPE_CHANGE-NEXT: control.py:92:5: note: make sure the type stays the same, e.g. with .to()
# USE_DEAD: control.py:98:1: error: function 'dead_desc_return' does not return a descriptor on every path
# USE_DEAD-NEXT: {{^}}def dead_desc_return(p, n):{{$}}
# USE_DEAD-NEXT: {{^}}^{{$}}
# USE_DEAD-NEXT: control.py:105:9: note: in the call to 'dead_desc_return' here
