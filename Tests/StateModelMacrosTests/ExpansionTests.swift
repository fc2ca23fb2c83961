import MacroTesting
import TestSupport
import Testing

/// What `@StateModel` generates, as source: each shape of property and of struct the shipped models use.
@Suite(.macros(stateModelMacros, record: .missing), .heavy)
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

                public init(stateReader reader: inout StateDirectReader) throws {
                    var _id: Optional<String> = nil
                    var _title: Optional<String> = nil
                    var _pinned: Optional<Bool> = nil
                    var _createdAt: Optional<Date> = nil
                    var _unknownFields = UnknownFields()
                    var seenKeys0: UInt64 = 0
                    try reader.beginObject()
                    while let key = try reader.nextKey() {
                        if key.matches("id") {
                            try reader.claim(key, bit: 0, of: &seenKeys0)
                            _id = try reader.read(String.self, at: "id")
                        } else if key.matches("display_title") {
                            try reader.claim(key, bit: 1, of: &seenKeys0)
                            _title = try reader.read(String.self, at: "display_title")
                        } else if key.matches("pinned") {
                            try reader.claim(key, bit: 2, of: &seenKeys0)
                            _pinned = try reader.readIfPresent(Bool.self, at: "pinned")
                        } else if key.matches("createdAt") {
                            try reader.claim(key, bit: 3, of: &seenKeys0)
                            _createdAt = try reader.readIfPresent(Date.self, at: "createdAt")
                        } else {
                            try reader.keepUnknown(key, in: &_unknownFields)
                        }
                    }
                    self.id = try reader.required(_id, "id")
                    self.title = try reader.required(_title, "display_title")
                    if let _pinned {
                        self.pinned = _pinned
                    } else {
                        self.pinned = reader.defaulted(false, "pinned")
                    }
                    self.createdAt = _createdAt
                    self.unknownFields = _unknownFields
                }

                public func encode(to encoder: any Encoder) throws {
                    var container = encoder.container(keyedBy: AnyCodingKey.self)
                    try self.unknownFields.encode(to: &container, skipping: ["id", "display_title", "pinned", "createdAt"])
                    try container.encodeIfPresent(self.createdAt, forKey: AnyCodingKey("createdAt"))
                    try container.encode(self.title, forKey: AnyCodingKey("display_title"))
                    try container.encode(self.id, forKey: AnyCodingKey("id"))
                    try container.encode(self.pinned, forKey: AnyCodingKey("pinned"))
                }

                public func write(stateWriter writer: inout StateDirectWriter) throws {
                    writer.beginObject(keeping: self.unknownFields, declared: ["id", "display_title", "pinned", "createdAt"])
                    if let value = self.createdAt {
                        try writer.member("createdAt")
                        try writer.write(value)
                    }
                    try writer.member("display_title")
                    try writer.write(self.title)
                    try writer.member("id")
                    try writer.write(self.id)
                    try writer.member("pinned")
                    try writer.write(self.pinned)
                    try writer.endObject()
                }
            }

            extension Note: Decodable, Encodable, StateSalvageable, StateDirectDecodable, StateDirectEncodable {
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

                init(stateReader reader: inout StateDirectReader) throws {
                    var _id: Optional<WorkspaceID> = nil
                    var _viewMode: Optional<Int> = nil
                    var _unknownFields = UnknownFields()
                    var seenKeys0: UInt64 = 0
                    try reader.beginObject()
                    while let key = try reader.nextKey() {
                        if key.matches("id") {
                            try reader.claim(key, bit: 0, of: &seenKeys0)
                            _id = try reader.read(WorkspaceID.self, at: "id")
                        } else if key.matches("viewMode") {
                            try reader.claim(key, bit: 1, of: &seenKeys0)
                            _viewMode = try reader.read(Int.self, at: "viewMode")
                        } else {
                            try reader.keepUnknown(key, in: &_unknownFields)
                        }
                    }
                    self.id = try reader.required(_id, "id")
                    self.viewMode = try reader.required(_viewMode, "viewMode")
                    self.unknownFields = _unknownFields
                }
            }

            extension PaneV1: StateSalvageable, StateDirectDecodable {
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

                package var unknownFields = UnknownFields()

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
                    self.unknownFields = try UnknownFields(undeclaredKeysOf: container, in: decoder)
                }

                package init(salvaging decoder: any Decoder) throws {
                    let container = try decoder.container(keyedBy: StateCodingKeys.self)
                    self.items = try container.salvage([Item].self, forKey: StateCodingKeys("items"), in: decoder)
                    self.active = container.salvageIfPresent(String.self, forKey: StateCodingKeys("active"), in: decoder)
                    self.id = try LowercaseUUIDCoder.decode(from: container, forKey: StateCodingKeys("id"))
                    self.`default` = container.salvageIfPresent(Int.self, forKey: StateCodingKeys("default"), in: decoder)
                    self.tags = container.salvage(
                        [String].self, forKey: StateCodingKeys("tags"), defaultingTo: [], in: decoder)
                    self.unknownFields = try UnknownFields(undeclaredKeysOf: container, in: decoder)
                }

                package init(stateReader reader: inout StateDirectReader) throws {
                    var _items: Optional<[Item]> = nil
                    var _active: Optional<String> = nil
                    var _id: Optional<UUID> = nil
                    var _default: Optional<Int> = nil
                    var _tags: Optional<[String]> = nil
                    var _unknownFields = UnknownFields()
                    var seenKeys0: UInt64 = 0
                    try reader.beginObject()
                    while let key = try reader.nextKey() {
                        if key.matches("items") {
                            try reader.claim(key, bit: 0, of: &seenKeys0)
                            _items = try reader.read([Item].self, at: "items")
                        } else if key.matches("active") {
                            try reader.claim(key, bit: 1, of: &seenKeys0)
                            _active = try reader.readIfPresent(String.self, at: "active")
                        } else if key.matches("id") {
                            try reader.claim(key, bit: 2, of: &seenKeys0)
                            _id = try reader.read(with: LowercaseUUIDCoder.self, at: "id")
                        } else if key.matches("default") {
                            try reader.claim(key, bit: 3, of: &seenKeys0)
                            _default = try reader.readIfPresent(Int.self, at: "default")
                        } else if key.matches("tags") {
                            try reader.claim(key, bit: 4, of: &seenKeys0)
                            _tags = try reader.readIfPresent([String].self, at: "tags")
                        } else {
                            try reader.keepUnknown(key, in: &_unknownFields)
                        }
                    }
                    self.items = try reader.required(_items, "items")
                    self.active = _active
                    self.id = try reader.required(_id, "id")
                    self.`default` = _default
                    if let _tags {
                        self.tags = _tags
                    } else {
                        self.tags = reader.defaulted([], "tags")
                    }
                    self.unknownFields = _unknownFields
                }

                package func encode(to encoder: any Encoder) throws {
                    var container = encoder.container(keyedBy: AnyCodingKey.self)
                    try self.unknownFields.encode(to: &container, skipping: ["items", "active", "id", "default", "tags"])
                    try container.encode(self.active, forKey: AnyCodingKey("active"))
                    try container.encodeIfPresent(self.`default`, forKey: AnyCodingKey("default"))
                    try LowercaseUUIDCoder.encode(self.id, to: &container, forKey: AnyCodingKey("id"))
                    try container.encode(self.items, forKey: AnyCodingKey("items"))
                    try container.encode(self.tags, forKey: AnyCodingKey("tags"))
                }

                package func write(stateWriter writer: inout StateDirectWriter) throws {
                    writer.beginObject(keeping: self.unknownFields, declared: ["items", "active", "id", "default", "tags"])
                    try writer.member("active")
                    try writer.write(self.active)
                    if let value = self.`default` {
                        try writer.member("default")
                        try writer.write(value)
                    }
                    try writer.member("id")
                    try writer.write(self.id, with: LowercaseUUIDCoder.self)
                    try writer.member("items")
                    try writer.write(self.items)
                    try writer.member("tags")
                    try writer.write(self.tags)
                    try writer.endObject()
                }
            }

            extension Record: StateSalvageable, StateDirectDecodable, StateDirectEncodable {
            }
            """
        }
    }

    /// Issue 41: a struct that declares no `UnknownFields` property gets one, so that a newer file's fields are
    /// kept by every save without the model asking.
    @Test func withoutUnknownFieldsAGeneratedPropertyKeepsThem() {
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

                var unknownFields = UnknownFields()

                init(
                    x: Double,
                    y: Double,
                    unknownFields: UnknownFields = UnknownFields()
                ) {
                    self.x = x
                    self.y = y
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
                    self.unknownFields = try UnknownFields(undeclaredKeysOf: container, in: decoder)
                }

                init(salvaging decoder: any Decoder) throws {
                    let container = try decoder.container(keyedBy: StateCodingKeys.self)
                    self.x = try container.salvage(Double.self, forKey: StateCodingKeys("x"), in: decoder)
                    self.y = try container.salvage(Double.self, forKey: StateCodingKeys("y"), in: decoder)
                    self.unknownFields = try UnknownFields(undeclaredKeysOf: container, in: decoder)
                }

                init(stateReader reader: inout StateDirectReader) throws {
                    var _x: Optional<Double> = nil
                    var _y: Optional<Double> = nil
                    var _unknownFields = UnknownFields()
                    var seenKeys0: UInt64 = 0
                    try reader.beginObject()
                    while let key = try reader.nextKey() {
                        if key.matches("x") {
                            try reader.claim(key, bit: 0, of: &seenKeys0)
                            _x = try reader.read(Double.self, at: "x")
                        } else if key.matches("y") {
                            try reader.claim(key, bit: 1, of: &seenKeys0)
                            _y = try reader.read(Double.self, at: "y")
                        } else {
                            try reader.keepUnknown(key, in: &_unknownFields)
                        }
                    }
                    self.x = try reader.required(_x, "x")
                    self.y = try reader.required(_y, "y")
                    self.unknownFields = _unknownFields
                }

                func encode(to encoder: any Encoder) throws {
                    var container = encoder.container(keyedBy: AnyCodingKey.self)
                    try self.unknownFields.encode(to: &container, skipping: ["x", "y"])
                    try container.encode(self.x, forKey: AnyCodingKey("x"))
                    try container.encode(self.y, forKey: AnyCodingKey("y"))
                }

                func write(stateWriter writer: inout StateDirectWriter) throws {
                    writer.beginObject(keeping: self.unknownFields, declared: ["x", "y"])
                    try writer.member("x")
                    try writer.write(self.x)
                    try writer.member("y")
                    try writer.write(self.y)
                    try writer.endObject()
                }
            }

            extension Point: Decodable, Encodable, StateSalvageable, StateDirectDecodable, StateDirectEncodable {
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

                init(stateReader reader: inout StateDirectReader) throws {
                    var _name: Optional<String> = nil
                    var _panes: Optional<[Pane]> = nil
                    var _tabs: Optional<[Tab]> = nil
                    var _archived: Optional<Array<Pane>> = nil
                    var _tags: Optional<[String]> = nil
                    var _count: Optional<Int> = nil
                    var _note: Optional<String> = nil
                    var _unknownFields = UnknownFields()
                    var seenKeys0: UInt64 = 0
                    try reader.beginObject()
                    while let key = try reader.nextKey() {
                        if key.matches("name") {
                            try reader.claim(key, bit: 0, of: &seenKeys0)
                            _name = try reader.read(String.self, at: "name")
                        } else if key.matches("panes") {
                            try reader.claim(key, bit: 1, of: &seenKeys0)
                            _panes = try reader.read([Pane].self, at: "panes")
                        } else if key.matches("tabs") {
                            try reader.claim(key, bit: 2, of: &seenKeys0)
                            _tabs = try reader.readIfPresent([Tab].self, at: "tabs")
                        } else if key.matches("archived") {
                            try reader.claim(key, bit: 3, of: &seenKeys0)
                            _archived = try reader.readIfPresent(Array<Pane>.self, at: "archived")
                        } else if key.matches("tags") {
                            try reader.claim(key, bit: 4, of: &seenKeys0)
                            _tags = try reader.readIfPresent([String].self, at: "tags")
                        } else if key.matches("count") {
                            try reader.claim(key, bit: 5, of: &seenKeys0)
                            _count = try reader.readIfPresent(Int.self, at: "count")
                        } else if key.matches("note") {
                            try reader.claim(key, bit: 6, of: &seenKeys0)
                            _note = try reader.readIfPresent(String.self, at: "note")
                        } else {
                            try reader.keepUnknown(key, in: &_unknownFields)
                        }
                    }
                    self.name = try reader.required(_name, "name")
                    self.panes = try reader.required(_panes, "panes")
                    if let _tabs {
                        self.tabs = _tabs
                    } else {
                        self.tabs = reader.defaulted([], "tabs")
                    }
                    self.archived = _archived
                    if let _tags {
                        self.tags = _tags
                    } else {
                        self.tags = reader.defaulted([], "tags")
                    }
                    if let _count {
                        self.count = _count
                    } else {
                        self.count = reader.defaulted(0, "count")
                    }
                    self.note = _note
                    self.unknownFields = _unknownFields
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

                func write(stateWriter writer: inout StateDirectWriter) throws {
                    writer.beginObject(keeping: self.unknownFields, declared: ["name", "panes", "tabs", "archived", "tags", "count", "note"])
                    if let value = self.archived {
                        try writer.member("archived")
                        try writer.write(value)
                    }
                    try writer.member("count")
                    try writer.write(self.count)
                    try writer.member("name")
                    try writer.write(self.name)
                    if let value = self.note {
                        try writer.member("note")
                        try writer.write(value)
                    }
                    try writer.member("panes")
                    try writer.write(self.panes)
                    try writer.member("tabs")
                    try writer.write(self.tabs)
                    try writer.member("tags")
                    try writer.write(self.tags)
                    try writer.endObject()
                }
            }

            extension Project: Decodable, Encodable, StateSalvageable, StateDirectDecodable, StateDirectEncodable {
            }
            """
        }
    }

    /// Issue 41: the opt-out keeps nothing and records every key it drops, on both read paths (the direct reader's
    /// `skipUnknown` counts them; `init(from:)` and `init(salvaging:)` call `recordUndeclaredKeysDropped`).
    @Test func droppingUnknownFieldsRecordsThem() {
        assertMacro {
            """
            @StateModel(unknownFields: .drop)
            struct Point {
                var x: Double
            }
            """
        } expansion: {
            """
            struct Point {
                var x: Double

                init(
                    x: Double
                ) {
                    self.x = x
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
                        case "x":
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
                    container.recordUndeclaredKeysDropped(in: decoder)
                }

                init(salvaging decoder: any Decoder) throws {
                    let container = try decoder.container(keyedBy: StateCodingKeys.self)
                    self.x = try container.salvage(Double.self, forKey: StateCodingKeys("x"), in: decoder)
                    container.recordUndeclaredKeysDropped(in: decoder)
                }

                init(stateReader reader: inout StateDirectReader) throws {
                    var _x: Optional<Double> = nil
                    var skippedKeys: Set<String> = []
                    var seenKeys0: UInt64 = 0
                    try reader.beginObject()
                    while let key = try reader.nextKey() {
                        if key.matches("x") {
                            try reader.claim(key, bit: 0, of: &seenKeys0)
                            _x = try reader.read(Double.self, at: "x")
                        } else {
                            try reader.skipUnknown(key, skipped: &skippedKeys)
                        }
                    }
                    self.x = try reader.required(_x, "x")
                }

                func encode(to encoder: any Encoder) throws {
                    var container = encoder.container(keyedBy: AnyCodingKey.self)
                    try container.encode(self.x, forKey: AnyCodingKey("x"))
                }

                func write(stateWriter writer: inout StateDirectWriter) throws {
                    writer.beginObject()
                    try writer.member("x")
                    try writer.write(self.x)
                    try writer.endObject()
                }
            }

            extension Point: Decodable, Encodable, StateSalvageable, StateDirectDecodable, StateDirectEncodable {
            }
            """
        }
    }

    /// A `@StateTransient` property is in no generated member: not a key, not read, not written, not an argument of
    /// the memberwise initializer.
    @Test func transientPropertyIsNeitherReadNorWritten() {
        assertMacro {
            """
            @StateModel(unknownFields: .drop)
            struct Cell: Codable {
                var id: String
                @StateTransient private var padding: (Int, Int) = (0, 0)
            }
            """
        } expansion: {
            """
            struct Cell: Codable {
                var id: String
                private var padding: (Int, Int) = (0, 0)

                init(
                    id: String
                ) {
                    self.id = id
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
                        case "id":
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
                    self.id = try container.decode(String.self, forKey: StateCodingKeys("id"))
                    container.recordUndeclaredKeysDropped(in: decoder)
                }

                init(salvaging decoder: any Decoder) throws {
                    let container = try decoder.container(keyedBy: StateCodingKeys.self)
                    self.id = try container.salvage(String.self, forKey: StateCodingKeys("id"), in: decoder)
                    container.recordUndeclaredKeysDropped(in: decoder)
                }

                init(stateReader reader: inout StateDirectReader) throws {
                    var _id: Optional<String> = nil
                    var skippedKeys: Set<String> = []
                    var seenKeys0: UInt64 = 0
                    try reader.beginObject()
                    while let key = try reader.nextKey() {
                        if key.matches("id") {
                            try reader.claim(key, bit: 0, of: &seenKeys0)
                            _id = try reader.read(String.self, at: "id")
                        } else {
                            try reader.skipUnknown(key, skipped: &skippedKeys)
                        }
                    }
                    self.id = try reader.required(_id, "id")
                }

                func encode(to encoder: any Encoder) throws {
                    var container = encoder.container(keyedBy: AnyCodingKey.self)
                    try container.encode(self.id, forKey: AnyCodingKey("id"))
                }

                func write(stateWriter writer: inout StateDirectWriter) throws {
                    writer.beginObject()
                    try writer.member("id")
                    try writer.write(self.id)
                    try writer.endObject()
                }
            }

            extension Cell: StateSalvageable, StateDirectDecodable, StateDirectEncodable {
            }
            """
        }
    }
}
