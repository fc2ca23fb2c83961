# workspaced — build, test and run on Debian 12 as root.
#   make run        build and run the daemon in the foreground on ./.workspaced/
#   make test       install what the tests need, build, lint and run every test
#   make install    install the release build (PREFIX=/usr/local); make uninstall removes it again
#   make deb        build .build/deb/workspaced_<version>_<arch>.deb
SWIFT        ?= swift
# The compiler driver beside it (make bench's start floor, a single file).
SWIFTC       ?= $(SWIFT)c
BUILD_FLAGS  ?=
# Every `swift build` goes through Scripts/swift-build.sh, which gives it the same environment on every call: make
# puts its command line's variables (DEB_VERSION, DESTDIR, …) in each recipe's environment, and a new environment
# made SwiftPM 6.3 plan the build again and, drawing its traits' -D flags in a new order, compile every module of
# the package again (the script says how; `make deb` compiled the release twice, about 100 s each here).
SWIFT_BUILD   = SWIFT="$(SWIFT)" Scripts/swift-build.sh
# The release binaries carry Swift's runtime (--static-swift-stdlib) and the C++ runtime it is written against
# (libstdc++ and libgcc's unwinder): installed or packaged they need only Debian's libc6, zlib1g and libsystemd0,
# not the toolchain under /opt/swift. The two C++ libraries linked in are two shared libraries fewer for the
# loader to map, relocate and initialise at every exec: exec → READY=1 on an empty workspace, 40 starts taking
# turns with the build linking them dynamically, twice: median 12.29 → 10.94 ms and 11.81 → 10.69 ms. `-lstdc++`
# (asked for by the static runtime's link arguments) finds libstdc++.a in STATIC_CXX_DIR, a directory that holds
# only that archive and is searched before the compiler's own; `-static-libgcc` links libgcc_eh.a in place of
# libgcc_s.so.
# They reach a concrete type's metadata through its accessor function instead of demangling the type's name at run
# time: a name's first use made the runtime check each generic requirement by scanning the binary's 10,000 protocol
# conformance records, and a start met hundreds of such names. Exec → READY=1 on an empty workspace, 60 starts
# interleaved with the build without the flag: median 11.65 → 10.68 ms; the binary is 0.4 MB smaller.
# They export no symbols of their own: the static runtime's link arguments (static-stdlib-args.lnk) ask for
# --export-dynamic, which put the binary's 38,000 Swift symbols in its dynamic symbol table, and the runtime's
# backtracer set-up calls dladdr() at load, a linear scan of that table: 0.4 ms of every start. Nothing looks the
# symbols up (the unit disables the backtracer, which cannot run from a static binary anyway: swift-backtrace
# is not installed beside it).
# They carry no RUNPATH: SwiftPM adds $ORIGIN for the package's own shared libraries, of which there are none here,
# and the loader then looked for libsystemd.so.0 in the binary's directory and ten of its subdirectories, and for
# each other library in the directory (24 failed calls under strace) before the system's paths, at every exec; it
# would also load a library that anyone put beside an installed binary. No start time measurably changed (300
# restarts of each build taking turns: 0.989 and 0.972 of the build with it).
# They are linked by the toolchain's lld, not GNU gold, with their relative relocations packed (DT_RELR, glibc 2.36
# and later; the binary then asks for GLIBC_ABI_DT_RELR, which the package's libc6 dependency follows): the
# 90,600 addresses the loader rebases at each exec are a 18 KB bitmap in place of a 2.1 MB table of 24-byte
# entries that it read whole. 200 restarts of each link of the same objects taking turns: 0.977 and 0.978 of the
# gold link (7.23 → 7.03 ms), 5% less CPU a start; the link itself takes 1 s instead of 4.
RELEASE_FLAGS ?= -c release --static-swift-stdlib --disable-local-rpath \
  -Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors \
  -Xswiftc -use-ld=lld -Xlinker -z -Xlinker pack-relative-relocs \
  -Xlinker --no-export-dynamic -Xlinker -L$(STATIC_CXX_DIR) \
  -Xswiftc -Xclang-linker -Xswiftc -static-libgcc
