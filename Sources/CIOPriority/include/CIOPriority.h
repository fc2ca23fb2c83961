#ifndef CIOPRIORITY_H
#define CIOPRIORITY_H

/// Puts the calling thread in the idle I/O scheduling class (ioprio_set(2), IOPRIO_CLASS_IDLE): its reads are
/// served only when no other I/O of the disk waits. Returns 0, or -1 with errno set (ENOSYS, EPERM under a
/// seccomp filter). Swift cannot call the variadic syscall(2), hence this shim.
int wsd_ioprio_set_idle(void);

/// Puts the calling thread back in the best-effort class at its default level (what a thread starts with).
int wsd_ioprio_set_default(void);

/// Puts the calling thread in the SCHED_IDLE CPU scheduling class (sched_setscheduler(2)): it runs only when no
/// other thread wants the processor. Returns 0, or -1 with errno set.
int wsd_sched_set_idle(void);

#endif
