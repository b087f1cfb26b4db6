#!/bin/bash
# The measurements of docs/performance.md's "A compiled tier: which code
# generator", in interleaved rounds (compare figures within one round).
#   tools/codegen-probe/measure.sh SM5SIM_BINARY [WORKDIR]
# builds the Cranelift prototype (proto/, AVX-512 host) and the Rust-only
# kernels (rk/) at three CPU levels into WORKDIR (default /tmp/codegen-probe),
# then times them and the interpreter on the same 12-instruction block.
set -euo pipefail
sim=$(realpath "$1")
work=${2:-/tmp/codegen-probe}
here=$(cd "$(dirname "$0")" && pwd)
(cd "$here/proto" && CARGO_TARGET_DIR="$work/native" RUSTFLAGS="-C target-cpu=native" cargo build --release -q)
for cpu in x86-64-v2 x86-64-v3 native; do
  (cd "$here/rk" && CARGO_TARGET_DIR="$work/rk-$cpu" RUSTFLAGS="-C target-cpu=$cpu" cargo build --release -q)
done
interp() { "$sim" run "$here/interp/$1.toml" --threads 1 --json | python3 -c "
import json,sys
def f(o):
    if isinstance(o,dict):
        for k,v in o.items():
            if k=='seconds': print(v)
            f(v)
    elif isinstance(o,list):
        for v in o: f(v)
f(json.load(sys.stdin))"; }
for round in normal-1 normal-2 normal-3 tiny-1; do
  export DATA=${round%-*}
  echo "=== round $round (DATA=$DATA)"
  (cd "$here/proto" && "$work/native/release/proto" all | grep -v "^f32x\|^i32x\|^FTZ\|^host\|spill")
  for cpu in x86-64-v2 x86-64-v3 native; do "$work/rk-$cpu/release/rk" $cpu; done
  for k in 1 2 3; do
    b=$(interp block); e=$(interp empty)
    python3 -c "b,e=$b,$e; print(f'interpreter (run --threads 1, 65536 lanes x 2000 iterations): block {b:.3} s, empty loop {e:.3} s, block {(b-e)*1e9/65536/2000:.3} ns/lane-iteration')"
  done
done
