import Foundation
import Glibc
import TestSupport
import Testing
import UnixHTTP

/// ``HTTPServerBinding/tcp(host:port:)``: the same routes over TCP, with no peer credentials.
@Suite struct TCPBindingTests {
    /// The raw response to `GET path` over a TCP connection to 127.0.0.1:`port`, read until the server closes.
    private static func get(_ path: String, port: Int) throws -> String {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw TestSupportError(description: "socket: errno \(errno)") }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
        guard connected else { throw TestSupportError(description: "connect: errno \(errno)") }
        let request = Array("GET \(path) HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n".utf8)
        guard write(descriptor, request, request.count) == request.count else {
            throw TestSupportError(description: "write: errno \(errno)")
        }
        var response: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(descriptor, &buffer, buffer.count)
            guard count > 0 else { break }
            response += buffer[..<count]
        }
        return String(decoding: response, as: UTF8.self)
    }

    @Test func servesTheRoutesOverTCPWithUnknownCredentials() async throws {
        let server = HTTPServer(
            configuration: .init(socketPath: ""), router: try fixtureRouter(), logger: quietLogger)
        try await server.start(binding: .tcp(host: "127.0.0.1", port: 0))
        let address = try #require(server.tcpAddress)
        #expect(address.host == "127.0.0.1" && address.port > 0)
        let unknown = PeerCredentials.unknown
        let response = try await offThePool { try Self.get("/v1/peer", port: address.port) }
        #expect(response.hasPrefix("HTTP/1.1 200"), "\(response)")
        #expect(response.hasSuffix("\(unknown.pid) \(unknown.uid) \(unknown.gid)"), "\(response)")
        let missing = try await offThePool { try Self.get("/nothing", port: address.port) }
        #expect(missing.hasPrefix("HTTP/1.1 404"), "\(missing)")

        // A second server on the same port is refused, naming the binding.
        let second = HTTPServer(
            configuration: .init(socketPath: ""), router: try fixtureRouter(), logger: quietLogger)
        await #expect {
            try await second.start(binding: .tcp(host: "127.0.0.1", port: address.port))
        } throws: { error in
            guard case .listenFailed(let binding, _) = error as? HTTPServerError else { return false }
            return binding == .tcp(host: "127.0.0.1", port: address.port)
        }
        await server.shutdown()
        #expect(server.tcpAddress == nil)
    }
}