STATIC_CXX_DIR := $(CURDIR)/.build/static-libstdc++
# The toolchain's clang knows where GCC's libstdc++.a is (libstdc++-12-dev, which the toolchain needs anyway).
SWIFT_CLANG   = $(dir $(shell command -v $(SWIFT)))clang
# Everything `make test` runs besides swift itself: the build (libsystemd-dev, pkg-config, binutils, git for the
# package mirror), the tests (strace, curl, socat, util-linux, mount, systemd), the API fuzzing (python3 with
# venv), the system tests (python3, man-db and groff-base for the man page scenario, dpkg-dev for `make deb`),
# the lint's check of the generated API routes (python3-yaml).
APT_PACKAGES := libsystemd-dev pkg-config binutils git strace systemd curl socat util-linux mount python3 python3-venv \
                python3-yaml man-db groff-base dpkg-dev prometheus

PREFIX       ?= /usr/local
DESTDIR      ?=
UNITDIR      ?= $(PREFIX)/lib/systemd/system
CATALOGDIR   ?= /usr/lib/systemd/catalog
CONFDIR      ?= /etc/workspaced
BASHCOMPDIR  ?= $(PREFIX)/share/bash-completion/completions
ZSHCOMPDIR   ?= $(PREFIX)/share/zsh/site-functions
FISHCOMPDIR  ?= $(PREFIX)/share/fish/vendor_completions.d
MANDIR       ?= $(PREFIX)/share/man
RUN_DIR      := $(CURDIR)/.workspaced
# What `make install` puts in place besides the docs directory and the config (see uninstall).
INSTALLED     = $(PREFIX)/bin/workspaced $(PREFIX)/bin/workspacectl $(UNITDIR)/workspaced.service \
                $(UNITDIR)/workspaced.socket $(CATALOGDIR)/workspaced.catalog $(BASHCOMPDIR)/workspacectl \
                $(ZSHCOMPDIR)/_workspacectl $(FISHCOMPDIR)/workspacectl.fish $(MANDIR)/man8/workspaced.8 \
                $(MANDIR)/man1/workspacectl.1 $(MANDIR)/man5/workspaced.json.5

# The Debian package: its version is the release's (Sources/WorkspaceAPI/Release.swift) unless given
# (DEB_VERSION=0.2.0+2 for a second build of it); dpkg-deb compresses with DEB_COMPRESSION (xz, gzip, zstd, none).
RELEASE_VERSION := $(shell sed -n 's/^ *public static let version = "\([^"]*\)".*/\1/p' \
                     Sources/WorkspaceAPI/Release.swift)
DEB_VERSION     ?= $(RELEASE_VERSION)
DEB_ARCH        ?= $(shell dpkg --print-architecture 2>/dev/null || echo amd64)
DEB_DIR         ?= $(CURDIR)/.build/deb
DEB_COMPRESSION ?= xz
DEB_FILE         = $(DEB_DIR)/workspaced_$(DEB_VERSION)_$(DEB_ARCH).deb

.PHONY: all build release deps lint check-readme test unit-tests bench static-cxx run install uninstall deb clean docs

all: build

# Installs the system packages the build and the tests need when they are missing (root on Debian only); names
# them otherwise. The Swift toolchain itself does not come from apt: it is only checked for.
deps:
	@command -v $(SWIFT) >/dev/null || \
	  { echo "missing: $(SWIFT) (the Swift 6 toolchain from swift.org, e.g. in /opt/swift/usr/bin)" >&2; exit 1; }
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
	$(SWIFT_BUILD) $(BUILD_FLAGS)

lint:
	$(SWIFT) format lint --strict --recursive Package.swift Sources Tests Benchmarks/Package.swift Benchmarks/Sources \
	  Benchmarks/ReaderThroughput Benchmarks/StartFloor
	python3 Scripts/api-routes.py --check
	python3 Scripts/bench-table.py --check docs/benchmarks.md docs/benchmarks/results.json
	python3 Scripts/check-test-targets.py $(IN_PROCESS_TARGETS) $(CLIENT_TARGETS) $(PROCESS_TARGETS) $(RELIABILITY_TARGETS)

# Every `make X` the README names must be a rule here (and .PHONY when a file of that name exists, as docs/ does):
# a promised target that does not exist fails `make test` instead of a reader.
check-readme:
	python3 Scripts/check-readme-targets.py README.md

