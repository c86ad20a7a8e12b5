#!/usr/bin/env bash
# The install, tested (`make test` runs it after the Swift tests): `make install` of the debug
# build (INSTALL_BINARY) into a temporary prefix, then the prefix moved elsewhere and run from
# there with the project folder out of reach — covered by an empty folder in a mount namespace
# of its own where `unshare` may make one — then `make uninstall`. Exits 1 with what failed.
set -euo pipefail
cd "$(dirname "$0")/.."
project=$(pwd)
binary=${INSTALL_TEST_BINARY:-.build/debug/grocery-dude}
[ -x "$binary" ] || { echo "test-install: $binary is missing: swift build first" >&2; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/grocery-dude-install-test.XXXXXX")
trap 'rm -rf "$work"' EXIT
failures=0
check() { # check DESCRIPTION COMMAND...
  local description=$1; shift
  if "$@" >/dev/null 2>&1; then echo "ok    $description"; else echo "FAIL  $description"; failures=$((failures + 1)); fi
}

make --no-print-directory install PREFIX="$work/prefix" INSTALL_BINARY="$binary" >"$work/install.log" 2>&1 ||
  { cat "$work/install.log" >&2; echo "test-install: make install failed" >&2; exit 1; }

files=(bin/grocery-dude share/man/man1/grocery-dude.1 share/bash-completion/completions/grocery-dude
       share/zsh/site-functions/_grocery-dude share/fish/vendor_completions.d/grocery-dude.fish)
for file in "${files[@]}"; do check "installed $file" test -s "$work/prefix/$file"; done
check "the binary is executable" test -x "$work/prefix/bin/grocery-dude"
man=$work/prefix/share/man/man1/grocery-dude.1
check "the manual is a section 1 page of grocery-dude" grep -q '^\.Dt GROCERY-DUDE 1' "$man"
check "the manual documents --cloud" grep -q 'cloud' "$man"
check "the manual documents every subcommand (item edit, cloud start-over)" grep -q 'start-over' "$man"
version=$(tr -d '[:space:]' <"$project/Resources/VERSION")
check "the installed binary says its version, from Resources/VERSION" \
  bash -c "[ \"\$('$work/prefix/bin/grocery-dude' --version)\" = 'grocery-dude $version' ]"
check "the manual says the version" grep -q "$version" "$man"
if command -v man >/dev/null; then
  check "man renders the manual" bash -c "MANWIDTH=80 man -l '$man' | grep -q 'grocery-dude'"
fi
check "bash completions complete grocery-dude" grep -q '^complete .*-F _grocery-dude grocery-dude$' "$work/prefix/share/bash-completion/completions/grocery-dude"
check "bash loads them" bash -c "source '$work/prefix/share/bash-completion/completions/grocery-dude' && complete -p grocery-dude"
check "zsh completions are a #compdef file" grep -q '^#compdef grocery-dude' "$work/prefix/share/zsh/site-functions/_grocery-dude"
check "fish completions complete grocery-dude" grep -q "^complete -c 'grocery-dude' -n" "$work/prefix/share/fish/vendor_completions.d/grocery-dude.fish"

# Moved elsewhere, and the project folder out of reach.
mv "$work/prefix" "$work/moved"
cat >"$work/run.sh" <<EOF
set -e
cd /
"$work/moved/bin/grocery-dude" --help | grep -q '^USAGE: grocery-dude'
"$work/moved/bin/grocery-dude" --data-dir "$work/data" --device installed item add "Moved Milk" --qty 2 >/dev/null
"$work/moved/bin/grocery-dude" --data-dir "$work/data" --device installed item ls --json >"$work/items.json"
EOF
if [[ "$work/" == "$project/"* ]]; then
  hidden="the temporary folder is inside the project folder, so the project folder stays reachable"
  bash "$work/run.sh" 2>"$work/run.err" || true
elif unshare -m true 2>/dev/null; then
  hidden="the project folder ($project) covered"
  unshare -m bash -c "mount -t tmpfs none '$project' && ! test -e '$project/.build' && bash '$work/run.sh'" 2>"$work/run.err" || true
else
  hidden="unshare is not permitted here, so the project folder stays reachable"
  bash "$work/run.sh" 2>"$work/run.err" || true
fi
check "the moved binary ran --help, item add and item ls ($hidden)" test -s "$work/items.json"
[ -s "$work/run.err" ] && sed 's/^/      /' "$work/run.err" >&2
check "item ls lists the default data (138 items) and the new one" \
  bash -c "[ \$(grep -o '\"name\"' '$work/items.json' | wc -l) -eq 139 ] && grep -q '\"name\" *: *\"Moved Milk\"' '$work/items.json'"

# Uninstall removes exactly what install put there, and says when the prefix is bad.
make --no-print-directory uninstall PREFIX="$work/moved" >/dev/null
for file in "${files[@]}"; do check "uninstalled $file" test ! -e "$work/moved/$file"; done
check "a second uninstall has nothing to do" make --no-print-directory uninstall PREFIX="$work/moved"
check "an empty prefix is refused with a message" \
  bash -c "out=\$(scripts/install.sh '' '$binary' '$work/none.1' 2>&1) && exit 1; grep -q 'prefix is empty' <<<\"\$out\""
check "a missing binary is refused with a message" \
  bash -c "out=\$(scripts/install.sh '$work/x' '$work/none' '$work/none.1' 2>&1) && exit 1; grep -q 'is not a built binary' <<<\"\$out\""

if [ $failures -gt 0 ]; then echo "test-install: $failures check(s) failed" >&2; exit 1; fi
echo "test-install: all checks passed"
