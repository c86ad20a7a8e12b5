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

# Stripped: no debug information left (it was most of the size), and it still runs.
installed=$work/prefix/bin/grocery-dude
check "the installed binary carries no debug information (readelf -S: symbols, no .debug_info)" \
  bash -c "readelf -S '$installed' | grep -q ' \.symtab' && ! readelf -S '$installed' | grep -q '\.debug_info'"
check "the stripped binary runs (item add and item ls in a new data folder)" \
  bash -c "'$installed' --data-dir '$work/stripped' --device d item add Stripped >/dev/null &&
           '$installed' --data-dir '$work/stripped' --device d item ls | grep -q Stripped"

# The manual: the argument parser's sections and the app's own, rendered by man.
for section in NAME SYNOPSIS DESCRIPTION 'SCREENS AND KEYS' ENVIRONMENT FILES 'EXIT STATUS' EXAMPLES; do
  check "the manual has a section $section" grep -q "^\.Sh \"\?$section\"\?$" "$man"
done
if command -v man >/dev/null; then
  MANWIDTH=100 man -l "$man" >"$work/man.txt" 2>/dev/null || true
  check "the manual's header says General Commands Manual, not BSD" \
    bash -c "head -1 '$work/man.txt' | grep -q 'General Commands Manual' && ! head -1 '$work/man.txt' | grep -q BSD"
  check "the manual's DESCRIPTION says what the app is" \
    bash -c "sed -n '/^DESCRIPTION/,/^[A-Z]/p' '$work/man.txt' | tr -s ' \n' ' ' | grep -q 'A grocery list for the terminal'"
  # The keys as the in-app help has them (HelpView): keys of the first and of the last section.
  sed -n '/^SCREENS AND KEYS/,/^ENVIRONMENT/p' "$work/man.txt" >"$work/keys.txt"
  check "man renders the keys: Everywhere, 1-6 Tab S-Tab: switch screens" \
    bash -c "grep -q 'Everywhere' '$work/keys.txt' && grep -q '1-6 Tab S-Tab *switch screens' '$work/keys.txt'"
  check "man renders the keys: Typing, Ctrl-K Ctrl-W Ctrl-U: cut to end, word, line" \
    bash -c "grep -q 'Typing' '$work/keys.txt' && grep -q 'Ctrl-K Ctrl-W Ctrl-U' '$work/keys.txt' &&
             grep -q 'cut to end, word, line' '$work/keys.txt'"
  # Every GROCERY_DUDE_ variable the program reads (not the test support's) is in ENVIRONMENT.
  sed -n '/^ENVIRONMENT/,/^FILES/p' "$work/man.txt" >"$work/environment.txt"
  for variable in $(grep -rhoE 'GROCERY_DUDE_[A-Z_]+' "$project/Sources" --include='*.swift' \
    --exclude-dir=TestSupport --exclude-dir=GroceryDudeBench | sort -u); do
    check "the manual's ENVIRONMENT has $variable" grep -q "$variable" "$work/environment.txt"
  done
  check "the manual's FILES has the sandbox, the registry of lists, the log and the cloud folder's logs" \
    bash -c "sed -n '/^FILES/,/^EXIT STATUS/p' '$work/man.txt' > '$work/files.txt' &&
             grep -q 'devices/<device>/' '$work/files.txt' && grep -q 'lists.json' '$work/files.txt' &&
             grep -q 'grocery-dude.log' '$work/files.txt' && grep -q 'gdlog' '$work/files.txt'"
  check "the manual's EXAMPLES has two devices on one folder" \
    bash -c "sed -n '/^EXAMPLES/,\$p' '$work/man.txt' | grep -q 'grocery-dude --device phone cloud enable'"
fi
check "the manual does not list the hidden manual-sections command" bash -c "! grep -q 'manual-sections' '$man'"

