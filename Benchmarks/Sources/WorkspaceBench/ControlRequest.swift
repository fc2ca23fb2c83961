import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// One HTTP/1.1 request over the daemon's control socket, read to the end of its answer (`Connection: close`).
enum ControlRequest {
    /// Sends `method path` with `body` and returns the status code.
    static func send(_ method: String, _ path: String, body: String = "", socketPath: String) throws -> Int {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        let connected = withUnixAddress(socketPath) { connect(descriptor, $0, $1) }
        guard connected == 0 else { throw BenchError("cannot connect to \(socketPath): \(errno)") }
        let request =
            "\(method) \(path) HTTP/1.1\r\nHost: workspaced\r\nConnection: close\r\n"
            + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
        let bytes = Array(request.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            guard written > 0 else { throw BenchError("cannot write to \(socketPath): \(errno)") }
            offset += written
        }
        var answer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(descriptor, &chunk, chunk.count)
            guard count > 0 else { break }
            answer += chunk[..<count]
        }
        let statusLine = String(decoding: answer.prefix(32), as: UTF8.self).split(separator: " ")
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else {
            throw BenchError("no HTTP answer from \(socketPath)")
        }
        return status
    }
}
