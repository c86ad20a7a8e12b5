#!/usr/bin/env bash
# Installs a built grocery-dude under ROOT (what `make install` calls), or removes it:
#
#   scripts/install.sh ROOT BINARY MANPAGE    install
#   scripts/install.sh --uninstall ROOT       remove what install put there
#
# ROOT is $(DESTDIR)$(PREFIX). What is installed:
#   ROOT/bin/grocery-dude                                 the binary (its default data is inside it),
#                                                         stripped of debug information with $STRIP
#                                                         (default `strip --strip-debug`; STRIP=: keeps it)
#   ROOT/share/man/man1/grocery-dude.1                    the manual (`make manual`)
#   ROOT/share/bash-completion/completions/grocery-dude   completions, written by the installed binary
#   ROOT/share/zsh/site-functions/_grocery-dude
#   ROOT/share/fish/vendor_completions.d/grocery-dude.fish
set -euo pipefail

files=(bin/grocery-dude share/man/man1/grocery-dude.1 share/bash-completion/completions/grocery-dude
       share/zsh/site-functions/_grocery-dude share/fish/vendor_completions.d/grocery-dude.fish)

fail() { echo "install.sh: $*" >&2; exit 1; }

if [ "${1:-}" = "--uninstall" ]; then
  [ $# -eq 2 ] && [ -n "$2" ] || fail "usage: $0 --uninstall ROOT"
  root=${2%/}
  for file in "${files[@]}"; do
    if [ -e "$root/$file" ] || [ -L "$root/$file" ]; then rm -f "$root/$file" && echo "removed $root/$file"; fi
  done
  exit 0
fi

[ $# -eq 3 ] || fail "usage: $0 ROOT BINARY MANPAGE  |  $0 --uninstall ROOT"
root=${1%/}
binary=$2
manual=$3
[ -n "$root" ] || fail "the install prefix is empty (PREFIX=... or DESTDIR=...)"
[ -x "$binary" ] && [ -f "$binary" ] || fail "$binary is not a built binary (make install builds it)"
[ -s "$manual" ] || fail "the manual $manual is missing (make install generates it)"

install -d "$root/bin" "$root/share/man/man1" "$root/share/bash-completion/completions" \
  "$root/share/zsh/site-functions" "$root/share/fish/vendor_completions.d"
install -m 755 "$binary" "$root/bin/grocery-dude.tmp"
# The debug information is most of a Swift binary; the symbols stay, so a crash trace still
# names its functions.
${STRIP:-strip --strip-debug} "$root/bin/grocery-dude.tmp" || fail "could not strip $root/bin/grocery-dude (STRIP=${STRIP:-strip --strip-debug})"
mv "$root/bin/grocery-dude.tmp" "$root/bin/grocery-dude"
install -m 644 "$manual" "$root/share/man/man1/grocery-dude.1"
# Written by the installed copy: the completions are its own, and it runs from where it is.
for shell in bash zsh fish; do
  case $shell in
    bash) target=share/bash-completion/completions/grocery-dude ;;
    zsh) target=share/zsh/site-functions/_grocery-dude ;;
    fish) target=share/fish/vendor_completions.d/grocery-dude.fish ;;
  esac
  "$root/bin/grocery-dude" --generate-completion-script "$shell" >"$root/$target.tmp"
  [ -s "$root/$target.tmp" ] || fail "grocery-dude wrote no $shell completions"
  chmod 644 "$root/$target.tmp"
  mv "$root/$target.tmp" "$root/$target"
done
for file in "${files[@]}"; do echo "installed $root/$file"; done
