import MacroTesting
import Testing

/// What `@StateModel` generates, as source: each shape of property and of struct the shipped models use.
@Suite(.macros(stateModelMacros, record: .missing))
struct ExpansionTests {
    @Test func requiredOptionalDefaultedAndUnknownFields() {
        assertMacro {
            """
            @StateModel
            public struct Note: Sendable {
                public var id: String
                @StateKey("display_title") public var title: String
                public var pinned: Bool = false
                public var createdAt: Date?
                public var unknownFields = UnknownFields()
            }
            """
        } expansion: {
            """
            public struct Note: Sendable {
                public var id: String
                public var title: String
                public var pinned: Bool = false
                public var createdAt: Date?
                public var unknownFields = UnknownFields()

                public init(
                    id: String,
                    title: String,
                    pinned: Bool = false,
                    createdAt: Date? = nil,
                    unknownFields: UnknownFields = UnknownFields()
                ) {
                    self.id = id
                    self.title = title
                    self.pinned = pinned
                    self.createdAt = createdAt
                    self.unknownFields = unknownFields
                }

                private struct StateCodingKeys: CodingKey {
                    let stringValue: String

                    var intValue: Int? {
                        nil
                    }

                    init(_ declared: String) {
                        self.stringValue = declared
                    }

                    init?(stringValue: String) {
                        switch stringValue {
                        case "id", "display_title", "pinned", "createdAt":
                            return nil
                        default:
                            self.stringValue = stringValue
                        }
                    }

                    init?(intValue: Int) {
                        nil
                    }
                }

                public init(from decoder: any Decoder) throws {
                    let container = try decoder.container(keyedBy: StateCodingKeys.self)
                    self.id = try container.decode(String.self, forKey: StateCodingKeys("id"))
                    self.title = try container.decode(String.self, forKey: StateCodingKeys("display_title"))
                    self.pinned = try container.decodeIfPresent(Bool.self, forKey: StateCodingKeys("pinned"))
                        ?? container.defaulted(false, forKey: StateCodingKeys("pinned"), in: decoder)
                    self.createdAt = try container.decodeIfPresent(Date.self, forKey: StateCodingKeys("createdAt"))
                    self.unknownFields = try UnknownFields(undeclaredKeysOf: container, in: decoder)
                }

                public init(salvaging decoder: any Decoder) throws {
                    let container = try decoder.container(keyedBy: StateCodingKeys.self)
                    self.id = try container.salvage(String.self, forKey: StateCodingKeys("id"), in: decoder)
                    self.title = try container.salvage(String.self, forKey: StateCodingKeys("display_title"), in: decoder)
                    self.pinned = container.salvage(
                        Bool.self, forKey: StateCodingKeys("pinned"), defaultingTo: false, in: decoder)
                    self.createdAt = container.salvageIfPresent(Date.self, forKey: StateCodingKeys("createdAt"), in: decoder)
                    self.unknownFields = try UnknownFields(undeclaredKeysOf: container, in: decoder)
                }

                public func encode(to encoder: any Encoder) throws {
                    var container = encoder.container(keyedBy: AnyCodingKey.self)
                    try self.unknownFields.encode(to: &container, skipping: ["id", "display_title", "pinned", "createdAt"])
                    try container.encodeIfPresent(self.createdAt, forKey: AnyCodingKey("createdAt"))
                    try container.encode(self.title, forKey: AnyCodingKey("display_title"))
                    try container.encode(self.id, forKey: AnyCodingKey("id"))
                    try container.encode(self.pinned, forKey: AnyCodingKey("pinned"))
                }
            }

            extension Note: Decodable, Encodable, StateSalvageable {
            }
            """
        }
    }

