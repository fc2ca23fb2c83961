import MacroTesting
import Testing

/// What `@StateModel` refuses, each with a message that says what to write instead.
@Suite(.macros(stateModelMacros, record: .missing))
struct DiagnosticTests {
    @Test func letWithInitialValueOffersVar() {
        assertMacro {
            """
            @StateModel
            struct Pane {
                let kind: String = "pane"
            }
            """
        } diagnostics: {
            """
            @StateModel
            struct Pane {
                let kind: String = "pane"
                ┬──
                ╰─ 🛑 'let kind' has an initial value, so Codable cannot set it: write 'var kind' to read it with that value as its default, or make it 'static let' if it is not stored
                   ✏️ read it with this value as its default
            }
            """
        } fixes: {
            """
            @StateModel
            struct Pane {
                var kind: String = "pane"
            }
            """
        } expansion: {
            """
            struct Pane {
                var kind: String = "pane"

                var unknownFields = UnknownFields()

                init(
                    kind: String = "pane",
                    unknownFields: UnknownFields = UnknownFields()
                ) {
                    self.kind = kind
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
                        case "kind":
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
                    self.kind = try container.decodeIfPresent(String.self, forKey: StateCodingKeys("kind"))
                        ?? container.defaulted("pane", forKey: StateCodingKeys("kind"), in: decoder)
                    self.unknownFields = try UnknownFields(undeclaredKeysOf: container, in: decoder)
                }

                init(salvaging decoder: any Decoder) throws {
                    let container = try decoder.container(keyedBy: StateCodingKeys.self)
                    self.kind = container.salvage(
                        String.self, forKey: StateCodingKeys("kind"), defaultingTo: "pane", in: decoder)
                    self.unknownFields = try UnknownFields(undeclaredKeysOf: container, in: decoder)
                }

                init(stateReader reader: inout StateDirectReader) throws {
                    var _kind: Optional<String> = nil
                    var _unknownFields = UnknownFields()
                    var seenKeys0: UInt64 = 0
                    try reader.beginObject()
                    while let key = try reader.nextKey() {
                        if key.matches("kind") {
                            try reader.claim(key, bit: 0, of: &seenKeys0)
                            _kind = try reader.readIfPresent(String.self, at: "kind")
                        } else {
                            try reader.keepUnknown(key, in: &_unknownFields)
                        }
                    }
                    if let _kind {
                        self.kind = _kind
                    } else {
                        self.kind = reader.defaulted("pane", "kind")
                    }
                    self.unknownFields = _unknownFields
                }

                func encode(to encoder: any Encoder) throws {
                    var container = encoder.container(keyedBy: AnyCodingKey.self)
                    try self.unknownFields.encode(to: &container, skipping: ["kind"])
                    try container.encode(self.kind, forKey: AnyCodingKey("kind"))
                }

                func write(stateWriter writer: inout StateDirectWriter) throws {
                    writer.beginObject(keeping: self.unknownFields, declared: ["kind"])
                    try writer.member("kind")
                    try writer.write(self.kind)
                    try writer.endObject()
                }
            }

            extension Pane: Decodable, Encodable, StateSalvageable, StateDirectDecodable, StateDirectEncodable {
            }
            """
        }
    }

    @Test func computedPropertyBelongsInAnExtension() {
        assertMacro {
            """
            @StateModel
            struct Pane {
                var tabs: [String]
                var count: Int { tabs.count }
            }
            """
        } diagnostics: {
            """
            @StateModel
            struct Pane {
                var tabs: [String]
                var count: Int { tabs.count }
                    ┬────────────────────────
                    ╰─ 🛑 'count' is computed, so it is not stored: declare it in an extension, so that the declaration lists exactly what the file holds
            }
            """
        }
    }

