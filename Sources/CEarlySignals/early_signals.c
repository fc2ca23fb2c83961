// Closes the window between exec and the daemon's signal sources (SignalSources.swift). Until `main` runs,
// dynamic loading and the Swift runtime take milliseconds (tens in a debug build), and a SIGTERM then would kill
// the process by its default action (status 143 instead of 0) and a SIGHUP (a reload) would kill it outright.
//
// This constructor runs as the binary is loaded, before any Swift code, and only for `workspaced run` (no
// arguments, `run`, or options only): SIGTERM and SIGINT exit at once with status 0 — nothing has been read,
// accepted or written yet, which is also what SignalSources does until its handler is set — and SIGHUP is ignored.
// SignalSources replaces all three. The offline tools keep the default actions.
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "CEarlySignals.h"

static int installed = 0;

static void exit_cleanly(int signal) {
    (void)signal;
    _exit(0);
}

// glibc passes (argc, argv, envp) to the functions of .init_array.
__attribute__((constructor)) static void workspaced_install_early_signals(int argc, char **argv, char **envp) {
    (void)envp;
    if (argc > 1 && argv && argv[1] && strcmp(argv[1], "run") != 0 && argv[1][0] != '-') return;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = exit_cleanly;
    sigfillset(&action.sa_mask);
    sigaction(SIGTERM, &action, NULL);
    sigaction(SIGINT, &action, NULL);
    signal(SIGHUP, SIG_IGN);
    installed = 1;
}

int workspaced_early_signals_installed(void) { return installed; }
