#!/usr/bin/env bash
# Prints the `swift build` flags that link the binary `make install` ships (and the builds
# `scripts/bench-cli.sh` times, its floors included), so that a command starts with less work
# for the dynamic loader (docs/decisions/0179):
#   - LLVM's linker, which the Swift toolchain ships beside `swiftc` (`-use-ld=lld`), packing the
#     program's relative relocations into a bitmap (`-z pack-relative-relocs`, DT_RELR): the
#     loader reads 17 KB instead of 2 MB of them. Only where the C library understands the
#     format (glibc 2.36 or later; older loaders would start the program unrelocated);
#   - the C and C++ libraries below taken from their static archives, as the Swift runtime,
#     Foundation and ICU already are: the loader no longer maps them nor binds their symbols at
#     every start (libstdc++ 4,300 and the program's 763 references to it, SQLite 1,600,
#     ncursesw and tinfo 500), and SQLite's calls to its own functions are direct (Debian's
#     shared library makes 13,520 of them through its PLT). The toolchain's link line asks for
#     `-lstdc++`, GRDB's module for `-lsqlite3`, ours for `-lncursesw`: a folder holding only the
#     archives, searched first (`-L`), makes those names find them. The archives are the ones Debian's packages
#     install (libstdc++-12-dev, libsqlite3-dev, libncurses-dev): after an upgrade of SQLite or
#     ncurses, `make install` again takes the new ones in.
# What this machine lacks is said on standard error, and the flag left out: the binary is then
# linked as before, and works the same.
# Usage: scripts/release-link-flags.sh SCRATCH_PATH   (the build folder, where the archive's
#        folder is made)
set -euo pipefail
scratch=${1:?usage: scripts/release-link-flags.sh SCRATCH_PATH}
swiftc=$(command -v swiftc || echo /opt/swift/usr/bin/swiftc)
toolchain_bin=$(dirname "$(readlink -f "$swiftc")")
flags=()

if [ -x "$toolchain_bin/ld.lld" ]; then
  flags+=(-Xswiftc -use-ld=lld)
  glibc=$(getconf GNU_LIBC_VERSION 2>/dev/null | awk '{ print $2 }')
  if [ -n "$glibc" ] && printf '%s\n' 2.36 "$glibc" | sort -V -C; then
    flags+=(-Xlinker -z -Xlinker pack-relative-relocs)
  else
    echo "release-link-flags: glibc ${glibc:-unknown} reads no packed relocations (2.36 does): left unpacked" >&2
  fi
else
  echo "release-link-flags: no ld.lld beside $swiftc: linked with the toolchain's default linker" >&2
fi

folder=$(mkdir -p "$scratch/static-archives" && cd "$scratch/static-archives" && pwd)
# The flags are printed as words for the caller's command line: a folder whose path holds a
# space or a tab would be cut in two there.
if [[ "$folder" == *[[:space:]]* ]]; then
  echo "release-link-flags: the build folder's path ($folder) has a space in it: libraries linked dynamically" >&2
  echo "${flags[@]}"
  exit 0
fi
linked=()
for library in libstdc++ libsqlite3 libncursesw libtinfo; do
  archive=$("$toolchain_bin/clang" -print-file-name="$library.a" 2>/dev/null || true)
  if [ -f "$archive" ]; then
    ln -sfn "$archive" "$folder/$library.a"
    linked+=("$library")
  else
    rm -f "$folder/$library.a"
    echo "release-link-flags: no $library.a on this machine: $library linked dynamically" >&2
  fi
done
flags+=(-Xswiftc -L"$folder")
# ncursesw's archive leaves its terminfo calls to tinfo, which its shared library names itself.
if [[ " ${linked[*]} " == *" libncursesw "* ]]; then flags+=(-Xlinker -ltinfo); fi

echo "${flags[@]}"
