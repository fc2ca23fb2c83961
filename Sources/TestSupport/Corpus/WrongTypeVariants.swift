import Foundation

/// Copies of a parsed JSON tree with one value replaced by a value of another type, for every value in it.
package enum WrongTypeVariants {
    /// Every variant with its path (`projects[0].panes[0].viewMode`), in document order.
    package static func every(in tree: Any) -> [(path: String, tree: Any)] {
        var variants: [(String, Any)] = []
        collect(tree, path: "", replace: { $0 }, into: &variants)
        return variants
    }

    /// A value of another type than `value`'s.
    package static func otherType(than value: Any) -> Any {
        switch value {
        case is String: return 12_345
        case is [Any]: return ["wrong": "type"]
        case is [String: Any]: return [1, 2, 3]
        case is NSNull: return [Any]()
        default: return "not a number"
        }
    }

    /// Adds a variant for `value` and recurses into its children; `replace` rebuilds the whole tree with a new
    /// value where `value` was.
    private static func collect(
        _ value: Any, path: String, replace: @escaping (Any) -> Any, into variants: inout [(String, Any)]
    ) {
        if !path.isEmpty { variants.append((path, replace(otherType(than: value)))) }
        if let object = value as? [String: Any] {
            for key in object.keys.sorted() {
                collect(
                    object[key]!, path: path.isEmpty ? key : path + "." + key,
                    replace: { child in
                        var copy = object
                        copy[key] = child
                        return replace(copy)
                    }, into: &variants)
            }
        } else if let array = value as? [Any] {
            for index in array.indices {
                collect(
                    array[index], path: path + "[\(index)]",
                    replace: { child in
                        var copy = array
                        copy[index] = child
                        return replace(copy)
                    }, into: &variants)
            }
        }
    }
}
