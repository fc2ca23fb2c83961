/// Short, path-first descriptions of decoding failures, for reports and logs.
package enum DecodingErrorDescription {
    package static func describe(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "\(error)" }
        switch error {
        case .typeMismatch(let type, let context):
            return "wrong type at \(path(context.codingPath)): expected \(type) (\(context.debugDescription))"
        case .valueNotFound(let type, let context):
            return "missing value at \(path(context.codingPath)): expected \(type)"
        case .keyNotFound(let key, let context):
            return "missing key \(path(context.codingPath + [key]))"
        case .dataCorrupted(let context):
            let underlying = context.underlyingError.map { ": \($0)" } ?? ""
            return "not valid JSON or data at \(path(context.codingPath)): \(context.debugDescription)\(underlying)"
        @unknown default:
            return "\(error)"
        }
    }

    package static func path(_ codingPath: [any CodingKey]) -> String {
        guard !codingPath.isEmpty else { return "the root" }
        var text = ""
        for key in codingPath {
            if let index = key.intValue {
                text += "[\(index)]"
            } else {
                text += text.isEmpty ? key.stringValue : "." + key.stringValue
            }
        }
        return text
    }
}
