// Closes the window between ignoring a signal and libdispatch's registration of its signal source.
//
// On Linux, libdispatch registers a signal source on its manager thread some time after `resume()`: it installs
// its own handler with sigaction(2) and opens a signalfd. A signal that comes before, while the disposition is
// SIG_IGN (the usual advice), is discarded by the kernel: a SIGTERM during start-up would be lost and the daemon
// would run on.
//
// The latch is the disposition in that window instead: it records the signal. Once libdispatch's handler has
// replaced it, the caller releases the latch and delivers what it recorded. A latch handler that was already
// running as the release happens re-raises its signal, so that each signal is delivered exactly once.
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <unistd.h>

#include "CSignalLatch.h"

#define LATCH_SIGNALS 65

static atomic_int latched[LATCH_SIGNALS];
static atomic_int released[LATCH_SIGNALS];
// The handler that replaced the latch at the last hand-over of each signal (libdispatch's, which it installs
// once per process): a second arm must not take the signal back from it.
static void (*replaced_by[LATCH_SIGNALS])(int);

static void latch(int signo) {
    if (signo <= 0 || signo >= LATCH_SIGNALS) return;
    atomic_store(&latched[signo], 1);
    if (atomic_load(&released[signo]) && atomic_exchange(&latched[signo], 0)) kill(getpid(), signo);
}

static void (*current_handler(int signo))(int) {
    struct sigaction current;
    memset(&current, 0, sizeof current);
    if (sigaction(signo, NULL, &current) != 0) return SIG_ERR;
    return current.sa_handler;
}

int wsd_signal_latch_arm(int signo) {
    if (signo <= 0 || signo >= LATCH_SIGNALS) return 0;
    if (replaced_by[signo] != NULL && current_handler(signo) == replaced_by[signo]) return 0;
    atomic_store(&released[signo], 0);
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = latch;
    sigfillset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    return sigaction(signo, &action, NULL) == 0;
}

int wsd_signal_latch_replaced(int signo) {
    if (signo <= 0 || signo >= LATCH_SIGNALS) return 1;
    void (*handler)(int) = current_handler(signo);
    if (handler == latch) return 0;
    replaced_by[signo] = handler;
    return 1;
}

int wsd_signal_latch_release(int signo) {
    if (signo <= 0 || signo >= LATCH_SIGNALS) return 0;
    // Still the latch (nothing replaced it in time): ignore the signal from now on, as before the latch, rather
    // than let a re-raised signal come back to the latch for ever.
    if (current_handler(signo) == latch) signal(signo, SIG_IGN);
    atomic_store(&released[signo], 1);
    return atomic_exchange(&latched[signo], 0);
}

int wsd_signal_latch_holds(int signo) {
    if (signo <= 0 || signo >= LATCH_SIGNALS) return 0;
    return atomic_load(&latched[signo]);
}