    @Test func decodableOnlyFrozenVersionGetsNoEncodeAndNoConformance() {
        assertMacro {
            """
            @StateModel
            struct PaneV1: Decodable, Sendable {
                let id: WorkspaceID
                var viewMode: Int
                var unknownFields: UnknownFields
            }
            """
        } expansion: {
            """
            struct PaneV1: Decodable, Sendable {
                let id: WorkspaceID
                var viewMode: Int
                var unknownFields: UnknownFields

                init(
                    id: WorkspaceID,
                    viewMode: Int,
                    unknownFields: UnknownFields = UnknownFields()
                ) {
                    self.id = id
                    self.viewMode = viewMode
                    self.unknownFields = unknownFields
                }

                private struct StateCodingKeys: CodingKey {
                    let stringValue: String

                    var intValue: Int? {
                        nil
                    }

                    init(_ declared: String) {
                        self.stringValue = declared
                    }

                    init?(stringValue: String) {
                        switch stringValue {
                        case "id", "viewMode":
                            return nil
                        default:
                            self.stringValue = stringValue
                        }
                    }

                    init?(intValue: Int) {
                        nil
                    }
                }

                init(from decoder: any Decoder) throws {
                    let container = try decoder.container(keyedBy: StateCodingKeys.self)
                    self.id = try container.decode(WorkspaceID.self, forKey: StateCodingKeys("id"))
                    self.viewMode = try container.decode(Int.self, forKey: StateCodingKeys("viewMode"))
                    self.unknownFields = try UnknownFields(undeclaredKeysOf: container, in: decoder)
                }

                init(salvaging decoder: any Decoder) throws {
                    let container = try decoder.container(keyedBy: StateCodingKeys.self)
                    self.id = try container.salvage(WorkspaceID.self, forKey: StateCodingKeys("id"), in: decoder)
                    self.viewMode = try container.salvage(Int.self, forKey: StateCodingKeys("viewMode"), in: decoder)
                    self.unknownFields = try UnknownFields(undeclaredKeysOf: container, in: decoder)
                }
            }

            extension PaneV1: StateSalvageable {
            }
            """
        }
    }

    @Test func ownInitializerWritesNullCoderKeywordNameAndGenerics() {
        assertMacro {
            """
            @StateModel
            package struct Record<Item: Codable & Sendable>: Codable, Sendable {
                var items: [Item]
                @StateWritesNull var active: String?
                @StateCoder(LowercaseUUIDCoder.self) var id: UUID
                var `default`: Optional<Int>
                static let limit = 10
                var tags: [String] = [] {
                    didSet { print(tags) }
                }

                init(items: [Item]) {
                    self.items = items
                    self.active = nil
                    self.id = UUID()
                    self.default = nil
                }
            }
            """
        } expansion: {
            """
            package struct Record<Item: Codable & Sendable>: Codable, Sendable {
                var items: [Item]
                var active: String?
                var id: UUID
                var `default`: Optional<Int>
                static let limit = 10
                var tags: [String] = [] {
                    didSet { print(tags) }
                }

                init(items: [Item]) {
                    self.items = items
                    self.active = nil
                    self.id = UUID()
                    self.default = nil
                }

                private struct StateCodingKeys: CodingKey {
                    let stringValue: String

                    var intValue: Int? {
                        nil
                    }

                    init(_ declared: String) {
                        self.stringValue = declared
                    }

                    init?(stringValue: String) {
                        switch stringValue {
                        case "items", "active", "id", "default", "tags":
                            return nil
                        default:
                            self.stringValue = stringValue
                        }
                    }

                    init?(intValue: Int) {
                        nil
                    }
                }

                package init(from decoder: any Decoder) throws {
                    let container = try decoder.container(keyedBy: StateCodingKeys.self)
                    self.items = try container.decode([Item].self, forKey: StateCodingKeys("items"))
                    self.active = try container.decodeIfPresent(String.self, forKey: StateCodingKeys("active"))
                    self.id = try LowercaseUUIDCoder.decode(from: container, forKey: StateCodingKeys("id"))
                    self.`default` = try container.decodeIfPresent(Int.self, forKey: StateCodingKeys("default"))
                    self.tags = try container.decodeIfPresent([String].self, forKey: StateCodingKeys("tags"))
                        ?? container.defaulted([], forKey: StateCodingKeys("tags"), in: decoder)
                }

                package init(salvaging decoder: any Decoder) throws {
                    let container = try decoder.container(keyedBy: StateCodingKeys.self)
                    self.items = try container.salvage([Item].self, forKey: StateCodingKeys("items"), in: decoder)
                    self.active = container.salvageIfPresent(String.self, forKey: StateCodingKeys("active"), in: decoder)
                    self.id = try LowercaseUUIDCoder.decode(from: container, forKey: StateCodingKeys("id"))
                    self.`default` = container.salvageIfPresent(Int.self, forKey: StateCodingKeys("default"), in: decoder)
                    self.tags = container.salvage(
                        [String].self, forKey: StateCodingKeys("tags"), defaultingTo: [], in: decoder)
                }

                package func encode(to encoder: any Encoder) throws {
                    var container = encoder.container(keyedBy: AnyCodingKey.self)
                    try container.encode(self.active, forKey: AnyCodingKey("active"))
                    try container.encodeIfPresent(self.`default`, forKey: AnyCodingKey("default"))
                    try LowercaseUUIDCoder.encode(self.id, to: &container, forKey: AnyCodingKey("id"))
                    try container.encode(self.items, forKey: AnyCodingKey("items"))
                    try container.encode(self.tags, forKey: AnyCodingKey("tags"))
                }
            }

            extension Record: StateSalvageable {
            }
            """
        }
    }

