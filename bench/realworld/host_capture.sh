#!/usr/bin/env bash
# Runs the three capture drivers on the GPU host, in parallel shards, and
# packs the result into $OUT. Run from the repository root, with the wheels
# of liger-kernel, flag-gems, sqlalchemy and greenlet in .whl/:
#
#   bash bench/realworld/host_capture.sh [DEADLINE_S] [HARD_LIMIT_S]
#
# DEADLINE_S: no case starts later than this after its process started
# (default 300); HARD_LIMIT_S: each process is killed after this (400).
# RW_CASES=FILE runs only the PROJECT:CASE lines of FILE; RW_SHARDS sets the
# processes per project (default "inductor:5 liger:3 flaggems:7").
set -u
DEADLINE=${1:-300}
HARD=${2:-400}
OUTDIR=${OUT:-/tmp/rw-out}
WORK=/tmp/rw-work
HERE=bench/realworld
rm -rf "$WORK"
mkdir -p "$WORK/site" "$WORK/logs" "$OUTDIR"

export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
export PYTHONUNBUFFERED=1
export TORCHINDUCTOR_CACHE_DIR=$WORK/inductor_cache
export FLAGGEMS_CACHE_DIR=$WORK/flaggems_cache
export TRITON_CACHE_DIR=$WORK/triton_cache
export TORCHINDUCTOR_COMPILE_THREADS=1
export LIGER_FUSED_MOE_AUTOTUNE=0

python3 -m pip install --no-deps --no-index --target "$WORK/site" .whl/*.whl \
  >"$WORK/logs/pip.log" 2>&1 || { echo "pip failed"; tail -5 "$WORK/logs/pip.log"; }
export PYTHONPATH=$WORK/site

{
  nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv
  python3 -c 'import sys, torch, triton; print(sys.version); print("torch", torch.__version__, "triton", triton.__version__, "cuda", torch.version.cuda, torch.cuda.get_device_name())'
  python3 -c 'import liger_kernel, flag_gems; print("liger ok; flag_gems", flag_gems.__version__)'
} >"$WORK/logs/env.log" 2>&1
cat "$WORK/logs/env.log" | tail -8

launch() {  # project shards
  local project=$1 shards=$2
  local extra=()
  if [[ -n "${RW_CASES:-}" ]]; then extra=(--cases-file "$RW_CASES"); fi
  for ((i = 0; i < shards; i++)); do
    timeout -k 10 "$HARD" python3 "$HERE/capture_$project.py" "$WORK" \
      --shard "$i/$shards" --deadline "$DEADLINE" "${extra[@]}" \
      >"$WORK/logs/$project-$i.log" 2>&1 &
  done
}
for spec in ${RW_SHARDS:-inductor:5 liger:3 flaggems:7}; do
  launch "${spec%%:*}" "${spec##*:}"
done
wait

for f in "$WORK"/logs/*-[0-9]*.log; do
  echo "== $f: $(grep -c ': ok +' "$f") ok, $(grep -c ': error +' "$f") errors"
  tail -2 "$f" | cut -c1-300
done
python3 "$HERE/pack_capture.py" "$WORK" "$OUTDIR"
ls -la "$OUTDIR"
