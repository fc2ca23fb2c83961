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

                public func encode(to encoder: any Encoder) throws {
                    var container = encoder.container(keyedBy: AnyCodingKey.self)
                    try self.unknownFields.encode(to: &container)
                    try container.encode(self.id, forKey: AnyCodingKey("id"))
                    try container.encode(self.title, forKey: AnyCodingKey("display_title"))
                    try container.encode(self.pinned, forKey: AnyCodingKey("pinned"))
                    try container.encodeIfPresent(self.createdAt, forKey: AnyCodingKey("createdAt"))
                }
            }

            extension Note: Decodable, Encodable {
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

                package func encode(to encoder: any Encoder) throws {
                    var container = encoder.container(keyedBy: AnyCodingKey.self)
                    try container.encode(self.items, forKey: AnyCodingKey("items"))
                    try container.encode(self.active, forKey: AnyCodingKey("active"))
                    try LowercaseUUIDCoder.encode(self.id, to: &container, forKey: AnyCodingKey("id"))
                    try container.encodeIfPresent(self.`default`, forKey: AnyCodingKey("default"))
                    try container.encode(self.tags, forKey: AnyCodingKey("tags"))
                }
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

                func encode(to encoder: any Encoder) throws {
                    var container = encoder.container(keyedBy: AnyCodingKey.self)
                    try container.encode(self.x, forKey: AnyCodingKey("x"))
                    try container.encode(self.y, forKey: AnyCodingKey("y"))
                }
            }

            extension Point: Decodable, Encodable {
            }
            """
        }
    }
}