# The DocC documentation of StateStore, StateStoreTesting, StateModel and Systemd with swift-docc-plugin into
# .build-docs/docs/ (its own scratch path); fails on any DocC warning (Scripts/build-docs.sh). Phony: the docs/
# directory would satisfy it otherwise. `make test` builds them in the test build's own scratch path, .build, whose
# modules are already built (about a minute and a half on 2 cores, against several for a scratch path of their own).
DOCS_SCRATCH_PATH ?= .build-docs
docs: deps
	SWIFT="$(SWIFT)" DOCS_SCRATCH_PATH="$(DOCS_SCRATCH_PATH)" Scripts/build-docs.sh

# The unit tests run beside a real S3 protocol server (moto's, from PyPI, in .build/s3-venv) that
# Scripts/with-s3-server.sh starts on loopback for the replication tests, one group of test targets after another,
# each chosen by target name. The in-process targets first. Then the client targets: each test runs workspacectl
# against a stub daemon whose handlers run on the cooperative pool, and beside the in-process targets' 1,000 tests,
# queued on that pool at once, a stub's answer waited past workspacectl's 10 s timeout (fresh-clone CI on 7ba873a).
# Then the process targets, which run the daemon and workspacectl binaries: a daemon's start takes seconds of
# CPU, and beside the in-process servers on the cooperative pool's two threads both missed their waits now and
# then. Last the reliability target (fault matrix, full disk, SIGKILL and SIGTERM torture, power loss, the corrupt
# corpus), which appends its rows to RELIABILITY_ROWS: twenty daemons, sixteen clients and the corpus's CPU-bound
# loads saturate two cores and would stretch the latencies other tests measure (shutdown bounds of UnixHTTP took
# 6 s against 5 when they ran together).
RELIABILITY_ROWS    := $(CURDIR)/.build/reliability-summary.tsv
IN_PROCESS_TARGETS  := StateJSONTests StateModelMacrosTests StateStoreTests StateStoreS3Tests SystemdTests UnixHTTPTests \
                       WorkspaceModelTests WorkspaceSecretsTests WorkspaceFuzzingTests WorkspaceDaemonTests
CLIENT_TARGETS      := WorkspaceClientTests
PROCESS_TARGETS     := ControlAPITests WorkspaceDaemonProcessTests
RELIABILITY_TARGETS := ReliabilityTests
# `swift test --filter` of test targets: the regular expression `^(A|B|…)\.` on the tests' `Target.Suite/test` names.
empty :=
space := $(empty) $(empty)
targets = '^($(subst $(space),|,$(strip $(1))))\.'

unit-tests: deps
	$(SWIFT_BUILD) --build-tests $(BUILD_FLAGS)
	@mkdir -p .build && rm -f "$(RELIABILITY_ROWS)"
	Scripts/with-s3-server.sh $(SWIFT) test --skip-build $(BUILD_FLAGS) --filter $(call targets,$(IN_PROCESS_TARGETS))
	$(SWIFT) test --skip-build $(BUILD_FLAGS) --filter $(call targets,$(CLIENT_TARGETS))
	Scripts/with-s3-server.sh $(SWIFT) test --skip-build $(BUILD_FLAGS) --filter $(call targets,$(PROCESS_TARGETS))
	WSD_RELIABILITY_SUMMARY="$(RELIABILITY_ROWS)" $(SWIFT) test --skip-build $(BUILD_FLAGS) \
	  --filter $(call targets,$(RELIABILITY_TARGETS))

# The DocC documentation follows the unit tests (a DocC warning fails it); the system tests run next to last, then
# the libFuzzer targets; the reliability summary table (test, rounds, failures, duration) ends the output.
test: deps lint check-readme unit-tests
	$(MAKE) docs DOCS_SCRATCH_PATH=.build
	$(MAKE) newcomer
	$(MAKE) fuzz-api
	$(MAKE) system-test
	$(MAKE) fuzz
	@python3 Scripts/reliability-summary.py "$(RELIABILITY_ROWS)"

# The newcomer's package (Tests/Newcomer: the settings service of the StateStore getting-started guide, built from
# the guides only) as a package of its own with `traits: []`: builds it, runs its tests and the service, and fails
# when it resolves more than swift-syntax or compiles a module its three products do not need
# (Scripts/check-newcomer.sh). About three minutes, most of them swift-syntax for the macro.
.PHONY: newcomer
newcomer: deps
	SWIFT="$(SWIFT)" Scripts/check-newcomer.sh

