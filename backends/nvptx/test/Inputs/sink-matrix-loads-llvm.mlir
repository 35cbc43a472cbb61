// Input of sink-matrix-loads.test (SINK): functions already in the LLVM
// dialect, ordered the way the shared lowering emits an mma.sync dot (every
// ldmatrix and the ops unpacking its registers first, then the mma
// instructions), each showing one rule of the nvptx plugin's
// tessera-nvptx-sink-matrix-loads pass (SinkMatrixLoads.cpp). Run through
// the whole lower-to-llvm stage (--start-after-stage prepare-wgmma): its
// passes before the sinking have nothing to convert in this module, and
// canonicalize and cse only hoist constants (there are none here), so the
// order in the output is the sinking's. The asm strings are shortened; the
// pass only looks at whether one starts with "ldmatrix". The launch
// attributes on the module are what the lowering requires.
module attributes {tessera_gpu.num_ctas = 1 : i32, tessera_gpu.num_warps = 1 : i32, tessera_gpu.target = "nvptx", tessera_gpu.threads_per_warp = 32 : i32} {
  // Two K steps: each ldmatrix and its unpacking move down to the mma that
  // reads them, past the other step's mma.
  llvm.func @two_k_steps(%a0: !llvm.ptr<3>, %a1: !llvm.ptr<3>, %acc: f32) -> f32 {
    %l0 = llvm.inline_asm has_side_effects asm_dialect = att "ldmatrix.sync.aligned.m8n8.x4.shared.b16 {$0, $1, $2, $3}, [$4];", "=r,=r,=r,=r,r" %a0 : (!llvm.ptr<3>) -> !llvm.struct<(i32, i32, i32, i32)>
    %l1 = llvm.inline_asm has_side_effects asm_dialect = att "ldmatrix.sync.aligned.m8n8.x4.shared.b16 {$0, $1, $2, $3}, [$4];", "=r,=r,=r,=r,r" %a1 : (!llvm.ptr<3>) -> !llvm.struct<(i32, i32, i32, i32)>
    %e0 = llvm.extractvalue %l0[0] : !llvm.struct<(i32, i32, i32, i32)>
    %v0 = llvm.bitcast %e0 : i32 to vector<2xf16>
    %e1 = llvm.extractvalue %l1[0] : !llvm.struct<(i32, i32, i32, i32)>
    %v1 = llvm.bitcast %e1 : i32 to vector<2xf16>
    %m0 = llvm.inline_asm asm_dialect = att "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {$0}, {$1}, {$2};", "=f,r,0" %v0, %acc : (vector<2xf16>, f32) -> f32
    %m1 = llvm.inline_asm asm_dialect = att "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {$0}, {$1}, {$2};", "=f,r,0" %v1, %m0 : (vector<2xf16>, f32) -> f32
    llvm.return %m1 : f32
  }

  // A store to memory: the ldmatrix moves past the unrelated mma, not past
  // the store; its unpacking still moves to its mma.
  llvm.func @stops_at_store(%a0: !llvm.ptr<3>, %s: !llvm.ptr<3>, %acc: f32) -> f32 {
    %l0 = llvm.inline_asm has_side_effects asm_dialect = att "ldmatrix.sync.aligned.m8n8.x4.shared.b16 {$0, $1, $2, $3}, [$4];", "=r,=r,=r,=r,r" %a0 : (!llvm.ptr<3>) -> !llvm.struct<(i32, i32, i32, i32)>
    %e0 = llvm.extractvalue %l0[0] : !llvm.struct<(i32, i32, i32, i32)>
    %other = llvm.inline_asm asm_dialect = att "mma.sync.other {$0}, {$1};", "=f,0" %acc : (f32) -> f32
    llvm.store %other, %s : f32, !llvm.ptr<3>
    %m0 = llvm.inline_asm asm_dialect = att "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {$0}, {$1}, {$2};", "=f,r,0" %e0, %acc : (i32, f32) -> f32
    llvm.return %m0 : f32
  }

