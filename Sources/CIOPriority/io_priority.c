#define _GNU_SOURCE
#include <sched.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "CIOPriority.h"

// From linux/ioprio.h, which not every libc's headers carry.
#define WSD_IOPRIO_WHO_PROCESS 1
#define WSD_IOPRIO_CLASS_SHIFT 13
#define WSD_IOPRIO_CLASS_IDLE 3

int wsd_ioprio_set_idle(void) {
    // Who 0 with IOPRIO_WHO_PROCESS is the calling thread.
    return (int)syscall(SYS_ioprio_set, WSD_IOPRIO_WHO_PROCESS, 0, WSD_IOPRIO_CLASS_IDLE << WSD_IOPRIO_CLASS_SHIFT);
}

int wsd_ioprio_set_default(void) {
    // Class 0 (IOPRIO_CLASS_NONE): the thread's I/O follows its CPU nice level again.
    return (int)syscall(SYS_ioprio_set, WSD_IOPRIO_WHO_PROCESS, 0, 0);
}

int wsd_sched_set_idle(void) {
    // Pid 0 is the calling thread; SCHED_IDLE takes priority 0.
    struct sched_param parameters = {.sched_priority = 0};
    return sched_setscheduler(0, SCHED_IDLE, &parameters);
}
