#if canImport(Glibc)
import Glibc
#endif

/// A connected pair of descriptors, close-on-exec from the start (pipe2 needs _GNU_SOURCE, which Glibc's module
/// does not define), so a child spawned concurrently by another test never inherits the write end.
func closeOnExecPipe(_ ends: inout [Int32]) -> Int32 {
    socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &ends)
}