    @Test func withoutUnknownFieldsNothingIsCaptured() {
        assertMacro {
            """
            @StateModel
            struct Point {
                var x: Double
                var y: Double
            }
            """
        } expansion: {
            """
            struct Point {
                var x: Double
                var y: Double

                init(
                    x: Double,
                    y: Double
                ) {
                    self.x = x
                    self.y = y
                }

                private struct StateCodingKeys: CodingKey {
                    let stringValue: String

                    var intValue: Int? {
                        nil
                    }

                    init(_ declared: String) {
                        self.stringValue = declared
                    }

                    init?(stringValue: String) {
                        switch stringValue {
                        case "x", "y":
                            return nil
                        default:
                            self.stringValue = stringValue
                        }
                    }

                    init?(intValue: Int) {
                        nil
                    }
                }

                init(from decoder: any Decoder) throws {
                    let container = try decoder.container(keyedBy: StateCodingKeys.self)
                    self.x = try container.decode(Double.self, forKey: StateCodingKeys("x"))
                    self.y = try container.decode(Double.self, forKey: StateCodingKeys("y"))
                }

                init(salvaging decoder: any Decoder) throws {
                    let container = try decoder.container(keyedBy: StateCodingKeys.self)
                    self.x = try container.salvage(Double.self, forKey: StateCodingKeys("x"), in: decoder)
                    self.y = try container.salvage(Double.self, forKey: StateCodingKeys("y"), in: decoder)
                }

                func encode(to encoder: any Encoder) throws {
                    var container = encoder.container(keyedBy: AnyCodingKey.self)
                    try container.encode(self.x, forKey: AnyCodingKey("x"))
                    try container.encode(self.y, forKey: AnyCodingKey("y"))
                }
            }

            extension Point: Decodable, Encodable, StateSalvageable {
            }
            """
        }
    }