# libFuzzer on the workspace file, the control API's requests and the secrets file (Sources/WorkspaceFuzzing,
# docs/reliability.md), FUZZ_SECONDS each, all three at once (60 in `make test`; `make fuzz FUZZ_SECONDS=3600` for
# an hour). WSD_FUZZ=1 makes Package.swift declare the driver and compile this package's modules with
# -sanitize=fuzzer,address into the debug build directory (about a minute: the dependencies are not rebuilt); the
# next ordinary build compiles them back. A finding stops with its input in .build/fuzz/artifacts/ and says how to
# keep it as a regression fixture.
FUZZ_SECONDS ?= 60
FUZZ_TARGETS ?= workspace-file control-api secrets-file direct-decoder
.PHONY: fuzz
fuzz: deps
	WSD_FUZZ=1 $(SWIFT_BUILD) $(BUILD_FLAGS) --product WorkspaceFuzz
	@mkdir -p .build
	bash Scripts/fuzz.sh "$$(WSD_FUZZ=1 $(SWIFT_BUILD) $(BUILD_FLAGS) --show-bin-path)/WorkspaceFuzz" $(FUZZ_SECONDS) \
	  "$(RELIABILITY_ROWS)" $(FUZZ_TARGETS)

# The long variants of the reliability tests on the daemon binary (docs/reliability.md): the SIGKILL and SIGTERM
# torture with KILL_ROUNDS and TERM_ROUNDS rounds, and the fault matrix; ends with the summary table.
KILL_ROUNDS ?= 1000
TERM_ROUNDS ?= 300
.PHONY: soak
soak: deps
	$(SWIFT_BUILD) --build-tests $(BUILD_FLAGS)
	@mkdir -p .build && rm -f "$(RELIABILITY_ROWS)"
	WSD_RELIABILITY_SUMMARY="$(RELIABILITY_ROWS)" WSD_TORTURE_KILL_ROUNDS=$(KILL_ROUNDS) \
	  WSD_TORTURE_TERM_ROUNDS=$(TERM_ROUNDS) $(SWIFT) test --skip-build $(BUILD_FLAGS) \
	  --filter $(call targets,$(RELIABILITY_TARGETS))
	@python3 Scripts/reliability-summary.py "$(RELIABILITY_ROWS)"

# Boots a real systemd per scenario in throw-away namespaces and tests the installed daemon (Tests/System);
# needs root: otherwise it says why and skips, unless CI=true.
.PHONY: system-test
system-test:
	python3 Tests/System/systemtest.py

# The workspace benchmarks (Benchmarks/, a package of its own that `make test` never builds), about 10 minutes once
# built: the release daemon's fixed start (exec → READY=1 on an empty workspace, 20 starts), its ready time and memory
# on generated 1, 10 and 50 MB workspaces (and 200 MB, BENCH_LARGE_SIZES) against a plain Codable decode of the same
# bytes, measured in the same run; the persistence engine on the same workspaces (save, owner blocked, writes under
# 10,000 changes/s, the daemon's SIGTERM → exit); the control API with 16 clients on the daemon holding a 10 MB
# workspace (BENCH_CONTROL_MEGABYTES); the SQLite peer; the history, a start after a crash, replication, metrics and
# the scrub (below); the library on its sample model. The figures go to docs/benchmarks/results.json and the table of
# docs/benchmarks.md (BENCH_OUT, below), and it ends with that table.
BENCH_SIZES  ?= 1,10,50
BENCH_ROUNDS ?= 5
# Ready time and memory only, 3 rounds (a plain decode of 200 MB takes seconds): how a start grows with the work.
BENCH_LARGE_SIZES ?= 200
BENCH_CONTROL_MEGABYTES ?= 10
# The history (WorkspaceBench history, about 30 s with these): the persistence workloads with the history off and on
# at BENCH_HISTORY_SIZES (BENCH_HISTORY_ROUNDS blocks of fresh copies), model(atRevision:) replaying 16 MiB of segments
# at BENCH_HISTORY_READ_MEGABYTES against a load of the file (0 skips it; medians of BENCH_HISTORY_READ_ROUNDS of each,
# taking turns: fewer swing by a tenth on a shared machine), and what renames at 10/s take in the history at
# BENCH_HISTORY_FOOTPRINT_MEGABYTES (each 120 simulated seconds).
BENCH_HISTORY_SIZES  ?= 1,10
BENCH_HISTORY_ROUNDS ?= 5
BENCH_HISTORY_READ_MEGABYTES ?= 10
BENCH_HISTORY_READ_ROUNDS ?= 9
BENCH_HISTORY_FOOTPRINT_MEGABYTES ?= 0.1,10
# Replication (WorkspaceBench replica, about 90 s with these) against moto's S3 server, which
# Scripts/with-s3-server.sh starts: a durable change with a replicator and without, a restore of a 10 MB workspace with
# 16 MiB of journal against a start after a crash, the lag after BENCH_REPLICA_LAG_SECONDS at 10,000 changes/s, and the
# control API's changes/s with replication on and off.
BENCH_REPLICA_LAG_SECONDS ?= 60
# Metrics and the scrub (WorkspaceBench metrics, issue 44): a durable change, the control API's changes/s and a
# save of everything with metrics on and off (10 MB), and the control API's p99 with scrubs running back to back on a
# 50 MB workspace with three backups and 64 MiB of history, against the same load without (about 3 minutes).

