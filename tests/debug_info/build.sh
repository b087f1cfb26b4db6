#!/usr/bin/env bash
# Rebuild the fxc /Zi builds in this folder (tests read the committed files
# and never need the compiler): each example's shader, and inl.hlsl, whose
# calls are inlined from itself and from an include.
#   tests/debug_info/build.sh FXC     (FXC: the wrapper tools/fxc/setup.sh makes)
set -euo pipefail
fxc=${1:?usage: build.sh FXC}
here=$(cd "$(dirname "$0")" && pwd)
for w in histogram global_histogram reduce scan matmul cas_float_add saxpy_structured mandelbrot gaussian_blur downsample_tonemap; do
    (cd "$here/../../examples/$w" && "$fxc" "$w.hlsl" -E main -T cs_5_0 -Zi -Fo "$here/$w.dxbc" -Fc "$here/$w.asm")
done
(cd "$here" && "$fxc" inl.hlsl -E main -T cs_5_0 -Zi -Fo inl.dxbc -Fc inl.asm)
(cd "$here" && "$fxc" race.hlsl -E main -T cs_5_0 -Zi -Fo race.dxbc -Fc race.asm)
(cd "$here" && "$fxc" allowed.hlsl -E main -T cs_5_0 -Zi -Fo allowed.dxbc -Fc allowed.asm)
(cd "$here" && "$fxc" groupshared.hlsl -E main -T cs_5_0 -Zi -Fo groupshared.dxbc -Fc groupshared.asm)
