# Sourced by the callgrind scripts (count-load-instructions.sh, profile-load-phases.sh): builds a product of the
# Benchmarks package in release and sets `binary` to a copy of it without DWARF in the temporary directory `out`
# (removed on exit). valgrind 3.19 gives up on the DWARF 5 debug info Swift 6.3 writes ("Possibly corrupted
# debuginfo file"); the symbol table stays, so callgrind still names every function.
#   callgrind_binary PRODUCT
callgrind_binary() {
  command -v valgrind >/dev/null || { echo "valgrind is not installed (apt-get install valgrind)" >&2; exit 1; }
  swift build -c release --package-path Benchmarks --product "$1" >/dev/null
  out="$(mktemp -d)"
  trap 'rm -rf "$out"' EXIT
  binary="$out/$1"
  cp "$(swift build -c release --package-path Benchmarks --show-bin-path)/$1" "$binary"
  strip --strip-debug "$binary"
}