# A start after a crash (WorkspaceBench replay, about 10 s): a BENCH_REPLAY_MEGABYTES workspace and 16 MiB of renames
# left in the journal, load + replay against the load alone; prints the replay's MB/s (issue 46's goal: >= 400).
BENCH_REPLAY_MEGABYTES ?= 10

# What only `make bench` needs besides APT_PACKAGES: SQLite's headers and pkg-config file, which GRDB links against
# for the SQLite peer of the benchmarks (WorkspaceBench peer); `make test` never builds that package.
BENCH_APT_PACKAGES := libsqlite3-dev
# Every benchmark writes its section into BENCH_OUT, emptied first; only a run that reaches the end copies it to
# docs/benchmarks/results.json and writes docs/benchmarks.md's table from it, so that the two hold one run's figures
# (`make lint` checks that the table is the one the JSON gives). BENCH_COMMIT names the build measured, `-dirty`
# when the tree had changes.
BENCH_OUT    ?= $(CURDIR)/.build/bench/results.json
# The start floor (Benchmarks/StartFloor): a static Swift binary that only sends READY=1, built as the daemon is and
# timed beside its fixed start in the same run (what exec, the loader and the Swift runtime cost on this machine).
BENCH_FLOOR  ?= $(CURDIR)/.build/bench/start-floor
ifndef BENCH_COMMIT
BENCH_COMMIT := $(shell git describe --always --dirty 2>/dev/null || echo unknown)
endif
.PHONY: bench-deps
bench-deps:
	@$(MAKE) --no-print-directory deps APT_PACKAGES="$(APT_PACKAGES) $(BENCH_APT_PACKAGES)"
# The benchmark package depends on this one by path, and SwiftPM 6.3 looks for files added to or removed from a path
# dependency's sources only when it plans the build again, which an unchanged manifest and environment do not make
# it do: a file added under Sources/ since the benchmark package's last plan (its directory newer than that plan's
# release.yaml) touches Benchmarks/Package.swift, which does.
BENCH_REPLAN = if [ -f Benchmarks/.build/release.yaml ] && \
  [ -n "$$(find Sources -type d -newer Benchmarks/.build/release.yaml -print -quit)" ]; then \
  touch Benchmarks/Package.swift; fi
