import Foundation

/// `data` parsed as a JSON object; throws when it is not JSON or not an object.
package func jsonObject(_ data: Data) throws -> [String: Any] {
    guard let object = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) as? [String: Any]
    else { throw TestSupportError(description: "not a JSON object: \(String(decoding: data, as: UTF8.self))") }
    return object
}