    @Test func lazyPropertyIsRefused() {
        assertMacro {
            """
            @StateModel
            struct Pane {
                lazy var label: String = "pane"
            }
            """
        } diagnostics: {
            """
            @StateModel
            struct Pane {
                lazy var label: String = "pane"
                ┬──────────────────────────────
                ╰─ 🛑 'lazy var label' cannot be stored: make it a stored 'var' or a computed property in an extension
            }
            """
        }
    }

    @Test func propertyWrapperIsRefused() {
        assertMacro {
            """
            @StateModel
            struct Pane {
                @Clamped var width: Int
            }
            """
        } diagnostics: {
            """
            @StateModel
            struct Pane {
                @Clamped var width: Int
                ┬───────
                ╰─ 🛑 'width' uses the property wrapper '@Clamped', which @StateModel cannot read or write: store the value itself, with @StateCoder for a rule of its own
            }
            """
        }
    }

    @Test func missingTypeIsRefused() {
        assertMacro {
            """
            @StateModel
            struct Pane {
                var pinned = false
            }
            """
        } diagnostics: {
            """
            @StateModel
            struct Pane {
                var pinned = false
                    ┬─────
                    ╰─ 🛑 @StateModel needs the type of 'pinned' written out: 'var pinned: Type = …'
                       ✏️ write ': Bool'
            }
            """
        } fixes: {
            """
            @StateModel
            struct Pane {
                var pinned: Bool = false
            }
            """
        } expansion: {
            """
            struct Pane {
                var pinned: Bool = false

                var unknownFields = UnknownFields()

                init(
                    pinned: Bool = false,
                    unknownFields: UnknownFields = UnknownFields()
                ) {
                    self.pinned = pinned
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
                        case "pinned":
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
                    self.pinned = try container.decodeIfPresent(Bool.self, forKey: StateCodingKeys("pinned"))
                        ?? container.defaulted(false, forKey: StateCodingKeys("pinned"), in: decoder)
                    self.unknownFields = try UnknownFields(undeclaredKeysOf: container, in: decoder)
                }

                init(salvaging decoder: any Decoder) throws {
                    let container = try decoder.container(keyedBy: StateCodingKeys.self)
                    self.pinned = container.salvage(
                        Bool.self, forKey: StateCodingKeys("pinned"), defaultingTo: false, in: decoder)
                    self.unknownFields = try UnknownFields(undeclaredKeysOf: container, in: decoder)
                }

                init(stateReader reader: inout StateDirectReader) throws {
                    var _pinned: Optional<Bool> = nil
                    var _unknownFields = UnknownFields()
                    var seenKeys0: UInt64 = 0
                    try reader.beginObject()
                    while let key = try reader.nextKey() {
                        if key.matches("pinned") {
                            try reader.claim(key, bit: 0, of: &seenKeys0)
                            _pinned = try reader.readIfPresent(Bool.self, at: "pinned")
                        } else {
                            try reader.keepUnknown(key, in: &_unknownFields)
                        }
                    }
                    if let _pinned {
                        self.pinned = _pinned
                    } else {
                        self.pinned = reader.defaulted(false, "pinned")
                    }
                    self.unknownFields = _unknownFields
                }

                func encode(to encoder: any Encoder) throws {
                    var container = encoder.container(keyedBy: AnyCodingKey.self)
                    try self.unknownFields.encode(to: &container, skipping: ["pinned"])
                    try container.encode(self.pinned, forKey: AnyCodingKey("pinned"))
                }

                func write(stateWriter writer: inout StateDirectWriter) throws {
                    writer.beginObject(keeping: self.unknownFields, declared: ["pinned"])
                    try writer.member("pinned")
                    try writer.write(self.pinned)
                    try writer.endObject()
                }
            }

            extension Pane: Decodable, Encodable, StateSalvageable, StateDirectDecodable, StateDirectEncodable {
            }
            """
        }
    }

    @Test func defaultOnOptionalHidesNull() {
        assertMacro {
            """
            @StateModel
            struct Pane {
                var width: Int? = 80
            }
            """
        } diagnostics: {
            """
            @StateModel
            struct Pane {
                var width: Int? = 80
                                  ┬─
                                  ╰─ 🛑 a default on the optional 'width' would hide a stored null (it would load as the default): remove the default (nil is implied) or make the type non-optional
            }
            """
        }
    }

