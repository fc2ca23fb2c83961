#if canImport(Glibc)
import Glibc
#endif

/// A `read(2)` that failed, with its errno.
struct ReadFailure: Error {
    /// The errno of the read.
    let errno: Int32
}

/// Reads the open `descriptor` to its end, 4 KiB at a time, retrying a read that `EINTR` interrupted: for the small
/// files systemd and the kernel hand a service (credentials, cgroup limits), without Foundation, whose first file
/// read costs a daemon's start tenths of a millisecond.
/// - Throws: ``ReadFailure`` with the errno of a read that failed.
func readToEnd(_ descriptor: Int32) throws(ReadFailure) -> [UInt8] {
    var result: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
        let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        if count < 0 {
            if errno == EINTR { continue }
            throw ReadFailure(errno: errno)
        }
        if count == 0 { return result }
        result.append(contentsOf: chunk[0..<count])
    }
}
