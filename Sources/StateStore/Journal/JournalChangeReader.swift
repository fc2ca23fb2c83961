import FoundationEssentials

/// Reads the change of a journal record, as a start's replay and a read of the past both do: by the change type's
/// direct reader when it has one (`StateDirectDecodable`, as `@StateModel` types and `WorkspaceChange` have), through
/// `JSONDecoder` otherwise or when the direct reader refuses the bytes (which then gives the same change or the
/// error).
///
/// The direct reader is found once, when the reader is made, not per record: asking `Change.self as? any
/// StateDirectDecodable.Type` and casting the existential it returned back to `Change` for every record would
/// cost a dynamic cast and a heap box per change. A ``Session`` reads its records with one
/// `StateDirectReader`, restarted on each record's bytes, so the reader's storage is allocated once.
///
/// `@unchecked Sendable`: it holds one immutable function, which reads only its argument; it is not `@Sendable`
/// because it names the direct reader's type, `Change` under a name the compiler cannot prove sendable.
struct JournalChangeReader<Change: Decodable & SendableMetatype>: @unchecked Sendable {
    private let direct: ((inout StateDirectReader) -> Change?)?
    private let directDocuments:
        ((UnsafeBufferPointer<UnsafeRawBufferPointer>) -> (values: [Change?], refusedCount: Int))?

    /// A reader of `Change`'s records.
    init() {
        if let directType = Change.self as? any StateDirectDecodable.Type {
            direct = Self.directReader(directType)
            directDocuments = Self.directDocumentsReader(directType)
        } else {
            direct = nil
            directDocuments = nil
        }
    }

    /// The change each of `documents` holds, in order, by the direct reader (in the change type's own module,
    /// `StateDirectDecodable.readDocuments`); `nil` where it refused one or the type has none: read those with
    /// ``read(_:)``. With them, how many are `nil`.
    func readDirectly(
        _ documents: UnsafeBufferPointer<UnsafeRawBufferPointer>
    ) -> (values: [Change?], refusedCount: Int) {
        directDocuments?(documents) ?? ([Change?](repeating: nil, count: documents.count), documents.count)
    }

    /// Reads records one after the other on one thread, reusing one direct reader.
    struct Session {
        let reader: JournalChangeReader
        private var scratch: StateDirectReader?

        init(_ reader: JournalChangeReader) {
            self.reader = reader
        }

        /// The change `bytes` hold (an array's slice, or a history segment's, which may map its file).
        ///
        /// - Throws: `JSONDecoder`'s error when neither reader reads them.
        mutating func read(_ bytes: some ContiguousBytes) throws -> Change {
            if let direct = reader.direct {
                let read = bytes.withUnsafeBytes { raw -> Change? in
                    if scratch == nil {
                        scratch = StateDirectReader(bytes: raw)
                    } else {
                        scratch!.restart(bytes: raw)
                    }
                    return direct(&scratch!)
                }
                if let read { return read }
            }
            return try JSONDecoder().decode(Change.self, from: bytes as? Data ?? bytes.withUnsafeBytes { Data($0) })
        }
    }

    /// The change `bytes` hold, read by a session of its own (for a single record).
    ///
    /// - Throws: `JSONDecoder`'s error when neither reader reads them.
    func read(_ bytes: ArraySlice<UInt8>) throws -> Change {
        var session = Session(self)
        return try session.read(bytes)
    }

    /// The documents' reader of `Direct`, which is `Change` (see ``directReader(_:)``).
    private static func directDocumentsReader<Direct: StateDirectDecodable>(
        _ type: Direct.Type
    ) -> (UnsafeBufferPointer<UnsafeRawBufferPointer>) -> (values: [Change?], refusedCount: Int) {
        precondition(Direct.self == Change.self, "the direct reader of another type than the change's")
        return { documents in
            let read = Direct.readDocuments(documents)
            return (unsafeBitCast(read.values, to: [Change?].self), read.refusedCount)
        }
    }

    /// The direct reader of `Direct`, which is `Change` (the caller found it by casting `Change.self`): reads the
    /// reader's document whole, or gives `nil`.
    private static func directReader<Direct: StateDirectDecodable>(
        _ type: Direct.Type
    ) -> (inout StateDirectReader) -> Change? {
        precondition(Direct.self == Change.self, "the direct reader of another type than the change's")
        return { reader in
            guard let value = try? Direct(stateReader: &reader), (try? reader.finish()) != nil else { return nil }
            // `Direct` is `Change`: the same type under its two names, so the bits are the value.
            return unsafeBitCast(value, to: Change.self)
        }
    }
}
