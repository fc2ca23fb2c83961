#if canImport(Glibc)
import Glibc
#endif

/// The test process environment, read once per call.
enum ProcessEnvironment {
    /// Every `NAME=value` of `environ`, as a dictionary.
    static func variables() -> [String: String] {
        var variables: [String: String] = [:]
        var cursor = environ
        while let entry = cursor.pointee {
            let text = String(cString: entry)
            if let equals = text.firstIndex(of: "=") {
                variables[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            cursor += 1
        }
        return variables
    }
}

/// A connected pair of descriptors, close-on-exec from the start (pipe2 needs _GNU_SOURCE, which Glibc's module
/// does not define), so a child spawned concurrently by another test never inherits the write end.
func closeOnExecPipe(_ ends: inout [Int32]) -> Int32 {
    socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &ends)
}
