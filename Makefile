# The two set-up commands of the README:
#   make run    installs what is missing, builds, opens the app (pass options with ARGS="...")
#   make test   installs what is missing, builds (refusing warnings from our files and unformatted code), runs every test
#   make install [PREFIX=/usr/local] [DESTDIR=]   a release build, its manual and completions
#   make uninstall [PREFIX=/usr/local] [DESTDIR=]
SHELL := /bin/bash
export PATH := $(PATH):/opt/swift/usr/bin
SWIFT ?= swift
ARGS ?=
PREFIX ?= /usr/local
DESTDIR ?=
# What `make install` builds: a release binary with the Swift runtime inside it (it runs where
# no Swift is installed), in a build folder of its own (as scripts/bench-cli.sh builds it),
# linked so that it starts with less work for the dynamic loader (scripts/release-link-flags.sh).
# `scripts/test-install.sh` installs the debug build instead: INSTALL_BINARY=path skips the build.
INSTALL_BUILD ?= $(SWIFT) build -c release --product grocery-dude --static-swift-stdlib --scratch-path .build-release-static \
  $$(scripts/release-link-flags.sh .build-release-static)
INSTALL_BINARY ?=
# The installed binary carries no debug information (its symbols stay, for crash traces):
# the release build's 107 MB become 85 MB; most of the rest is code and Foundation's ICU data.
# A packager whose tooling keeps the debug information apart (a -dbgsym
# package) passes STRIP=: and strips it itself.
STRIP ?= strip --strip-debug
# The manual: swift-argument-parser's generate-manual plugin, run on the debug build, with the
# sections the argument parser cannot write spliced in (`grocery-dude manual-sections`).
MANUAL_GENERATED := .build/plugins/GenerateManual/outputs/GroceryDude/grocery-dude.1
MANUAL := .build/grocery-dude.1

.PHONY: run test build deps bench clean install uninstall manual

deps:
	@scripts/install-deps.sh

build: deps
	$(SWIFT) build

run: build
	.build/debug/grocery-dude $(ARGS)

test: deps
	scripts/build-checked.sh "$(SWIFT)"
	$(SWIFT) test --disable-xctest
	scripts/test-install.sh

# The man page: the argument parser's help (SYNOPSIS, options, subcommands) by its
# generate-manual plugin, then the app's description, keys, environment, files and examples.
manual:
	$(SWIFT) package plugin generate-manual --configuration debug --date "$$(git log -1 --format=%cs 2>/dev/null || date +%F)" >/dev/null
	@test -s $(MANUAL_GENERATED) || { echo "generate-manual wrote no $(MANUAL_GENERATED)" >&2; exit 1; }
	@# The footer says the version, from Resources/VERSION (the plugin leaves .Os empty). The
	@# header says "General Commands Manual": groff 1.22's mdoc puts "BSD" before it unless told.
	@sed -e "s/^\.Os$$/.Os grocery-dude $$(tr -d '[:space:]' < Resources/VERSION)/" \
	  -e '/^\.Dt /i .ds doc-volume-operating-system' $(MANUAL_GENERATED) >$(MANUAL).generated
	"$$($(SWIFT) build --show-bin-path)/grocery-dude" manual-sections >$(MANUAL).sections
	awk -v hidden=manual-sections -f scripts/splice-manual.awk $(MANUAL).sections $(MANUAL).generated >$(MANUAL).tmp
	@mv $(MANUAL).tmp $(MANUAL)

install: deps manual
	@if [ -z "$(INSTALL_BINARY)" ]; then $(INSTALL_BUILD); fi
	STRIP="$(STRIP)" scripts/install.sh "$(DESTDIR)$(PREFIX)" \
	  "$(if $(INSTALL_BINARY),$(INSTALL_BINARY),$$($(INSTALL_BUILD) --show-bin-path)/grocery-dude)" $(MANUAL)

uninstall:
	scripts/install.sh --uninstall "$(DESTDIR)$(PREFIX)"

clean:
	rm -rf .build .build-release-static
