import FoundationEssentials
import Glibc

/// The TCP address `metrics.listen` names: an IP address (IPv4, or IPv6 in brackets) and a port.
package struct MetricsListenAddress: Sendable, Hashable, CustomStringConvertible {
    /// The IP address, without brackets (`127.0.0.1`, `::1`).
    package var host: String
    /// The port, 1 to 65535.
    package var port: Int

    /// Parses `127.0.0.1:9464` or `[::1]:9464`; `nil` for anything else (a host name, a missing or bad port).
    package init?(_ text: String) {
        let host: Substring
        let portText: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]"), text[text.index(after: close)...].hasPrefix(":") else {
                return nil
            }
            host = text[text.index(after: text.startIndex)..<close]
            portText = text[text.index(close, offsetBy: 2)...]
            guard Self.isIPv6(String(host)) else { return nil }
        } else {
            guard let colon = text.lastIndex(of: ":") else { return nil }
            host = text[..<colon]
            portText = text[text.index(after: colon)...]
            guard Self.isIPv4(String(host)) else { return nil }
        }
        guard !portText.isEmpty, portText.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let port = Int(portText),
            (1...65535).contains(port)
        else { return nil }
        self.host = String(host)
        self.port = port
    }

    /// Whether only this host reaches it: 127.0.0.0/8 or ::1.
    package var isLoopback: Bool {
        if Self.isIPv4(host) { return host.hasPrefix("127.") }
        var address = in6_addr()
        guard inet_pton(AF_INET6, host, &address) == 1 else { return false }
        return withUnsafeBytes(of: &address) { bytes in bytes.dropLast().allSatisfy { $0 == 0 } && bytes.last == 1 }
    }

    /// `127.0.0.1:9464`, `[::1]:9464`.
    package var description: String {
        host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }

    private static func isIPv4(_ text: String) -> Bool {
        var address = in_addr()
        return inet_pton(AF_INET, text, &address) == 1
    }

    private static func isIPv6(_ text: String) -> Bool {
        var address = in6_addr()
        return inet_pton(AF_INET6, text, &address) == 1
    }
}