# Completions. bash: the installed script sourced and its function called as bash calls it on
# Tab (COMP_WORDS, COMP_CWORD, COMP_LINE, COMP_POINT), in a folder with sub-folders named like
# subcommands, the program found on PATH as the script runs it. compopt, which works only
# while bash completes, is recorded instead: `compopt -o filenames` is what makes readline
# treat the words as file names (a folder's name gets its /).
bash_completions=$work/prefix/share/bash-completion/completions/grocery-dude
mkdir -p "$work/here/cloud" "$work/here/lists" "$work/here/folder two" "$work/data"
touch "$work/here/groceries.json" "$work/here/notes.txt"
"$installed" --data-dir "$work/data" --device t lists new "Week end" >/dev/null
printf '%s\n' \
  '# complete.sh WORD... : what bash offers for the last WORD, a line each, then what compopt was given' \
  "cd '$work/here'" \
  "PATH='$work/prefix/bin':\$PATH" \
  "source '$bash_completions'" \
  "compopt() { echo \"compopt: \$*\" >>'$work/compopt.log'; }" \
  "rm -f '$work/compopt.log'" \
  'COMP_WORDS=("$@")' \
  'COMP_CWORD=$(($# - 1))' \
  'COMP_LINE="$*"' \
  'COMP_POINT=${#COMP_LINE}' \
  'COMPREPLY=()' \
  '_grocery-dude grocery-dude "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"' \
  '[ ${#COMPREPLY[@]} -eq 0 ] || printf "%s\n" "${COMPREPLY[@]}"' \
  "cat '$work/compopt.log' 2>/dev/null || true" >"$work/complete.sh"
offers() { # offers EXPECTED WORD... : what bash offers for the last WORD is EXPECTED (lines, any order)
  local expected=$1
  shift
  [ "$(bash "$work/complete.sh" grocery-dude "$@" 2>/dev/null | sort)" = "$(printf '%s\n' "$expected" | sort)" ]
}
check "bash: completion is registered without -o filenames" \
  bash -c "source '$bash_completions' && complete -p grocery-dude | grep -v -q -- '-o filenames'"
check "bash: cl completes the subcommand cloud, a word, beside a folder cloud/" offers 'cloud' cl
check "bash: li completes the subcommand lists, a word, beside a folder lists/" offers 'lists' li
check "bash: --log-level offers the levels" \
  offers $'trace\ndebug\ninfo\nnotice\nwarning\nerror\ncritical' --log-level ''
check "bash: --data-dir offers folders, as file names" \
  offers $'cloud\nfolder two\nlists\ncompopt: -o filenames' --data-dir ''
check "bash: --list offers the lists of --data-dir and --device on the line (quoted as file names)" \
  offers $'Groceries\nWeek end\ncompopt: -o filenames' --data-dir "$work/data" --device t --list ''
check "bash: --list offers the lists of GROCERY_DUDE_DATA_DIR and GROCERY_DUDE_DEVICE" \
  env GROCERY_DUDE_DATA_DIR="$work/data" GROCERY_DUDE_DEVICE=t bash -c \
  "[ \"\$(bash '$work/complete.sh' grocery-dude --list W 2>/dev/null)\" = \$'Week end\ncompopt: -o filenames' ]"
check "bash: lists rm offers the lists" \
  offers $'Groceries\nWeek end\ncompopt: -o filenames' --data-dir "$work/data" --device t lists rm ''
check "bash: --device offers the devices of --data-dir" offers 't' --data-dir "$work/data" --device ''
check "bash: import offers the files it reads (.json, not .txt) and folders" \
  offers $'cloud\nfolder two\ngroceries.json\nlists\ncompopt: -o filenames' import ''