    @Test func oneBindingPerDeclaration() {
        assertMacro {
            """
            @StateModel
            struct Point {
                var x, y: Double
            }
            """
        } diagnostics: {
            """
            @StateModel
            struct Point {
                var x, y: Double
                ┬───────────────
                ╰─ 🛑 declare one stored property per 'var' or 'let' in a @StateModel
            }
            """
        }
    }

    @Test func handWrittenDecoderClashes() {
        assertMacro {
            """
            @StateModel
            struct Point {
                var x: Double
                init(from decoder: any Decoder) throws { x = 0 }
            }
            """
        } diagnostics: {
            """
            @StateModel
            struct Point {
                var x: Double
                init(from decoder: any Decoder) throws { x = 0 }
                ┬───────────────────────────────────────────────
                ╰─ 🛑 @StateModel generates 'init(from:)': remove the hand-written one (or remove @StateModel)
            }
            """
        }
    }

    @Test func handWrittenCodingKeysClash() {
        assertMacro {
            """
            @StateModel
            struct Point {
                var x: Double
                enum CodingKeys: String, CodingKey { case x = "X" }
            }
            """
        } diagnostics: {
            """
            @StateModel
            struct Point {
                var x: Double
                enum CodingKeys: String, CodingKey { case x = "X" }
                ┬──────────────────────────────────────────────────
                ╰─ 🛑 @StateModel takes each key from the property's name, or from @StateKey("key") on the property; remove CodingKeys and mark the renamed properties instead
            }
            """
        }
    }

    @Test func onlyStructs() {
        assertMacro {
            """
            @StateModel
            enum Mode {
                case list
            }
            """
        } diagnostics: {
            """
            @StateModel
            ┬──────────
            ╰─ 🛑 @StateModel applies to a struct
            enum Mode {
                case list
            }
            """
        }
    }

    @Test func twoPropertiesUnderOneKey() {
        assertMacro {
            """
            @StateModel
            struct Owner {
                var name: String
                @StateKey("name") var alias: String
            }
            """
        } diagnostics: {
            """
            @StateModel
            struct Owner {
                var name: String
                @StateKey("name") var alias: String
                ┬──────────────────────────────────
                ╰─ 🛑 two properties are stored under the key "name"; give one of them another with @StateKey
            }
            """
        }
    }

    @Test func writesNullNeedsAnOptional() {
        assertMacro {
            """
            @StateModel
            struct Owner {
                @StateWritesNull var name: String
            }
            """
        } diagnostics: {
            """
            @StateModel
            struct Owner {
                @StateWritesNull var name: String
                ┬────────────────────────────────
                ╰─ 🛑 @StateWritesNull applies to an optional; 'name' is never nil
            }
            """
        }
    }

    @Test func oneUnknownFieldsAtMost() {
        assertMacro {
            """
            @StateModel
            struct Owner {
                var unknownFields = UnknownFields()
                var more = UnknownFields()
            }
            """
        } diagnostics: {
            """
            @StateModel
            struct Owner {
                var unknownFields = UnknownFields()
                var more = UnknownFields()
                ┬─────────────────────────
                ╰─ 🛑 only one UnknownFields property is allowed; remove 'more'
            }
            """
        }
    }

    @Test func keyMustBeALiteral() {
        assertMacro {
            """
            @StateModel
            struct Owner {
                @StateKey(keyName) var name: String
            }
            """
        } diagnostics: {
            """
            @StateModel
            struct Owner {
                @StateKey(keyName) var name: String
                ┬─────────────────
                ╰─ 🛑 @StateKey takes one string literal: @StateKey("name")
            }
            """
        }
    }

