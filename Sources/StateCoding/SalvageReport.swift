/// What a salvage pass changed to read a state file the strict decode refused: the records it dropped, the
/// values it converted and the fields it gave their default, each by its path in the stored file.
///
/// Paths name the file as it was stored (before any migration), with array positions, such as
/// `projects[2].panes[0]` or `owner.age`.
public struct SalvageReport: Sendable, Equatable {
    /// Why the strict decode refused the file.
    public var reason: String
    /// Records left out because they could not be read, in file order.
    public var droppedRecords: [DroppedRecord] = []
    /// Values converted to the declared type, in file order.
    public var coercedFields: [CoercedField] = []
    /// Fields whose value could not be read and that took their default (or `nil`), in file order.
    public var defaultedFields: [DefaultedField] = []
    /// Where the original bytes were kept before the salvaged state was used; `nil` when nothing was kept (a
    /// read-only load, such as `check`).
    public var originalKeptAt: String?

    /// A report for a file refused for `reason`.
    public init(reason: String) {
        self.reason = reason
    }

    /// Every change the salvage made: dropped records, coerced and defaulted fields.
    public var changeCount: Int { droppedRecords.count + coercedFields.count + defaultedFields.count }

    /// One line: how many records were dropped and fields coerced or defaulted.
    public var summary: String {
        "\(Self.count(droppedRecords.count, "record")) dropped, "
            + "\(Self.count(coercedFields.count, "field")) coerced, "
            + "\(Self.count(defaultedFields.count, "field")) defaulted"
    }

    /// Every change as a line, in the order dropped, coerced, defaulted.
    public var details: [String] {
        droppedRecords.map(\.description) + coercedFields.map(\.description) + defaultedFields.map(\.description)
    }

    private static func count(_ value: Int, _ noun: String) -> String {
        "\(value) \(noun)\(value == 1 ? "" : "s")"
    }

    /// A record left out.
    public struct DroppedRecord: Codable, Sendable, Equatable, CustomStringConvertible {
        /// Where it was: `projects[2].panes[0]`.
        public var path: String
        /// Its `id` when one could be read, so that a person can find it in the original file.
        public var id: String?
        /// Why it could not be read.
        public var reason: String

        /// A dropped record.
        public init(path: String, id: String?, reason: String) {
            self.path = path
            self.id = id
            self.reason = reason
        }

        /// `dropped projects[2].panes[0] (id 6f1c…): wrong type at …`.
        public var description: String {
            "dropped \(path)\(id.map { " (id \($0))" } ?? ""): \(reason)"
        }
    }

    /// A value converted to the declared type.
    public struct CoercedField: Codable, Sendable, Equatable, CustomStringConvertible {
        /// Where it was: `owner.age`.
        public var path: String
        /// The value as stored, as JSON: `36`.
        public var from: String
        /// The value as read, as JSON: `"36"`.
        public var to: String

        /// A coerced field.
        public init(path: String, from: String, to: String) {
            self.path = path
            self.from = from
            self.to = to
        }

        /// `coerced owner.age from 36 to "36"`.
        public var description: String { "coerced \(path) from \(from) to \(to)" }
    }

    /// A field whose value could not be read and that took its default.
    public struct DefaultedField: Codable, Sendable, Equatable, CustomStringConvertible {
        /// Where it was: `favorites[0].createdAt`.
        public var path: String
        /// Why the stored value could not be read.
        public var reason: String

        /// A defaulted field.
        public init(path: String, reason: String) {
            self.path = path
            self.reason = reason
        }

        /// `defaulted favorites[0].createdAt: wrong type …`.
        public var description: String { "defaulted \(path): \(reason)" }
    }
}
