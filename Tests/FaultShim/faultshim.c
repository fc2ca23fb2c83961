// faultshim: fails chosen file system calls of a process on chosen paths, for the fault matrix on the shipped
// workspaced binary (issue 15, item 1; Tests/WorkspaceDaemonTests/FaultMatrix). Built as a shared object and
// loaded with LD_PRELOAD; glibc stays dynamic in Swift binaries, so every open/write/fsync/close/rename/link the
// daemon makes goes through here first.
//
// The environment:
//   WSD_FAULT_DIR      only calls on paths directly in this directory (and on descriptors opened there) can fail
//   WSD_FAULT_CONTROL  a file read on every such call: empty (no fault) or one line
//                      "<operation> <errno name> [path substring]"; the test rewrites it to set or lift a fault
//                      while the daemon runs
//   WSD_FAULT_LOG      one line appended for every failure injected: "<operation> <errno name> <path>"
//
// The operations: open-temp (creating a temporary file: a name ".<file>.tmp-…"), write, short-write (the first
// write to a temporary file writes half and returns that count; the next one fails), fsync-temp, close (the
// descriptor is closed, the call reports the error, as Linux does), rename (onto a path in the directory), open-dir
// (opening the directory itself), fsync-dir, link (a new name in the directory). The substring, when given,
// must occur in the path concerned: the temporary file's, the rename's or link's target (open-dir and fsync-dir
// concern the directory and ignore it).
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum kind { NONE = 0, TEMP = 1, DIRECTORY = 2 };
#define TRACKED 4096

static int (*real_open)(const char *, int, ...);
static int (*real_openat)(int, const char *, int, ...);
static ssize_t (*real_write)(int, const void *, size_t);
static int (*real_fsync)(int);
static int (*real_fdatasync)(int);
static int (*real_close)(int);
static int (*real_rename)(const char *, const char *);
static int (*real_renameat)(int, const char *, int, const char *);
static int (*real_link)(const char *, const char *);
static int (*real_linkat)(int, const char *, int, const char *, int);

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned char kinds[TRACKED];
static unsigned char short_written[TRACKED];
static char *paths[TRACKED];
static char directory[PATH_MAX];
static size_t directory_length;

__attribute__((constructor)) static void faultshim_init(void) {
    real_open = dlsym(RTLD_NEXT, "open");
    real_openat = dlsym(RTLD_NEXT, "openat");
    real_write = dlsym(RTLD_NEXT, "write");
    real_fsync = dlsym(RTLD_NEXT, "fsync");
    real_fdatasync = dlsym(RTLD_NEXT, "fdatasync");
    real_close = dlsym(RTLD_NEXT, "close");
    real_rename = dlsym(RTLD_NEXT, "rename");
    real_renameat = dlsym(RTLD_NEXT, "renameat");
    real_link = dlsym(RTLD_NEXT, "link");
    real_linkat = dlsym(RTLD_NEXT, "linkat");
    const char *dir = getenv("WSD_FAULT_DIR");
    if (dir && strlen(dir) < sizeof directory) {
        strcpy(directory, dir);
        directory_length = strlen(directory);
        while (directory_length > 1 && directory[directory_length - 1] == '/') directory[--directory_length] = 0;
    }
}

/// Whether `path` is the directory itself (1), a name directly in it (2), or neither (0).
static int placement(const char *path) {
    if (!directory_length || !path) return 0;
    if (strncmp(path, directory, directory_length) != 0) return 0;
    const char *rest = path + directory_length;
    if (*rest == 0 || (rest[0] == '/' && rest[1] == 0)) return 1;
    if (*rest != '/') return 0;
    return strchr(rest + 1, '/') ? 0 : 2;
}

static int is_temporary(const char *path) {
    const char *name = strrchr(path, '/');
    name = name ? name + 1 : path;
    return name[0] == '.' && strstr(name, ".tmp-") != NULL;
}

struct fault {
    char operation[32];
    char errno_name[16];
    char substring[256];
    int error;
};

