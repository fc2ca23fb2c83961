# workspaced — build, test and run on Debian 12 as root.
#   make run    build and run the daemon in the foreground on ./.workspaced/
#   make test   install what the tests need, build, lint and run every test
SWIFT        ?= swift
BUILD_FLAGS  ?=
APT_PACKAGES := libsystemd-dev pkg-config strace systemd

.PHONY: all build deps lint test unit-tests bench run clean

all: build

# Installs the system packages the build and the tests need when they are missing (root on Debian only).
deps:
	@missing=""; for p in $(APT_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'install ok installed' || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    echo "installing:$$missing"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; \
	  else \
	    echo "missing packages:$$missing (install them as root: apt-get install$$missing)" >&2; exit 1; \
	  fi; \
	fi

build: deps
	$(SWIFT) build $(BUILD_FLAGS)

lint:
	$(SWIFT) format lint --strict --recursive Package.swift Sources Tests

unit-tests: deps
	$(SWIFT) build --build-tests $(BUILD_FLAGS)
	$(SWIFT) test --skip-build $(BUILD_FLAGS)

test: deps lint unit-tests

bench: deps
	$(SWIFT) run -c release StateStoreBenchmarks

run: build
	@echo "the workspaced daemon is not built yet (see issue 5); nothing to run" >&2; exit 1

clean:
	rm -rf .build