check "bash: export --format offers json, csv and csv-aisles" offers $'json\ncsv\ncsv-aisles' export --format ''
# The lists come from the device's own files: with cloud sync on and the cloud folder named,
# completing --list opens nothing in the cloud folder (a hung share would hang Tab).
if command -v strace >/dev/null && strace -f -o /dev/null true 2>/dev/null; then
  mkdir -p "$work/cloud"
  "$installed" --data-dir "$work/data" --device c --cloud "$work/cloud" cloud enable --no-merge >/dev/null 2>&1 || true
  "$installed" --data-dir "$work/data" --device c --cloud "$work/cloud" lists new Trip >/dev/null 2>&1 || true
  check "bash: --list offers a list of the account, reading lists.json and nothing in the cloud folder (strace)" \
    bash -c "strace -f -e trace=%file -o '$work/strace.log' bash '$work/complete.sh' grocery-dude \
               --data-dir '$work/data' --device c --cloud '$work/cloud' --list '' >'$work/lists.txt' 2>/dev/null &&
             grep -qx Trip '$work/lists.txt' && grep -q 'lists.json' '$work/strace.log' &&
             ! grep -v execve '$work/strace.log' | grep -q '$work/cloud'"
fi
# zsh and fish (scripts/install-deps.sh installs both): the scripts parse, and fish completes
# as bash does.
if command -v zsh >/dev/null; then
  check "zsh: the completions parse (zsh -n)" zsh -n "$work/prefix/share/zsh/site-functions/_grocery-dude"
fi
if command -v fish >/dev/null; then
  fish_completions=$work/prefix/share/fish/vendor_completions.d/grocery-dude.fish
  check "fish: the completions parse (fish -n)" fish -n "$fish_completions"
  fish_offers() { # fish_offers EXPECTED LINE : what fish offers for LINE is EXPECTED (lines, any order)
    [ "$(cd "$work/here" && PATH="$work/prefix/bin:$PATH" fish --no-config -c \
      "source '$fish_completions'; complete -C '$2'" | cut -f1 | sort)" = "$(printf '%s\n' "$1" | sort)" ]
  }
  check "fish: cl completes cloud" fish_offers 'cloud' 'grocery-dude cl'
  check "fish: --log-level offers the levels" \
    fish_offers $'trace\ndebug\ninfo\nnotice\nwarning\nerror\ncritical' 'grocery-dude --log-level '
fi
# Typed in a real shell, in tmux: what readline and the shells do with the words (a folder's
# name gets a "/" only where file names are completed). fish's custom completions run
# `commandline`, which fish 3 refuses outside an interactive session: they are checked here.
typed() { # typed SHELL-COMMAND WORDS WANT : the shell shows WANT (grep -E) once WORDS and Tab are typed
  local session=grocery-dude-install-$$ shown=1
  tmux new-session -d -s "$session" -x 200 -y 12 -c "$work/here" "env PATH='$work/prefix/bin':\$PATH $1" || return 1
  # Typed once the shell shows its prompt (its start-up files read), not ahead of it.
  for _ in $(seq 100); do # up to 10 s
    if tmux capture-pane -p -t "$session" | grep -q .; then break; fi
    sleep 0.1
  done
  tmux send-keys -t "$session" "$2" Tab
  for _ in $(seq 100); do # up to 10 s
    if tmux capture-pane -p -t "$session" | grep -qE "$3"; then shown=0; break; fi
    sleep 0.1
  done
  tmux kill-session -t "$session" 2>/dev/null || true
  return $shown
}
if command -v tmux >/dev/null; then
  check "bash, typed: grocery-dude cl<Tab> beside a folder cloud/ gives 'grocery-dude cloud ', not cloud/" \
    typed "bash --noprofile --rcfile '$bash_completions'" "grocery-dude cl" 'grocery-dude cloud$'
  check "bash, typed: --data-dir fo<Tab> gives the folder, as a file name: 'folder\\ two/'" \
    typed "bash --noprofile --rcfile '$bash_completions'" "grocery-dude --data-dir fo" 'folder\\ two/$'
  check "bash, typed: --list W<Tab> gives the list, quoted: 'Week\\ end'" \
    typed "bash --noprofile --rcfile '$bash_completions'" "grocery-dude --data-dir '$work/data' --device t --list W" \
    'Week\\ end$'
  if command -v zsh >/dev/null; then
    mkdir -p "$work/zsh"
    printf '%s\n' "fpath=('$work/prefix/share/zsh/site-functions' \$fpath)" 'autoload -U compinit' 'compinit -u' \
      >"$work/zsh/.zshrc"
    check "zsh, typed: grocery-dude cl<Tab> beside a folder cloud/ gives 'grocery-dude cloud '" \
      typed "env ZDOTDIR='$work/zsh' zsh" "grocery-dude cl" 'grocery-dude cloud$'
    check "zsh, typed: --list<Tab> offers the lists of --data-dir and --device" \
      typed "env ZDOTDIR='$work/zsh' zsh" "grocery-dude --data-dir '$work/data' --device t --list " \
      '^Groceries +Week end$'
  fi
  if command -v fish >/dev/null; then
    check "fish, typed: --list<Tab> offers the lists of --data-dir and --device" \
      typed "fish --no-config -C \"source '$fish_completions'\"" "grocery-dude --data-dir '$work/data' --device t --list " \
      '^Week end '
  fi
