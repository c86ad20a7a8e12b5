# The two set-up commands of the README:
#   make run    installs what is missing, builds, opens the app (pass options with ARGS="...")
#   make test   installs what is missing, builds, runs every test
#   make install [PREFIX=/usr/local] [DESTDIR=]   a release build, its manual and completions
#   make uninstall [PREFIX=/usr/local] [DESTDIR=]
SHELL := /bin/bash
export PATH := $(PATH):/opt/swift/usr/bin
SWIFT ?= swift
ARGS ?=
PREFIX ?= /usr/local
DESTDIR ?=
# What `make install` builds: a release binary with the Swift runtime inside it (it runs where
# no Swift is installed), in a build folder of its own (as scripts/bench-cli.sh builds it).
# `scripts/test-install.sh` installs the debug build instead: INSTALL_BINARY=path skips the build.
INSTALL_BUILD ?= $(SWIFT) build -c release --product grocery-dude --static-swift-stdlib --scratch-path .build-release-static
INSTALL_BINARY ?=
# The manual: swift-argument-parser's generate-manual plugin, run on the debug build.
MANUAL := .build/plugins/GenerateManual/outputs/GroceryDude/grocery-dude.1

.PHONY: run test build deps bench clean install uninstall manual

deps:
	@scripts/install-deps.sh

build: deps
	$(SWIFT) build

run: build
	.build/debug/grocery-dude $(ARGS)

test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --disable-xctest
	scripts/test-install.sh

# The man page, generated from the argument parser's help by its generate-manual plugin.
manual:
	$(SWIFT) package plugin generate-manual --configuration debug --date "$$(git log -1 --format=%cs 2>/dev/null || date +%F)" >/dev/null
	@test -s $(MANUAL) || { echo "generate-manual wrote no $(MANUAL)" >&2; exit 1; }
	@# The version, from Resources/VERSION, in the page's footer (the plugin leaves .Os empty).
	@sed -i "s/^\.Os$$/.Os grocery-dude $$(tr -d '[:space:]' < Resources/VERSION)/" $(MANUAL)

install: deps manual
	@if [ -z "$(INSTALL_BINARY)" ]; then $(INSTALL_BUILD); fi
	scripts/install.sh "$(DESTDIR)$(PREFIX)" \
	  "$(if $(INSTALL_BINARY),$(INSTALL_BINARY),$$($(INSTALL_BUILD) --show-bin-path)/grocery-dude)" $(MANUAL)

uninstall:
	scripts/install.sh --uninstall "$(DESTDIR)$(PREFIX)"

clean:
	rm -rf .build .build-release-static
