# workspaced — build, test and run on Debian 12 as root.
#   make run    build and run the daemon in the foreground on ./.workspaced/
#   make test   install what the tests need, build, lint and run every test
SWIFT        ?= swift
BUILD_FLAGS  ?=
APT_PACKAGES := libsystemd-dev pkg-config strace systemd curl socat util-linux

PREFIX       ?= /usr/local
DESTDIR      ?=
UNITDIR      ?= $(PREFIX)/lib/systemd/system
CATALOGDIR   ?= /usr/lib/systemd/catalog
CONFDIR      ?= /etc/workspaced
BASHCOMPDIR  ?= $(PREFIX)/share/bash-completion/completions
ZSHCOMPDIR   ?= $(PREFIX)/share/zsh/site-functions
FISHCOMPDIR  ?= $(PREFIX)/share/fish/vendor_completions.d
RUN_DIR      := $(CURDIR)/.workspaced

.PHONY: all build release deps lint test unit-tests bench run install clean

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

# The system tests run last: their closing line ("N passed, N failed") ends the output.
test: deps lint unit-tests
	$(MAKE) fuzz-api
	$(MAKE) system-test

# Boots a real systemd per scenario in throw-away namespaces and tests the installed daemon (Tests/System);
# needs root: otherwise it says why and skips, unless CI=true.
.PHONY: system-test
system-test:
	python3 Tests/System/systemtest.py

bench: deps
	$(SWIFT) build -c release --product StateStoreCrashTester
	$(SWIFT) run -c release StateStoreBenchmarks 50000 11
	$(SWIFT) run -c release StateStoreBenchmarks persistence
	$(SWIFT) build -c release --product workspaced
	$(SWIFT) run -c release ControlAPIBenchmark --rounds 7

release: deps
	$(SWIFT) build -c release --product workspaced
	$(SWIFT) build -c release --product workspacectl

# Runs the daemon in the foreground with its state and socket under ./.workspaced/ (Ctrl-C flushes and stops).
run: build
	@mkdir -p "$(RUN_DIR)"
	@echo "workspaced: state in $(RUN_DIR)/workspace.json, control socket $(RUN_DIR)/control.sock"
	@echo "workspaced: Ctrl-C (SIGINT) flushes the state and stops"
	$(SWIFT) run $(BUILD_FLAGS) workspaced run --config "$(CURDIR)/config/workspaced.json" \
	  --state-directory "$(RUN_DIR)" --control-socket "$(RUN_DIR)/control.sock"

# Installs the binaries, workspacectl's shell completions, units, catalog, default config (never over an existing
# one) and docs; reloads systemd when it runs and DESTDIR is empty.
install: release
	install -d "$(DESTDIR)$(PREFIX)/bin" "$(DESTDIR)$(UNITDIR)" "$(DESTDIR)$(CATALOGDIR)" \
	  "$(DESTDIR)$(CONFDIR)" "$(DESTDIR)$(PREFIX)/share/doc/workspaced" "$(DESTDIR)$(BASHCOMPDIR)" \
	  "$(DESTDIR)$(ZSHCOMPDIR)" "$(DESTDIR)$(FISHCOMPDIR)"
	install -m 0755 "$$($(SWIFT) build -c release --show-bin-path)/workspaced" "$(DESTDIR)$(PREFIX)/bin/workspaced"
	install -m 0755 "$$($(SWIFT) build -c release --show-bin-path)/workspacectl" "$(DESTDIR)$(PREFIX)/bin/workspacectl"
	ctl="$$($(SWIFT) build -c release --show-bin-path)/workspacectl" && \
	  "$$ctl" --generate-completion-script bash > "$(DESTDIR)$(BASHCOMPDIR)/workspacectl" && \
	  "$$ctl" --generate-completion-script zsh > "$(DESTDIR)$(ZSHCOMPDIR)/_workspacectl" && \
	  "$$ctl" --generate-completion-script fish > "$(DESTDIR)$(FISHCOMPDIR)/workspacectl.fish"
	chmod 0644 "$(DESTDIR)$(BASHCOMPDIR)/workspacectl" "$(DESTDIR)$(ZSHCOMPDIR)/_workspacectl" \
	  "$(DESTDIR)$(FISHCOMPDIR)/workspacectl.fish"
	for unit in workspaced.service workspaced.socket; do \
	  sed 's|/usr/local/|$(PREFIX)/|g' "systemd/$$unit" > "$(DESTDIR)$(UNITDIR)/$$unit" && \
	  chmod 0644 "$(DESTDIR)$(UNITDIR)/$$unit" || exit 1; done
	install -m 0644 systemd/workspaced.catalog "$(DESTDIR)$(CATALOGDIR)/workspaced.catalog"
	@if [ -e "$(DESTDIR)$(CONFDIR)/config.json" ]; then \
	  echo "keeping the existing $(DESTDIR)$(CONFDIR)/config.json"; \
	else install -m 0644 config/workspaced.json "$(DESTDIR)$(CONFDIR)/config.json"; fi
	install -m 0644 README.md docs/*.md "$(DESTDIR)$(PREFIX)/share/doc/workspaced/"
	@if [ -z "$(DESTDIR)" ] && [ -d /run/systemd/system ]; then \
	  systemctl daemon-reload && journalctl --update-catalog; fi

clean:
	rm -rf .build

# The flake budget: `swift test` RUNS times in a row with two busy loops competing for the cores; all must pass.
RUNS ?= 10
.PHONY: test-stress
test-stress: deps
	SWIFT="$(SWIFT)" Scripts/test-stress.sh $(RUNS)

# Property-based fuzzing of the control API with schemathesis against a live daemon (skips with a message when not
# root or when schemathesis cannot be installed; CI=true makes that a failure). See docs/workspacectl.md.
.PHONY: fuzz-api
fuzz-api: deps
	SWIFT="$(SWIFT)" Tests/fuzz-api.sh
