# The two set-up commands of the README:
#   make run    installs what is missing, builds, opens the app (pass options with ARGS="...")
#   make test   installs what is missing, builds, runs every test
SHELL := /bin/bash
export PATH := $(PATH):/opt/swift/usr/bin
SWIFT ?= swift
ARGS ?=

.PHONY: run test build deps bench clean

deps:
	@scripts/install-deps.sh

build: deps
	$(SWIFT) build

run: build
	.build/debug/grocery-dude $(ARGS)

test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --disable-xctest

clean:
	rm -rf .build