  // A barrier: same.
  llvm.func @stops_at_barrier(%a0: !llvm.ptr<3>, %acc: f32) -> f32 {
    %l0 = llvm.inline_asm has_side_effects asm_dialect = att "ldmatrix.sync.aligned.m8n8.x4.shared.b16 {$0, $1, $2, $3}, [$4];", "=r,=r,=r,=r,r" %a0 : (!llvm.ptr<3>) -> !llvm.struct<(i32, i32, i32, i32)>
    %other = llvm.inline_asm asm_dialect = att "mma.sync.other {$0}, {$1};", "=f,0" %acc : (f32) -> f32
    nvvm.barrier0
    %e0 = llvm.extractvalue %l0[0] : !llvm.struct<(i32, i32, i32, i32)>
    %m0 = llvm.inline_asm asm_dialect = att "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {$0}, {$1}, {$2};", "=f,r,0" %e0, %other : (i32, f32) -> f32
    llvm.return %m0 : f32
  }

  // A wait for asynchronous copies: same.
  llvm.func @stops_at_async_wait(%a0: !llvm.ptr<3>, %acc: f32) -> f32 {
    %l0 = llvm.inline_asm has_side_effects asm_dialect = att "ldmatrix.sync.aligned.m8n8.x4.shared.b16 {$0, $1, $2, $3}, [$4];", "=r,=r,=r,=r,r" %a0 : (!llvm.ptr<3>) -> !llvm.struct<(i32, i32, i32, i32)>
    %other = llvm.inline_asm asm_dialect = att "mma.sync.other {$0}, {$1};", "=f,0" %acc : (f32) -> f32
    nvvm.cp.async.wait.group 0
    %e0 = llvm.extractvalue %l0[0] : !llvm.struct<(i32, i32, i32, i32)>
    %m0 = llvm.inline_asm asm_dialect = att "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {$0}, {$1}, {$2};", "=f,r,0" %e0, %other : (i32, f32) -> f32
    llvm.return %m0 : f32
  }

  // A load with a use in another block stays where it is (the pass moves
  // ops only within their block).
  llvm.func @used_in_other_block(%a0: !llvm.ptr<3>, %acc: f32, %flag: i1) -> f32 {
    %l0 = llvm.inline_asm has_side_effects asm_dialect = att "ldmatrix.sync.aligned.m8n8.x4.shared.b16 {$0, $1, $2, $3}, [$4];", "=r,=r,=r,=r,r" %a0 : (!llvm.ptr<3>) -> !llvm.struct<(i32, i32, i32, i32)>
    %other = llvm.inline_asm asm_dialect = att "mma.sync.other {$0}, {$1};", "=f,0" %acc : (f32) -> f32
    %e0 = llvm.extractvalue %l0[0] : !llvm.struct<(i32, i32, i32, i32)>
    %m0 = llvm.inline_asm asm_dialect = att "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {$0}, {$1}, {$2};", "=f,r,0" %e0, %other : (i32, f32) -> f32
    llvm.cond_br %flag, ^bb1, ^bb2(%m0 : f32)
  ^bb1:
    %e1 = llvm.extractvalue %l0[1] : !llvm.struct<(i32, i32, i32, i32)>
    %m1 = llvm.inline_asm asm_dialect = att "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {$0}, {$1}, {$2};", "=f,r,0" %e1, %m0 : (i32, f32) -> f32
    llvm.br ^bb2(%m1 : f32)
  ^bb2(%r: f32):
    llvm.return %r : f32
  }

  // Inline assembly other than ldmatrix keeps its place, even without side
  // effects (the order of mma instructions is the dot lowering's choice).
  llvm.func @other_asm_stays(%a0: !llvm.ptr<3>, %acc: f32) -> f32 {
    %l0 = llvm.inline_asm asm_dialect = att "ld.shared.b32 $0, [$1];", "=r,r" %a0 : (!llvm.ptr<3>) -> i32
    %other = llvm.inline_asm asm_dialect = att "mma.sync.other {$0}, {$1};", "=f,0" %acc : (f32) -> f32
    %m0 = llvm.inline_asm asm_dialect = att "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {$0}, {$1}, {$2};", "=f,r,0" %l0, %other : (i32, f32) -> f32
    llvm.return %m0 : f32
  }
}