static int errno_named(const char *name) {
    if (!strcmp(name, "EIO")) return EIO;
    if (!strcmp(name, "ENOSPC")) return ENOSPC;
    if (!strcmp(name, "EDQUOT")) return EDQUOT;
    if (!strcmp(name, "EROFS")) return EROFS;
    if (!strcmp(name, "EACCES")) return EACCES;
    return atoi(name);
}

/// Reads the control file; 1 when it names `operation` and `path` (`NULL` for the directory's own calls, which
/// every substring matches) contains its substring.
static int fault_for(const char *operation, const char *path, struct fault *fault) {
    const char *control = getenv("WSD_FAULT_CONTROL");
    if (!control) return 0;
    int saved = errno;
    int descriptor = real_open(control, O_RDONLY | O_CLOEXEC);
    if (descriptor < 0) {
        errno = saved;
        return 0;
    }
    char text[512];
    ssize_t count = read(descriptor, text, sizeof text - 1);
    real_close(descriptor);
    errno = saved;
    if (count <= 0) return 0;
    text[count] = 0;
    memset(fault, 0, sizeof *fault);
    if (sscanf(text, "%31s %15s %255s", fault->operation, fault->errno_name, fault->substring) < 2) return 0;
    if (strcmp(fault->operation, operation) != 0) return 0;
    if (fault->substring[0] && path && !strstr(path, fault->substring)) return 0;
    fault->error = errno_named(fault->errno_name);
    return fault->error > 0;
}

