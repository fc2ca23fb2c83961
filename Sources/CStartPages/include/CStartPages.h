#ifndef C_START_PAGES_H
#define C_START_PAGES_H

/// What the load-time population of .bss did (start_pages.c): -1 when it did not run (not `workspaced run`), 0
/// when the pages are resident, otherwise madvise's errno (EINVAL before Linux 5.14).
int workspaced_start_pages_outcome(void);

#endif
