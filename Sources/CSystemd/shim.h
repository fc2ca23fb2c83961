#ifndef CSYSTEMD_SHIM_H
#define CSYSTEMD_SHIM_H
// The location-adding macros wrap sd_journal_sendv and friends; Swift calls the plain functions and sets
// CODE_FILE, CODE_LINE and CODE_FUNC itself.
#define SD_JOURNAL_SUPPRESS_LOCATION 1
#include <systemd/sd-daemon.h>
#include <systemd/sd-journal.h>
#include <systemd/sd-id128.h>
#endif