fi

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

# The release link (scripts/release-link-flags.sh, what `make install` builds with), tried on a
# program of its own that calls SQLite and ncursesw (a full release build takes minutes): it
# links, it runs, and the loader has only the C library's to map.
link=$work/link
mkdir -p "$link/Sources/CLibraries" "$link/Sources/LinkCheck"
cat >"$link/Package.swift" <<'SWIFT'
// swift-tools-version: 6.1
import PackageDescription
let package = Package(
    name: "LinkCheck",
    targets: [
        .systemLibrary(name: "CLibraries", path: "Sources/CLibraries"),
        .executableTarget(name: "LinkCheck", dependencies: ["CLibraries"]),
    ]
)
SWIFT
printf '%s\n' 'module CLibraries [system] {' '    header "shim.h"' '    link "sqlite3"' '    link "ncursesw"' '    export *' '}' \
  >"$link/Sources/CLibraries/module.modulemap"
printf '%s\n' '#include <sqlite3.h>' '#include <ncurses.h>' >"$link/Sources/CLibraries/shim.h"
printf '%s\n' 'import CLibraries' 'print(String(cString: sqlite3_libversion()), String(cString: curses_version()))' \
  >"$link/Sources/LinkCheck/main.swift"
link_flags=$(scripts/release-link-flags.sh "$link/.build" 2>"$work/link-flags.err") || true
check "release-link-flags.sh names lld and the archives' folder, and has nothing to say here" \
  bash -c "grep -q -- '-use-ld=lld' <<<'$link_flags' && grep -q -- '-L$link/.build/static-archives' <<<'$link_flags' &&
           ! test -s '$work/link-flags.err'"
# shellcheck disable=SC2086 # the flags are words
if (cd "$link" && swift build -c release --static-swift-stdlib $link_flags >"$work/link-build.log" 2>&1); then
  linked=$link/.build/release/LinkCheck
  check "a program linked so runs, with SQLite and ncursesw inside it" bash -c "'$linked' | grep -q '^3\.[0-9.]* ncurses '"
  check "it needs no libstdc++, SQLite, ncursesw or tinfo (readelf -d)" \
    bash -c "! readelf -d '$linked' | grep -E 'NEEDED.*(libstdc|libsqlite3|libncurses|libtinfo)'"
  check "its relative relocations are packed (DT_RELR)" bash -c "readelf -d '$linked' | grep -q '(RELR)'"
else
  cat "$work/link-build.log" >&2
  check "a program builds with release-link-flags.sh's flags" false
fi

if [ $failures -gt 0 ]; then echo "test-install: $failures check(s) failed" >&2; exit 1; fi
echo "test-install: all checks passed"
