#!/usr/bin/env bash
# build.sh [OUT] - build sm5sim's d3d11.dll (x86-64 Windows, PE) with
# mingw-w64, and the bcryptprimitives.dll that Wine 8 and older need beside
# it (wine/bcryptprimitives.c), into OUT (default: d3d11/target/dist).
#
# Needs: rustup's x86_64-pc-windows-gnu target (added here when missing) and
# mingw-w64's x86_64-w64-mingw32-gcc (Debian: gcc-mingw-w64-x86-64; the
# repository's tools/fxc/setup.sh installs it). docs/d3d11.md is the guide.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
out="${1:-$here/target/dist}"
target=x86_64-pc-windows-gnu

if ! command -v x86_64-w64-mingw32-gcc >/dev/null; then
    echo "error: x86_64-w64-mingw32-gcc not found (Debian: apt-get install gcc-mingw-w64-x86-64)" >&2
    exit 1
fi
if ! rustup target list --installed | grep -qx "$target"; then
    rustup target add "$target"
fi
cargo build --manifest-path "$here/Cargo.toml" --release --target "$target"
mkdir -p "$out"
cp "$here/target/$target/release/d3d11.dll" "$out/"
x86_64-w64-mingw32-gcc -shared -O2 -o "$out/bcryptprimitives.dll" \
    "$here/wine/bcryptprimitives.c" "$here/wine/bcryptprimitives.def" -ladvapi32
echo "built $out/d3d11.dll and $out/bcryptprimitives.dll"
