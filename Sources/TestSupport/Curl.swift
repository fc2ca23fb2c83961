import Foundation

/// One HTTP exchange through curl: the status code and the body.
package struct CurlResult: Sendable {
    /// The HTTP status (0 when curl got no answer).
    package var status: Int
    /// The response body.
    package var body: String

    /// The body as a JSON object (empty when it is not one).
    package var object: [String: Any] { (try? jsonObject(Data(body.utf8))) ?? [:] }
}

/// Sends one request with `curl --unix-socket socket` (`socket` `nil`: to `target` as a full URL), through
/// ``runCommand(_:environment:timeout:)``; `asUser` runs curl through `setpriv` as that uid and gid with no
/// supplementary groups.
package func curl(
    _ socket: String?, _ method: String, _ target: String, body: String? = nil, headers: [String] = [],
    asUser: UInt32? = nil
) async throws -> CurlResult {
    let bodyPath = "/tmp/tsc-curl-\(UUID().uuidString).body"
    defer { try? FileManager.default.removeItem(atPath: bodyPath) }
    var arguments = ["-sS", "-o", bodyPath, "-w", "%{http_code}", "-X", method]
    if let socket { arguments += ["--unix-socket", socket] }
    for header in headers { arguments += ["-H", header] }
    if let body { arguments += ["--data-binary", body] }
    arguments.append(socket == nil ? target : "http://localhost" + target)
    let launcher =
        asUser.map { ["/usr/bin/setpriv", "--reuid=\($0)", "--regid=\($0)", "--clear-groups"] } ?? []
    let result = try await runCommand(launcher + ["/usr/bin/curl"] + arguments)
    guard let status = Int(result.output.suffix(3)) else {
        throw TestSupportError(description: "curl \(method) \(target): \(result.output)")
    }
    return CurlResult(status: status, body: (try? String(contentsOfFile: bodyPath, encoding: .utf8)) ?? "")
}