bench: bench-deps static-cxx
	$(SWIFT_BUILD) $(RELEASE_FLAGS) --product workspaced
	$(BENCH_REPLAN)
	$(SWIFT_BUILD) -c release --package-path Benchmarks
	@mkdir -p "$(dir $(BENCH_OUT))" docs/benchmarks && rm -f "$(BENCH_OUT)"
	$(SWIFTC) -O -static-stdlib Benchmarks/StartFloor/main.swift -o "$(BENCH_FLOOR)"
	Benchmarks/.build/release/WorkspaceBench ready --daemon "$$($(SWIFT_BUILD) $(RELEASE_FLAGS) --show-bin-path)/workspaced" \
	  --sizes $(BENCH_SIZES) --rounds $(BENCH_ROUNDS) --large-sizes $(BENCH_LARGE_SIZES) --large-rounds 3 \
	  --floor "$(BENCH_FLOOR)" \
	  --json "$(BENCH_OUT)" --commit "$(BENCH_COMMIT)"
	Benchmarks/.build/release/WorkspaceBench persistence --daemon "$$($(SWIFT_BUILD) $(RELEASE_FLAGS) --show-bin-path)/workspaced" \
	  --sizes $(BENCH_SIZES) --rounds $(BENCH_ROUNDS) --json "$(BENCH_OUT)" \
	  --commit "$(BENCH_COMMIT)"
	Benchmarks/.build/release/WorkspaceBench control --daemon "$$($(SWIFT_BUILD) $(RELEASE_FLAGS) --show-bin-path)/workspaced" \
	  --megabytes $(BENCH_CONTROL_MEGABYTES) --rounds 7 --json "$(BENCH_OUT)" \
	  --commit "$(BENCH_COMMIT)"
	Benchmarks/.build/release/WorkspaceBench peer --sizes $(BENCH_SIZES) --rounds $(BENCH_ROUNDS) \
	  --json "$(BENCH_OUT)" --commit "$(BENCH_COMMIT)"
	Benchmarks/.build/release/WorkspaceBench history --sizes $(BENCH_HISTORY_SIZES) --rounds $(BENCH_HISTORY_ROUNDS) \
	  --read-megabytes $(BENCH_HISTORY_READ_MEGABYTES) --read-rounds $(BENCH_HISTORY_READ_ROUNDS) \
	  --footprint-megabytes $(BENCH_HISTORY_FOOTPRINT_MEGABYTES) --json "$(BENCH_OUT)" --commit "$(BENCH_COMMIT)"
	Benchmarks/.build/release/WorkspaceBench replay --megabytes $(BENCH_REPLAY_MEGABYTES) --rounds 7 \
	  --json "$(BENCH_OUT)" --commit "$(BENCH_COMMIT)"
	Scripts/with-s3-server.sh Benchmarks/.build/release/WorkspaceBench replica --rounds $(BENCH_ROUNDS) \
	  --lag-seconds $(BENCH_REPLICA_LAG_SECONDS) --daemon "$$($(SWIFT_BUILD) $(RELEASE_FLAGS) --show-bin-path)/workspaced" \
	  --json "$(BENCH_OUT)" --commit "$(BENCH_COMMIT)"
	Benchmarks/.build/release/WorkspaceBench metrics --rounds $(BENCH_ROUNDS) \
	  --daemon "$$($(SWIFT_BUILD) $(RELEASE_FLAGS) --show-bin-path)/workspaced" \
	  --json "$(BENCH_OUT)" --commit "$(BENCH_COMMIT)"
	Benchmarks/.build/release/StateStoreBenchmarks 50000 11 --json "$(BENCH_OUT)" --commit "$(BENCH_COMMIT)"
	cp "$(BENCH_OUT)" docs/benchmarks/results.json
	python3 Scripts/bench-table.py --write docs/benchmarks.md docs/benchmarks/results.json
	$(MAKE) bench-charts
	@echo; echo "make bench: every figure against its goal (now in docs/benchmarks.md and docs/benchmarks/results.json; a missed goal in bold)"
	@python3 Scripts/bench-table.py docs/benchmarks/results.json