    @Test func recordsArraysAndTheSalvageInitializer() {
        assertMacro {
            """
            @StateModel
            struct Project {
                var name: String
                @StateRecords var panes: [Pane]
                @StateRecords var tabs: [Tab] = []
                @StateRecords var archived: Array<Pane>?
                var tags: [String] = []
                var count: Int = 0
                var note: String?
                var unknownFields = UnknownFields()
            }
            """
        } expansion: {
            """
            struct Project {
                var name: String
                var panes: [Pane]
                var tabs: [Tab] = []
                var archived: Array<Pane>?
                var tags: [String] = []
                var count: Int = 0
                var note: String?
                var unknownFields = UnknownFields()

                init(
                    name: String,
                    panes: [Pane],
                    tabs: [Tab] = [],
                    archived: Array<Pane>? = nil,
                    tags: [String] = [],
                    count: Int = 0,
                    note: String? = nil,
                    unknownFields: UnknownFields = UnknownFields()
                ) {
                    self.name = name
                    self.panes = panes
                    self.tabs = tabs
                    self.archived = archived
                    self.tags = tags
                    self.count = count
                    self.note = note
                    self.unknownFields = unknownFields
                }

                private struct StateCodingKeys: CodingKey {
                    let stringValue: String

                    var intValue: Int? {
                        nil
                    }

                    init(_ declared: String) {
                        self.stringValue = declared
                    }

                    init?(stringValue: String) {
                        switch stringValue {
                        case "name", "panes", "tabs", "archived", "tags", "count", "note":
                            return nil
                        default:
                            self.stringValue = stringValue
                        }
                    }

                    init?(intValue: Int) {
                        nil
                    }
                }

                init(from decoder: any Decoder) throws {
                    let container = try decoder.container(keyedBy: StateCodingKeys.self)
                    self.name = try container.decode(String.self, forKey: StateCodingKeys("name"))
                    self.panes = try container.decode([Pane].self, forKey: StateCodingKeys("panes"))
                    self.tabs = try container.decodeIfPresent([Tab].self, forKey: StateCodingKeys("tabs"))
                        ?? container.defaulted([], forKey: StateCodingKeys("tabs"), in: decoder)
                    self.archived = try container.decodeIfPresent(Array<Pane>.self, forKey: StateCodingKeys("archived"))
                    self.tags = try container.decodeIfPresent([String].self, forKey: StateCodingKeys("tags"))
                        ?? container.defaulted([], forKey: StateCodingKeys("tags"), in: decoder)
                    self.count = try container.decodeIfPresent(Int.self, forKey: StateCodingKeys("count"))
                        ?? container.defaulted(0, forKey: StateCodingKeys("count"), in: decoder)
                    self.note = try container.decodeIfPresent(String.self, forKey: StateCodingKeys("note"))
                    self.unknownFields = try UnknownFields(undeclaredKeysOf: container, in: decoder)
                }

                init(salvaging decoder: any Decoder) throws {
                    let container = try decoder.container(keyedBy: StateCodingKeys.self)
                    self.name = try container.salvage(String.self, forKey: StateCodingKeys("name"), in: decoder)
                    self.panes = try container.salvageRecords(Pane.self, forKey: StateCodingKeys("panes"), in: decoder)
                    self.tabs = container.salvageRecords(
                        Tab.self, forKey: StateCodingKeys("tabs"), defaultingTo: [], in: decoder)
                    self.archived = container.salvageRecordsIfPresent(Pane.self, forKey: StateCodingKeys("archived"), in: decoder)
                    self.tags = container.salvage(
                        [String].self, forKey: StateCodingKeys("tags"), defaultingTo: [], in: decoder)
                    self.count = container.salvage(
                        Int.self, forKey: StateCodingKeys("count"), defaultingTo: 0, in: decoder)
                    self.note = container.salvageIfPresent(String.self, forKey: StateCodingKeys("note"), in: decoder)
                    self.unknownFields = try UnknownFields(undeclaredKeysOf: container, in: decoder)
                }

                func encode(to encoder: any Encoder) throws {
                    var container = encoder.container(keyedBy: AnyCodingKey.self)
                    try self.unknownFields.encode(to: &container, skipping: ["name", "panes", "tabs", "archived", "tags", "count", "note"])
                    try container.encodeIfPresent(self.archived, forKey: AnyCodingKey("archived"))
                    try container.encode(self.count, forKey: AnyCodingKey("count"))
                    try container.encode(self.name, forKey: AnyCodingKey("name"))
                    try container.encodeIfPresent(self.note, forKey: AnyCodingKey("note"))
                    try container.encode(self.panes, forKey: AnyCodingKey("panes"))
                    try container.encode(self.tabs, forKey: AnyCodingKey("tabs"))
                    try container.encode(self.tags, forKey: AnyCodingKey("tags"))
                }
            }

            extension Project: Decodable, Encodable, StateSalvageable {
            }
            """
        }
    }
}
