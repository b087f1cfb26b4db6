#!/bin/sh
# Installs sm5sim's C library under a prefix, as a C library installs
# (docs/c-api.md, "Installing"):
#
#   PREFIX/include/sm5sim.h
#   LIBDIR/libsm5sim.so.VERSION, and the links libsm5sim.so.SONAME_VERSION
#                                 (the soname) and libsm5sim.so
#   LIBDIR/libsm5sim.a
#   LIBDIR/pkgconfig/sm5sim.pc, LIBDIR/pkgconfig/sm5sim-static.pc
#   LIBDIR/cmake/sm5sim/sm5simConfig.cmake, sm5simConfigVersion.cmake
#
# LIBDIR is PREFIX/lib unless --libdir says otherwise. It builds the library
# with Cargo first (`cargo rustc` in its own target directory, so that the
# shared library gets its soname without touching target/release), unless
# --prebuilt names a folder where Cargo already built it. Run with --help for
# the options. POSIX sh; Linux (ELF) only.
set -eu

me="capi/install.sh"

usage() {
    cat <<'EOF'
usage: capi/install.sh --prefix DIR [options]

Builds sm5sim's C library with Cargo and installs it under DIR: the header
(include/sm5sim.h), the shared library (lib/libsm5sim.so, with its soname
and links), the static library (lib/libsm5sim.a), pkg-config files
(lib/pkgconfig/sm5sim.pc, sm5sim-static.pc) and a CMake package
(lib/cmake/sm5sim/, targets sm5sim::sm5sim and sm5sim::sm5sim_static).

options:
  --prefix DIR       where to install (an absolute path; required)
  --libdir DIR       where the libraries, pkgconfig/ and cmake/ go: an
                     absolute path, or one relative to the prefix
                     (default: lib)
  --profile NAME     release (default) or debug: the Cargo profile to build
  --target-dir DIR   Cargo's target directory for the build
                     (default: target/capi-install in the repository)
  --prebuilt DIR     build nothing: install libsm5sim_capi.so and
                     libsm5sim_capi.a that Cargo already built in DIR
                     (e.g. target/release); a library Cargo built without
                     this script has no soname
  --force            replace files an earlier installation left (otherwise
                     any existing file is refused, and nothing is written)
  -h, --help         this text

DESTDIR, when set, is put before every path written to (staged installs);
the files still name the paths under --prefix.
EOF
}

# a usage error: exit status 2
usage_error() {
    printf '%s: error: %s\n' "$me" "$1" >&2
    printf "run '%s --help' for the options\n" "$me" >&2
    exit 2
}

die() {
    printf '%s: error: %s\n' "$me" "$1" >&2
    exit 1
}

# the paths written into sm5sim.pc and the CMake files: characters those
# files (and shells splitting pkg-config's output) take as they are
check_path_chars() {
    case $2 in
        *[!A-Za-z0-9/._+@,=:~-]*)
            usage_error "$1 '$2' has a character other than letters, digits and / . _ + @ , = : ~ - (the pkg-config and CMake files name it as it is)"
            ;;
    esac
}

# strip trailing slashes, keeping "/"
strip_slashes() {
    p=$1
    while [ "${#p}" -gt 1 ] && [ "${p%/}" != "$p" ]; do
        p=${p%/}
    done
    printf '%s' "$p"
}

prefix=
libdir=
profile=
target_dir=
prebuilt=
force=0

# an option's value: the next argument, never empty nor another option
need_value() {
    if [ "$2" -lt 2 ]; then
        usage_error "$1 needs a value"
    fi
    case $3 in
        '' | -*) usage_error "$1 needs a value, not '$3'" ;;
    esac
}

set_once() {
    # $1: the option, $2: the variable's current value
    if [ -n "$2" ]; then
        usage_error "$1 is given twice"
    fi
}