# The charts of docs/benchmarks/results.json (Scripts/bench-charts.py: ratios against their goals, ready time,
# JSON file against SQLite, memory, persistence) as PNGs in docs/benchmarks/; prints the markdown that embeds them.
# matplotlib comes from python3 when it has it, else from a venv of its own (Debian's python3 is externally managed).
BENCH_VENV    ?= $(CURDIR)/.build/bench-venv
BENCH_RESULTS ?= docs/benchmarks/results.json
BENCH_CHARTS  ?= docs/benchmarks
# The pull reader of issue 29 against JSONDecoder on one file (default: a generated 10 MB workspace):
# StateJSON's sources and Benchmarks/ReaderThroughput/main.swift compiled together with -O.
.PHONY: bench-reader
bench-reader:
	@mkdir -p .build/reader-throughput
	swiftc -O -wmo -package-name workspaced Sources/StateJSON/*.swift Benchmarks/ReaderThroughput/main.swift \
	  -o .build/reader-throughput/ReaderThroughput
	@file="$(FILE)"; if [ -z "$$file" ]; then \
	  $(BENCH_REPLAN); \
	  $(SWIFT_BUILD) -c release --package-path Benchmarks --product WorkspaceBench >/dev/null && \
	  Benchmarks/.build/release/WorkspaceBench generate --megabytes 10 --out .build/reader-throughput >/dev/null && \
	  file=.build/reader-throughput/v4-10.json; fi; \
	.build/reader-throughput/ReaderThroughput "$$file"

.PHONY: bench-charts
bench-charts:
	@if python3 -c 'import matplotlib' 2>/dev/null; then py=python3; else \
	  py="$(BENCH_VENV)/bin/python3"; \
	  "$$py" -c 'import matplotlib' 2>/dev/null || \
	    { echo "installing matplotlib into $(BENCH_VENV)"; python3 -m venv "$(BENCH_VENV)" && \
	      "$$py" -m pip install --quiet matplotlib; } || exit 1; \
	fi; \
	"$$py" Scripts/bench-charts.py "$(BENCH_RESULTS)" "$(BENCH_CHARTS)"

# The directory that makes the release link take libstdc++ from its archive (RELEASE_FLAGS).
static-cxx:
	@archive="$$($(SWIFT_CLANG) -print-file-name=libstdc++.a)"; \
	case "$$archive" in /*) ;; *) echo "missing: libstdc++.a (apt-get install libstdc++-12-dev)" >&2; exit 1;; esac; \
	mkdir -p "$(STATIC_CXX_DIR)" && ln -sf "$$archive" "$(STATIC_CXX_DIR)/libstdc++.a"

release: deps static-cxx
	$(SWIFT_BUILD) $(RELEASE_FLAGS) --product workspaced
	$(SWIFT_BUILD) $(RELEASE_FLAGS) --product workspacectl

# Runs the daemon in the foreground with its state and socket under ./.workspaced/ (Ctrl-C flushes and stops).
run: build
	@mkdir -p "$(RUN_DIR)"
	@echo "workspaced: state in $(RUN_DIR)/workspace.json, control socket $(RUN_DIR)/control.sock"
	@echo "workspaced: Ctrl-C (SIGINT) flushes the state and stops"
	"$$($(SWIFT_BUILD) $(BUILD_FLAGS) --show-bin-path)/workspaced" run --config "$(CURDIR)/config/workspaced.json" \
	  --state-directory "$(RUN_DIR)" --control-socket "$(RUN_DIR)/control.sock"

# Installs the binaries, workspacectl's shell completions, the man pages (generated from the binaries and the
# configuration keys: Scripts/man-pages.sh), units, catalog, default config (never over an existing one) and docs;
# reloads systemd when it runs and DESTDIR is empty. Over a newer installed release (DESTDIR empty), the state is
# first written down to what this tree's release reads, with the units stopped and started again after, or the
# install refused before anything changed (Scripts/install-downgrade.sh; docs/operations.md).
install: release
	@if [ -z "$(DESTDIR)" ]; then \
	  Scripts/install-downgrade.sh before "$(PREFIX)/bin/workspaced" "$(RELEASE_VERSION)"; fi
	install -d "$(DESTDIR)$(PREFIX)/bin" "$(DESTDIR)$(UNITDIR)" "$(DESTDIR)$(CATALOGDIR)" \
	  "$(DESTDIR)$(CONFDIR)" "$(DESTDIR)$(PREFIX)/share/doc/workspaced" "$(DESTDIR)$(BASHCOMPDIR)" \
	  "$(DESTDIR)$(ZSHCOMPDIR)" "$(DESTDIR)$(FISHCOMPDIR)"
	bin="$$($(SWIFT_BUILD) $(RELEASE_FLAGS) --show-bin-path)" && \
	  install -m 0755 "$$bin/workspaced" "$$bin/workspacectl" "$(DESTDIR)$(PREFIX)/bin/"
	ctl="$$($(SWIFT_BUILD) $(RELEASE_FLAGS) --show-bin-path)/workspacectl" && \
	  "$$ctl" --generate-completion-script bash > "$(DESTDIR)$(BASHCOMPDIR)/workspacectl" && \
	  "$$ctl" --generate-completion-script zsh > "$(DESTDIR)$(ZSHCOMPDIR)/_workspacectl" && \
	  "$$ctl" --generate-completion-script fish > "$(DESTDIR)$(FISHCOMPDIR)/workspacectl.fish"
	chmod 0644 "$(DESTDIR)$(BASHCOMPDIR)/workspacectl" "$(DESTDIR)$(ZSHCOMPDIR)/_workspacectl" \
	  "$(DESTDIR)$(FISHCOMPDIR)/workspacectl.fish"
	SWIFT="$(SWIFT)" Scripts/man-pages.sh "$$($(SWIFT_BUILD) $(RELEASE_FLAGS) --show-bin-path)" "$(DESTDIR)$(MANDIR)"
	for unit in workspaced.service workspaced.socket; do \
	  sed 's|/usr/local/|$(PREFIX)/|g' "systemd/$$unit" > "$(DESTDIR)$(UNITDIR)/$$unit" && \
	  chmod 0644 "$(DESTDIR)$(UNITDIR)/$$unit" || exit 1; done
	sed 's|/usr/local/|$(PREFIX)/|g' systemd/workspaced.catalog > "$(DESTDIR)$(CATALOGDIR)/workspaced.catalog"
	chmod 0644 "$(DESTDIR)$(CATALOGDIR)/workspaced.catalog"
	@if [ -e "$(DESTDIR)$(CONFDIR)/config.json" ]; then \
	  echo "keeping the existing $(DESTDIR)$(CONFDIR)/config.json"; \
	else install -m 0644 config/workspaced.json "$(DESTDIR)$(CONFDIR)/config.json"; fi
	install -m 0644 README.md docs/*.md packaging/prometheus/workspaced-rules.yml \
	  "$(DESTDIR)$(PREFIX)/share/doc/workspaced/"
	@if [ -z "$(DESTDIR)" ] && [ -d /run/systemd/system ]; then \
	  systemctl daemon-reload && journalctl --update-catalog; fi
	@if [ -z "$(DESTDIR)" ]; then Scripts/install-downgrade.sh after; fi

# Undoes `make install` with the same PREFIX and DESTDIR: stops and disables the units (DESTDIR empty, systemd
# running), removes every file install put in place and the docs directory. The config goes only while it is still
# the shipped default (an edited one is kept, and said so); the state (/var/lib/workspaced) is never touched.
uninstall:
	@if [ -z "$(DESTDIR)" ] && [ -d /run/systemd/system ]; then \
	  systemctl disable --now workspaced.socket workspaced.service >/dev/null 2>&1 || true; fi
	rm -f $(foreach file,$(INSTALLED),"$(DESTDIR)$(file)")
	rm -rf "$(DESTDIR)$(PREFIX)/share/doc/workspaced"
	@if [ ! -e "$(DESTDIR)$(CONFDIR)/config.json" ]; then :; \
	elif cmp -s config/workspaced.json "$(DESTDIR)$(CONFDIR)/config.json"; then \
	  rm -f "$(DESTDIR)$(CONFDIR)/config.json"; \
	else echo "keeping the edited $(DESTDIR)$(CONFDIR)/config.json"; fi
	@rmdir "$(DESTDIR)$(CONFDIR)" 2>/dev/null || true
	@echo "the state directory (/var/lib/workspaced, /var/lib/private/workspaced) is kept"
	@if [ -z "$(DESTDIR)" ] && [ -d /run/systemd/system ]; then \
	  systemctl daemon-reload && journalctl --update-catalog; fi

# A Debian package of the release build (PREFIX=/usr, units in /lib/systemd/system, /etc/workspaced/config.json a
# conffile) with the maintainer scripts of packaging/deb; Scripts/build-deb.sh says how.
deb: release
	rm -rf "$(DEB_DIR)/root-$(DEB_VERSION)"
	$(MAKE) -s --no-print-directory install DESTDIR="$(DEB_DIR)/root-$(DEB_VERSION)" PREFIX=/usr \
	  UNITDIR=/lib/systemd/system CATALOGDIR=/usr/lib/systemd/catalog CONFDIR=/etc/workspaced \
	  ZSHCOMPDIR=/usr/share/zsh/vendor-completions
	DEB_COMPRESSION="$(DEB_COMPRESSION)" Scripts/build-deb.sh "$(DEB_DIR)/root-$(DEB_VERSION)" "$(DEB_VERSION)" \
	  "$(DEB_ARCH)" "$(DEB_FILE)"
	rm -rf "$(DEB_DIR)/root-$(DEB_VERSION)"

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
