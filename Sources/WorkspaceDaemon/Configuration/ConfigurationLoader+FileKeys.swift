import FoundationEssentials
import StateJSON
import StateStore

extension ConfigurationLoader {
    /// The configuration file at `path`, read once for both its key check and its values: its bytes as read, and
    /// as the JSON reader takes them (``ConfigurationJSONText/strict(_:)``).
    static func readConfigurationFile(_ path: String) throws(ConfigurationError) -> (data: Data, strict: [UInt8]) {
        let data: Data
        do {
            guard let bytes = try PosixFileSystem().readFile(at: path) else {
                throw ConfigurationError.unreadableFile(path: path, reason: "no such file")
            }
            data = bytes
        } catch let error as ConfigurationError {
            throw error
        } catch {
            throw .unreadableFile(path: path, reason: "\(error)")
        }
        // A byte order mark and commas that only close a list are taken out, as Foundation's JSONSerialization,
        // the file's earlier parser, took them.
        return (data, ConfigurationJSONText.strict([UInt8](data)))
    }

    /// The keys of the file at `path` (`data` as read, `strict` as the reader takes it), flattened to dotted
    /// names, that are not known keys; a known object key (`save`) holding anything but an object is refused.
    /// Reported in the order of a walk of the keys sorted at each level.
    ///
    /// The file is read with the state file's JSON reader, as ``ConfigurationFileSnapshot`` reads its values: a
    /// Foundation parse (its `Any` values cast back to dictionaries, each first cast a scan of the binary's
    /// conformance records) cost 0.6 ms of every start, and the daemon links FoundationEssentials only.
    static func unknownFileKeys(
        _ data: Data, strict: [UInt8], path: String
    ) throws(ConfigurationError) -> [IgnoredConfigurationKey] {
        let known = Set(ConfigurationKey.all.map(\.name))
        let walk: ConfigurationFileKeys
        do {
            walk = try strict.withUnsafeBytes { raw in try ConfigurationFileKeys(raw, known: known) }
        } catch ConfigurationFileKeys.Failure.topLevelNotAnObject {
            throw .unreadableFile(path: path, reason: "the top level is not a JSON object")
        } catch {
            throw .unreadableFile(path: path, reason: invalidJSON(data, error: error))
        }
        if let first = walk.notObjects.first {
            throw .wrongType(key: first, expected: "an object", source: path)
        }
        let sortedKnown = known.sorted()
        return walk.unknown.map { name in
            IgnoredConfigurationKey(
                key: name, source: path, suggestion: IgnoredConfigurationKey.closest(to: name, among: sortedKnown))
        }
    }
}

/// The keys of a configuration file that are not known keys, and the known object keys (`save`) that hold
/// anything else, each as a dotted name in the order of a walk of the keys sorted at each level.
struct ConfigurationFileKeys {
    /// Why a file's keys could not be walked, besides a malformed document.
    enum Failure: Error {
        /// The document is JSON, but not an object.
        case topLevelNotAnObject
    }

    /// Unknown keys: reported and otherwise ignored.
    private(set) var unknown: [String] = []
    /// Known object keys that hold something else: refused.
    private(set) var notObjects: [String] = []

    /// Walks the JSON document in `bytes` against the `known` dotted names.
    init(_ bytes: UnsafeRawBufferPointer, known: Set<String>) throws {
        let prefixes = Self.objectKeys(of: known)
        var reader = JSONPullReader(bytes: bytes)
        guard try reader.peekKind() == .object else { throw Failure.topLevelNotAnObject }
        var unknownPaths: Set<[String]> = []
        var notObjectPaths: Set<[String]> = []
        func visit(_ prefix: [String]) throws {
            try reader.beginObject()
            while let key = try reader.nextKey() {
                let path = prefix + [key.string]
                let name = path.joined(separator: ".")
                if !known.contains(name), prefixes.contains(name), try reader.peekKind() == .object {
                    try visit(path)
                    continue
                }
                _ = try reader.skipValue(checkingValues: true)
                if known.contains(name) { continue }
                if prefixes.contains(name) {
                    notObjectPaths.insert(path)
                } else {
                    unknownPaths.insert(path)
                }
            }
        }
        try visit([])
        try reader.finish()
        // A walk of the keys sorted at each level meets the paths in the lexicographic order of their parts.
        let walkOrder = { (left: [String], right: [String]) in left.lexicographicallyPrecedes(right) }
        unknown = unknownPaths.sorted(by: walkOrder).map { $0.joined(separator: ".") }
        notObjects = notObjectPaths.sorted(by: walkOrder).map { $0.joined(separator: ".") }
    }

    /// The dotted names that hold other keys (`save` of `save.debounceMilliseconds`): each name's text before each
    /// of its dots. (Cut from the name itself: joining its split parts back goes through a generic `joined` whose
    /// first use looked up conformances, 0.26 ms of a start.)
    static func objectKeys(of names: Set<String>) -> Set<String> {
        var prefixes: Set<String> = []
        for name in names {
            var rest = name[...]
            while let dot = rest.firstIndex(of: ".") {
                prefixes.insert(String(name[..<dot]))
                rest = name[name.index(after: dot)...]
            }
        }
        return prefixes
    }
}