while [ $# -gt 0 ]; do
    opt=$1
    case $opt in
        --force=* | --help=*)
            usage_error "${opt%%=*} takes no value"
            ;;
        --*=*)
            value=${opt#*=}
            opt=${opt%%=*}
            shift
            set -- "$opt" "$value" "$@"
            if [ -z "$value" ]; then
                usage_error "$opt needs a value"
            fi
            continue
            ;;
    esac
    case $opt in
        -h | --help)
            usage
            exit 0
            ;;
        --prefix)
            need_value "$opt" $# "${2-}"
            set_once "$opt" "$prefix"
            prefix=$2
            shift 2
            ;;
        --libdir)
            need_value "$opt" $# "${2-}"
            set_once "$opt" "$libdir"
            libdir=$2
            shift 2
            ;;
        --profile)
            need_value "$opt" $# "${2-}"
            set_once "$opt" "$profile"
            profile=$2
            shift 2
            ;;
        --target-dir)
            need_value "$opt" $# "${2-}"
            set_once "$opt" "$target_dir"
            target_dir=$2
            shift 2
            ;;
        --prebuilt)
            need_value "$opt" $# "${2-}"
            set_once "$opt" "$prebuilt"
            prebuilt=$2
            shift 2
            ;;
        --force)
            force=1
            shift
            ;;
        *)
            usage_error "unknown argument '$opt'"
            ;;
    esac
done

[ -n "$prefix" ] || usage_error "--prefix DIR is required (where to install, e.g. --prefix /usr/local)"
case $prefix in
    /*) ;;
    *) usage_error "--prefix '$prefix' is not an absolute path (the installed pkg-config and CMake files name it)" ;;
esac
prefix=$(strip_slashes "$prefix")
check_path_chars --prefix "$prefix"
# "/" as the prefix: "/lib", not "//lib"
base=${prefix%/}

case $libdir in
    '') libdir=$base/lib ;;
    /*) libdir=$(strip_slashes "$libdir") ;;
    *) libdir=$base/$(strip_slashes "$libdir") ;;
esac
check_path_chars --libdir "$libdir"
includedir=$base/include

if [ -n "$prebuilt" ]; then
    [ -z "$profile" ] || usage_error "--profile and --prebuilt exclude each other (--prebuilt builds nothing)"
    [ -z "$target_dir" ] || usage_error "--target-dir and --prebuilt exclude each other (--prebuilt builds nothing)"
fi
case ${profile:-release} in
    release) cargo_profile=release out_profile=release ;;
    debug) cargo_profile=dev out_profile=debug ;;
    *) usage_error "--profile '$profile' is neither release nor debug" ;;
esac

system=$(uname -s)
[ "$system" = Linux ] || die "this script installs the Linux (ELF) library; on $system, build it with 'cargo build --release -p sm5sim-capi' and link target/release's sm5sim_capi library (docs/c-api.md, \"Building and linking\")"

# the repository: this script's folder's parent
case $0 in
    */*) script_dir=${0%/*} ;;
    *) script_dir=. ;;
esac
repo=$(cd "$script_dir/.." && pwd -P)
if [ ! -f "$repo/capi/Cargo.toml" ] || [ ! -f "$repo/capi/include/sm5sim.h" ]; then
    die "$repo is not sm5sim's repository (no capi/Cargo.toml and capi/include/sm5sim.h): run the script from its place in the repository"
fi

# the workspace's version ([workspace.package] in Cargo.toml)
version=$(awk '
    /^\[/ { section = $0 }
    section == "[workspace.package]" && /^version[ \t]*=/ {
        sub(/^version[ \t]*=[ \t]*"/, ""); sub(/".*/, ""); print; exit
    }' "$repo/Cargo.toml")
case $version in
    '' | *[!0-9.]* | .* | *. | *..*) die "cannot read the version from $repo/Cargo.toml ([workspace.package] version = \"X.Y.Z\"; read '$version')" ;;
