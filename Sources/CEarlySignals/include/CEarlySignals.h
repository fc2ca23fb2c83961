#ifndef CEARLYSIGNALS_H
#define CEARLYSIGNALS_H

/// Whether the early handlers were installed (the process is `workspaced run`); see early_signals.c.
int workspaced_early_signals_installed(void);

#endif