/// Appends "<operation> <errno name> <path>" to the log and returns -1 with errno set.
static int inject(const struct fault *fault, const char *path) {
    const char *log = getenv("WSD_FAULT_LOG");
    if (log) {
        int descriptor = real_open(log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
        if (descriptor >= 0) {
            char line[PATH_MAX + 64];
            size_t length = 0;
            line[0] = 0;
            strncat(line, fault->operation, sizeof line - 1);
            strncat(line, " ", sizeof line - strlen(line) - 1);
            strncat(line, fault->errno_name, sizeof line - strlen(line) - 1);
            strncat(line, " ", sizeof line - strlen(line) - 1);
            strncat(line, path ? path : "?", sizeof line - strlen(line) - 2);
            strcat(line, "\n");
            length = strlen(line);
            ssize_t ignored = real_write(descriptor, line, length);
            (void)ignored;
            real_close(descriptor);
        }
    }
    errno = fault->error;
    return -1;
}

static void track(int descriptor, enum kind kind, const char *path) {
    if (descriptor < 0 || descriptor >= TRACKED) return;
    pthread_mutex_lock(&lock);
    free(paths[descriptor]);
    paths[descriptor] = kind == NONE ? NULL : strdup(path);
    kinds[descriptor] = (unsigned char)kind;
    short_written[descriptor] = 0;
    pthread_mutex_unlock(&lock);
}

/// The kind of `descriptor` and a copy of its path (to free) when it is tracked.
static enum kind tracked(int descriptor, char **path) {
    *path = NULL;
    if (descriptor < 0 || descriptor >= TRACKED) return NONE;
    pthread_mutex_lock(&lock);
    enum kind kind = (enum kind)kinds[descriptor];
    if (kind != NONE && paths[descriptor]) *path = strdup(paths[descriptor]);
    pthread_mutex_unlock(&lock);
    return kind;
}

static int opened(const char *path, int flags, mode_t mode, int at, int use_at) {
    int where = placement(path);
    struct fault fault;
    if (where == 2 && (flags & O_CREAT) && is_temporary(path) && fault_for("open-temp", path, &fault))
        return inject(&fault, path);
    if (where == 1 && fault_for("open-dir", NULL, &fault)) return inject(&fault, path);
    int descriptor = use_at ? real_openat(at, path, flags, mode) : real_open(path, flags, mode);
    if (descriptor >= 0) {
        if (where == 2 && is_temporary(path) && (flags & O_ACCMODE) != O_RDONLY)
            track(descriptor, TEMP, path);
        else if (where == 1)
            track(descriptor, DIRECTORY, path);
        else
            track(descriptor, NONE, NULL);
    }
    return descriptor;
}

static mode_t mode_argument(int flags, va_list arguments) {
    return (flags & (O_CREAT | __O_TMPFILE)) ? (mode_t)va_arg(arguments, int) : 0;
}

int open(const char *path, int flags, ...) {
    va_list arguments;
    va_start(arguments, flags);
    mode_t mode = mode_argument(flags, arguments);
    va_end(arguments);
    return opened(path, flags, mode, AT_FDCWD, 0);
}

// The 64-bit names are the same functions (glibc on x86_64 and aarch64 has one open).
int open64(const char *path, int flags, ...) __attribute__((alias("open")));

int openat(int at, const char *path, int flags, ...) {
    va_list arguments;
    va_start(arguments, flags);
    mode_t mode = mode_argument(flags, arguments);
    va_end(arguments);
    if (at != AT_FDCWD && path[0] != '/') return real_openat(at, path, flags, mode);
    return opened(path, flags, mode, at, 1);
}

int openat64(int at, const char *path, int flags, ...) __attribute__((alias("openat")));

ssize_t write(int descriptor, const void *bytes, size_t count) {
    char *path;
    if (tracked(descriptor, &path) != TEMP) return real_write(descriptor, bytes, count);
    struct fault fault;
    ssize_t result;
    if (fault_for("write", path, &fault)) {
        result = inject(&fault, path);
    } else if (fault_for("short-write", path, &fault)) {
        pthread_mutex_lock(&lock);
        int first = !short_written[descriptor];
        short_written[descriptor] = 1;
        pthread_mutex_unlock(&lock);
        if (first && count > 1) {
            result = real_write(descriptor, bytes, count / 2);
        } else {
            result = inject(&fault, path);
        }
    } else {
        result = real_write(descriptor, bytes, count);
    }
    int saved = errno;
    free(path);
    errno = saved;
    return result;
}

static int synced(int descriptor, int (*real)(int)) {
    char *path;
    enum kind kind = tracked(descriptor, &path);
    struct fault fault;
    int result;
    if (kind == TEMP && fault_for("fsync-temp", path, &fault))
        result = inject(&fault, path);
    else if (kind == DIRECTORY && fault_for("fsync-dir", NULL, &fault))
        result = inject(&fault, path);
    else
        result = real(descriptor);
    int saved = errno;
    free(path);
    errno = saved;
    return result;
}

int fsync(int descriptor) { return synced(descriptor, real_fsync); }

int fdatasync(int descriptor) { return synced(descriptor, real_fdatasync); }

int close(int descriptor) {
    char *path;
    enum kind kind = tracked(descriptor, &path);
    if (kind != NONE) track(descriptor, NONE, NULL);
    struct fault fault;
    int failing = kind == TEMP && fault_for("close", path, &fault);
    int result = real_close(descriptor);
    if (failing && result == 0) result = inject(&fault, path);
    int saved = errno;
    free(path);
    errno = saved;
    return result;
}

int rename(const char *source, const char *target) {
    struct fault fault;
    if (placement(target) == 2 && fault_for("rename", target, &fault)) return inject(&fault, target);
    return real_rename(source, target);
}

int renameat(int source_at, const char *source, int target_at, const char *target) {
    struct fault fault;
    if (target_at == AT_FDCWD && placement(target) == 2 && fault_for("rename", target, &fault))
        return inject(&fault, target);
    return real_renameat(source_at, source, target_at, target);
}

int link(const char *source, const char *target) {
    struct fault fault;
    if (placement(target) == 2 && fault_for("link", target, &fault)) return inject(&fault, target);
    return real_link(source, target);
}

int linkat(int source_at, const char *source, int target_at, const char *target, int flags) {
    struct fault fault;
    if (target_at == AT_FDCWD && placement(target) == 2 && fault_for("link", target, &fault))
        return inject(&fault, target);
    return real_linkat(source_at, source, target_at, target, flags);
}