esac
major=${version%%.*}
rest=${version#*.}
minor=${rest%%.*}
if [ "$rest" = "$version" ] || [ "$minor" = "$rest" ]; then
    die "the version '$version' in $repo/Cargo.toml is not X.Y.Z"
fi
# the soname: what a change of breaks programs linked against it (as semver
# reads the version: 0.Y changes break at Y)
if [ "$major" = 0 ]; then
    soname=libsm5sim.so.0.$minor
else
    soname=libsm5sim.so.$major
fi
real=libsm5sim.so.$version

destdir=${DESTDIR-}
dest_lib=$destdir$libdir
dest_include=$destdir$includedir
dest_pc=$dest_lib/pkgconfig
dest_cmake=$dest_lib/cmake/sm5sim
dest_files="$dest_include/sm5sim.h
$dest_lib/$real
$dest_lib/$soname
$dest_lib/libsm5sim.so
$dest_lib/libsm5sim.a
$dest_pc/sm5sim.pc
$dest_pc/sm5sim-static.pc
$dest_cmake/sm5simConfig.cmake
$dest_cmake/sm5simConfigVersion.cmake"

# Refuse before building anything: a folder where a file goes, and, without
# --force, any file already there.
existing=
old_ifs=$IFS
IFS='
'
for f in $dest_files; do
    if [ -d "$f" ]; then
        die "$f is a folder; the installation would put a file there"
    fi
    if [ -e "$f" ] || [ -L "$f" ]; then
        existing="$existing
  $f"
    fi
done
IFS=$old_ifs
if [ -n "$existing" ] && [ "$force" != 1 ]; then
    die "these files exist already (an earlier installation?); nothing was written. Pass --force to replace them:$existing"
fi

# The libraries: built here, or Cargo's from --prebuilt.
if [ -n "$prebuilt" ]; then
    [ -d "$prebuilt" ] || die "--prebuilt '$prebuilt' is not a folder"
    from=$prebuilt
else
    target_dir=${target_dir:-$repo/target/capi-install}
    # Cargo runs in the repository: a relative folder is the caller's
    case $target_dir in
        /*) ;;
        *) target_dir=$(pwd -P)/$target_dir ;;
    esac
    cargo=${CARGO:-cargo}
    printf '%s: building the C library (%s profile, in %s)\n' "$me" "$out_profile" "$target_dir" >&2
    # cargo rustc: the soname is a linker argument of this crate alone,
    # which `cargo build` has no way to pass
    (cd "$repo" && "$cargo" rustc -p sm5sim-capi --lib --profile "$cargo_profile" \
        --target-dir "$target_dir" --crate-type cdylib,staticlib \
        -- -C "link-arg=-Wl,-soname,$soname") ||
        die "cargo failed to build the C library (above); nothing was installed"
    from=$target_dir/$out_profile
fi
src_so=$from/libsm5sim_capi.so
src_a=$from/libsm5sim_capi.a
[ -f "$src_so" ] || die "$src_so is missing (cargo build -p sm5sim-capi makes it)"
[ -f "$src_a" ] || die "$src_a is missing (cargo build -p sm5sim-capi makes it, since capi/Cargo.toml's crate-type has staticlib)"

# The shared library's soname, as the linker will record it in programs:
# ours, or none (a library Cargo built without this script).
if command -v readelf >/dev/null 2>&1; then
    dynamic=$(LC_ALL=C readelf -d "$src_so") || die "readelf cannot read $src_so"
    found=$(printf '%s\n' "$dynamic" | sed -n 's/.*(SONAME).*\[\(.*\)\].*/\1/p')
elif command -v objdump >/dev/null 2>&1; then
    dynamic=$(LC_ALL=C objdump -p "$src_so") || die "objdump cannot read $src_so"
    found=$(printf '%s\n' "$dynamic" | sed -n 's/^ *SONAME *//p')
else
    die "neither readelf nor objdump (binutils) is installed: they tell the shared library's soname"
fi
case $found in
    "$soname") has_soname=1 ;;
    '') has_soname=0 ;;
    *) die "$src_so has the soname '$found', not $soname (built for another version?)" ;;
esac

# The libraries that libsm5sim.a needs from the system, as rustc prints them
# for this target (`--print native-static-libs`).
native_libs="-lgcc_s -lutil -lrt -lpthread -lm -ldl -lc"
cmake_native_libs="gcc_s;util;rt;pthread;m;dl;c"

