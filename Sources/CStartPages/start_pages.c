// Gives `workspaced run` every page of its zero-initialised data (.bss) before any thread starts.
//
// The Swift runtime and the libraries linked into the binary keep their caches and lazy globals there (metadata
// caches, once-tokens, conformance caches): about 1.3 MB, nearly all of it touched by a start. A page is usually
// read first (is this initialised yet?), which maps the shared zero page, then written, which replaces that mapping
// and, once the start runs threads on both processors, flushes the other processor's TLB by an interrupt: two
// faults and an inter-processor interrupt per page, on the threads that load the state and open the secrets. One
// madvise(MADV_POPULATE_WRITE) here, while the process has one thread, makes them all resident and writable at
// once. It costs the idle daemon about 0.9 MB of resident memory (the pages a start never touches).
//
// Linux 5.14 and later; elsewhere the call fails and the pages fault in as before.
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "CStartPages.h"

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

// The linker's bounds of .bss in the executable.
extern char __bss_start[], _end[];

static int outcome = -1;

// glibc passes (argc, argv, envp) to the functions of .init_array; `run` as early_signals.c decides it.
__attribute__((constructor)) static void workspaced_populate_bss(int argc, char **argv, char **envp) {
    (void)envp;
    if (argc > 1 && argv && argv[1] && strcmp(argv[1], "run") != 0 && argv[1][0] != '-') return;
    uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    // Whole pages only: the first one is shared with .data, which the loader's relocations already wrote.
    uintptr_t start = ((uintptr_t)__bss_start + page - 1) & ~(page - 1);
    uintptr_t end = ((uintptr_t)_end + page - 1) & ~(page - 1);
    if (end <= start) return;
    outcome = madvise((void *)start, end - start, MADV_POPULATE_WRITE) == 0 ? 0 : errno;
}

int workspaced_start_pages_outcome(void) { return outcome; }
