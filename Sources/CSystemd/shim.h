#ifndef CSYSTEMD_SHIM_H
#define CSYSTEMD_SHIM_H
#include <systemd/sd-daemon.h>
#include <systemd/sd-journal.h>
#include <systemd/sd-id128.h>
#endif
