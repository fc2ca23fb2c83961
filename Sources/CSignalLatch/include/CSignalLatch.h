#ifndef CSIGNALLATCH_H
#define CSIGNALLATCH_H

/// Replaces the disposition of `signo` with the latch, which records the signal instead of acting on it; see
/// signal_latch.c. Returns 0, and changes nothing, when a dispatch source of an earlier hand-over already owns it.
int wsd_signal_latch_arm(int signo);

/// Whether something (libdispatch, registering a signal source) replaced the latch as the handler of `signo`.
int wsd_signal_latch_replaced(int signo);

/// Ends the latch's watch over `signo` and returns whether a signal was latched: the caller delivers it. A signal
/// whose latch handler was already running is raised again instead, for the handler that replaced the latch. When
/// nothing replaced the latch, the signal is ignored from then on.
int wsd_signal_latch_release(int signo);

/// Whether the latch holds `signo` (caught and not yet released), without taking it; for tests and diagnostics.
int wsd_signal_latch_holds(int signo);

#endif