    @Test func coderNeedsItsType() {
        assertMacro {
            """
            @StateModel
            struct Owner {
                @StateCoder() var id: UUID
            }
            """
        } diagnostics: {
            """
            @StateModel
            struct Owner {
                @StateCoder() var id: UUID
                ┬────────────
                ╰─ 🛑 @StateCoder takes the coder's type: @StateCoder(MyCoder.self)
            }
            """
        }
    }

    @Test func recordsNeedAnArray() {
        assertMacro {
            """
            @StateModel
            struct Project {
                @StateRecords var owner: Owner
            }
            """
        } diagnostics: {
            """
            @StateModel
            struct Project {
                @StateRecords var owner: Owner
                ┬─────────────────────────────
                ╰─ 🛑 @StateRecords marks an array of independent records; 'owner' is not declared as [Element]
            }
            """
        }
    }

    @Test func recordsCannotTakeACoder() {
        assertMacro {
            """
            @StateModel
            struct Project {
                @StateRecords @StateCoder(PanesCoder.self) var panes: [Pane]
            }
            """
        } diagnostics: {
            """
            @StateModel
            struct Project {
                @StateRecords @StateCoder(PanesCoder.self) var panes: [Pane]
                ┬───────────────────────────────────────────────────────────
                ╰─ 🛑 'panes' has @StateCoder, which reads the whole array; @StateRecords cannot drop its elements
            }
            """
        }
    }

    @Test func droppingRefusesADeclaredUnknownFieldsProperty() {
        assertMacro {
            """
            @StateModel(unknownFields: .drop)
            struct Point {
                var x: Double
                var extra = UnknownFields()
            }
            """
        } diagnostics: {
            """
            @StateModel(unknownFields: .drop)
            struct Point {
                var x: Double
                var extra = UnknownFields()
                ┬──────────────────────────
                ╰─ 🛑 'extra' keeps the keys the model does not declare, but @StateModel(unknownFields: .drop) drops them: remove one of the two
            }
            """
        }
    }

    @Test func theGeneratedPropertysNameMustBeFree() {
        assertMacro {
            """
            @StateModel
            struct Point {
                var x: Double
                var unknownFields: [String]
            }
            """
        } diagnostics: {
            """
            @StateModel
            struct Point {
                var x: Double
                var unknownFields: [String]
                ┬──────────────────────────
                ╰─ 🛑 @StateModel keeps the keys the model does not declare in a property named 'unknownFields', which this one already is: declare 'var unknownFields = UnknownFields()' yourself, rename this property, or write @StateModel(unknownFields: .drop)
            }
            """
        }
    }

    @Test func theUnknownFieldsArgumentIsKeepOrDrop() {
        assertMacro {
            """
            @StateModel(unknownFields: .ignore)
            struct Point {
                var x: Double
            }
            """
        } diagnostics: {
            """
            @StateModel(unknownFields: .ignore)
                        ┬─────────────────────
                        ╰─ 🛑 @StateModel takes 'unknownFields: .keep' (the default) or 'unknownFields: .drop'
            struct Point {
                var x: Double
            }
            """
        }
    }

    @Test func transientNeedsAnInitialValue() {
        assertMacro {
            """
            @StateModel
            struct Cell {
                @StateTransient var cache: Int
            }
            """
        } diagnostics: {
            """
            @StateModel
            struct Cell {
                @StateTransient var cache: Int
                ┬─────────────────────────────
                ╰─ 🛑 'cache' is @StateTransient, so a read never sets it: give it an initial value
            }
            """
        }
    }

    @Test func transientTakesNoKey() {
        assertMacro {
            """
            @StateModel
            struct Cell {
                @StateTransient @StateKey("c") var cache: Int = 0
            }
            """
        } diagnostics: {
            """
            @StateModel
            struct Cell {
                @StateTransient @StateKey("c") var cache: Int = 0
                ┬────────────────────────────────────────────────
                ╰─ 🛑 'cache' is @StateTransient, so the file never holds it: it takes no @StateKey, @StateWritesNull, @StateCoder or @StateRecords
            }
            """
        }
    }
}
