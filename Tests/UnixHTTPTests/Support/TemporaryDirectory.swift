import Foundation
import Glibc

/// A fresh `/tmp/uh-XXXXXX` directory (short, for socket paths), removed when released.
final class TemporaryDirectory {
    let path: String

    init() throws {
        var template = Array("/tmp/uh-XXXXXX".utf8CString)
        guard mkdtemp(&template) != nil else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        path = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The conventional socket path inside the directory.
    var socketPath: String { path + "/s.sock" }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}