# a path in sm5sim.pc: under ${prefix} where it is
pc_path() {
    # shellcheck disable=SC2016 # pkg-config's ${prefix}, written as it is
    case $1 in
        "$base"/*) printf '${prefix}%s' "${1#"$base"}" ;;
        *) printf '%s' "$1" ;;
    esac
}
pc_libdir=$(pc_path "$libdir")
pc_includedir=$(pc_path "$includedir")

if [ "$has_soname" = 1 ]; then
    cmake_shared="IMPORTED_LOCATION \"\${_sm5sim_libdir}/$real\"
    IMPORTED_SONAME \"$soname\""
else
    # linked by -L and -l, so that programs need libsm5sim.so by name, not
    # by the absolute path of a library without a soname
    cmake_shared="IMPORTED_LOCATION \"\${_sm5sim_libdir}/libsm5sim.so\"
    IMPORTED_NO_SONAME TRUE"
fi
pointer_bits=$(getconf LONG_BIT 2>/dev/null || echo 64)
pointer_size=$((pointer_bits / 8))

mkdir -p "$dest_lib" "$dest_include" "$dest_pc" "$dest_cmake"

tmp_suffix=.sm5sim-install.$$
cleanup() {
    IFS='
'
    for f in $dest_files; do
        rm -f "$f$tmp_suffix"
    done
}
trap cleanup EXIT
trap 'exit 1' HUP INT TERM

# copy $1 to $2 with mode $3: through a temporary file beside $2, renamed
# over it, so a reader never sees half a file and a link is replaced, not
# followed
put() {
    cp "$1" "$2$tmp_suffix"
    chmod "$3" "$2$tmp_suffix"
    mv -f "$2$tmp_suffix" "$2"
}

# write standard input to $1 (mode 644) as put does
put_text() {
    cat >"$1$tmp_suffix"
    chmod 644 "$1$tmp_suffix"
    mv -f "$1$tmp_suffix" "$1"
}

# $2 -> $1
put_link() {
    ln -s "$1" "$2$tmp_suffix"
    mv -f "$2$tmp_suffix" "$2"
}

put "$repo/capi/include/sm5sim.h" "$dest_include/sm5sim.h" 644
put "$src_so" "$dest_lib/$real" 755
put_link "$real" "$dest_lib/$soname"
put_link "$soname" "$dest_lib/libsm5sim.so"
put "$src_a" "$dest_lib/libsm5sim.a" 644

# shellcheck disable=SC2016 # ${prefix} and ${libdir} are pkg-config's
put_text "$dest_pc/sm5sim.pc" <<EOF
# sm5sim's C library, the shared library (libsm5sim.so); written by
# capi/install.sh. Link statically with sm5sim-static.pc.
prefix=$base
exec_prefix=\${prefix}
libdir=$pc_libdir
includedir=$pc_includedir

Name: sm5sim
Description: Runs Direct3D 11 compute shaders (SM5 DXBC) on the CPU: the C API
Version: $version
Libs: -L\${libdir} -lsm5sim
Libs.private: $native_libs
Cflags: -I\${includedir}
EOF

put_text "$dest_pc/sm5sim-static.pc" <<EOF
# sm5sim's C library, the static library (libsm5sim.a) and the system
# libraries it needs; written by capi/install.sh.
prefix=$base
exec_prefix=\${prefix}
libdir=$pc_libdir
includedir=$pc_includedir

Name: sm5sim-static
Description: Runs Direct3D 11 compute shaders (SM5 DXBC) on the CPU: the C API, linked statically
Version: $version
Libs: \${libdir}/libsm5sim.a $native_libs
Cflags: -I\${includedir}
EOF

put_text "$dest_cmake/sm5simConfig.cmake" <<EOF
# sm5sim's C library for CMake's find_package(sm5sim CONFIG); written by
# capi/install.sh. Imported targets:
#   sm5sim::sm5sim         the shared library, libsm5sim.so
#   sm5sim::sm5sim_static  the static library, libsm5sim.a, with the system
#                          libraries it needs
# Both carry the include directory of sm5sim.h.

set(_sm5sim_libdir "$libdir")
set(_sm5sim_includedir "$includedir")

foreach(_sm5sim_file "\${_sm5sim_includedir}/sm5sim.h" "\${_sm5sim_libdir}/$real"
        "\${_sm5sim_libdir}/libsm5sim.a")
  if(NOT EXISTS "\${_sm5sim_file}")
    set(sm5sim_FOUND FALSE)
    set(sm5sim_NOT_FOUND_MESSAGE
        "\${_sm5sim_file} is missing: the installation is incomplete (capi/install.sh)")
    unset(_sm5sim_file)
    unset(_sm5sim_libdir)
    unset(_sm5sim_includedir)
    return()
  endif()
endforeach()
unset(_sm5sim_file)

if(NOT TARGET sm5sim::sm5sim)
  add_library(sm5sim::sm5sim SHARED IMPORTED)
  set_target_properties(sm5sim::sm5sim PROPERTIES
    $cmake_shared
    INTERFACE_INCLUDE_DIRECTORIES "\${_sm5sim_includedir}")
endif()

if(NOT TARGET sm5sim::sm5sim_static)
  add_library(sm5sim::sm5sim_static STATIC IMPORTED)
  set_target_properties(sm5sim::sm5sim_static PROPERTIES
    IMPORTED_LOCATION "\${_sm5sim_libdir}/libsm5sim.a"
    IMPORTED_LINK_INTERFACE_LANGUAGES "C"
    INTERFACE_INCLUDE_DIRECTORIES "\${_sm5sim_includedir}"
    INTERFACE_LINK_LIBRARIES "$cmake_native_libs")
endif()

unset(_sm5sim_libdir)
unset(_sm5sim_includedir)
EOF

put_text "$dest_cmake/sm5simConfigVersion.cmake" <<EOF
# The version of sm5sim's C library for find_package(sm5sim X.Y); written by
# capi/install.sh. A request is met by the same major version at least as
# new, and below 1.0 by the same minor version (0.Y changes break at Y).

set(PACKAGE_VERSION "$version")

if(NOT "\${CMAKE_SIZEOF_VOID_P}" STREQUAL "" AND NOT "\${CMAKE_SIZEOF_VOID_P}" STREQUAL "$pointer_size")
  math(EXPR _sm5sim_bits "$pointer_size * 8")
  set(PACKAGE_VERSION "\${PACKAGE_VERSION} (\${_sm5sim_bits}-bit)")
  unset(_sm5sim_bits)
  set(PACKAGE_VERSION_UNSUITABLE TRUE)
  return()
endif()

if("\${PACKAGE_FIND_VERSION}" STREQUAL "")
  set(PACKAGE_VERSION_COMPATIBLE TRUE)
elseif(PACKAGE_FIND_VERSION VERSION_GREATER PACKAGE_VERSION)
  set(PACKAGE_VERSION_COMPATIBLE FALSE)
elseif(NOT "\${PACKAGE_FIND_VERSION_MAJOR}" STREQUAL "$major")
  set(PACKAGE_VERSION_COMPATIBLE FALSE)
elseif("$major" STREQUAL "0" AND NOT "\${PACKAGE_FIND_VERSION_MINOR}" STREQUAL "$minor")
  set(PACKAGE_VERSION_COMPATIBLE FALSE)
else()
  set(PACKAGE_VERSION_COMPATIBLE TRUE)
  if(PACKAGE_FIND_VERSION VERSION_EQUAL PACKAGE_VERSION)
    set(PACKAGE_VERSION_EXACT TRUE)
  endif()
endif()
EOF

printf '%s: installed sm5sim %s:\n' "$me" "$version"
printf '  %s\n' "$dest_include/sm5sim.h" "$dest_lib/$real" "$dest_lib/$soname -> $real" \
    "$dest_lib/libsm5sim.so -> $soname" "$dest_lib/libsm5sim.a" \
    "$dest_pc/sm5sim.pc" "$dest_pc/sm5sim-static.pc" \
    "$dest_cmake/sm5simConfig.cmake" "$dest_cmake/sm5simConfigVersion.cmake"
if [ "$has_soname" = 0 ]; then
    printf '%s: note: %s has no soname (Cargo built it without this script): programs linked against it need libsm5sim.so by that name at run time\n' "$me" "$src_so"
fi
