import SwiftDiagnostics

/// What `@StateModel` cannot honour, each with what to write instead.
enum StateModelDiagnostic: DiagnosticMessage {
    case notAStruct
    case letWithInitialValue(name: String)
    case computedProperty(name: String)
    case lazyProperty(name: String)
    case propertyWrapper(name: String, wrapper: String)
    case missingType(name: String)
    case defaultOnOptional(name: String)
    case multipleBindings
    case unsupportedPattern
    case secondUnknownFields(name: String)
    case unknownFieldsIsLet(name: String)
    case handWritten(member: String)
    case handWrittenCodingKeys
    case attributeOnUnknownFields(name: String)
    case writesNullOnNonOptional(name: String)
    case invalidKey
    case invalidCoder
    case duplicateKey(key: String)
    case recordsNotAnArray(name: String)
    case recordsWithCoder(name: String)
    case invalidUnknownFieldsRule
    case dropsButDeclaresUnknownFields(name: String)
    case generatedNameTaken
    case transientWithAttribute(name: String)
    case transientWithoutInitialValue(name: String)

    var message: String {
        switch self {
        case .notAStruct:
            "@StateModel applies to a struct"
        case .letWithInitialValue(let name):
            "'let \(name)' has an initial value, so Codable cannot set it: write 'var \(name)' to read it with that "
                + "value as its default, or make it 'static let' if it is not stored"
        case .computedProperty(let name):
            "'\(name)' is computed, so it is not stored: declare it in an extension, so that the declaration lists "
                + "exactly what the file holds"
        case .lazyProperty(let name):
            "'lazy var \(name)' cannot be stored: make it a stored 'var' or a computed property in an extension"
        case .propertyWrapper(let name, let wrapper):
            "'\(name)' uses the property wrapper '@\(wrapper)', which @StateModel cannot read or write: store the "
                + "value itself, with @StateCoder for a rule of its own"
        case .missingType(let name):
            "@StateModel needs the type of '\(name)' written out: 'var \(name): Type = …'"
        case .defaultOnOptional(let name):
            "a default on the optional '\(name)' would hide a stored null (it would load as the default): remove "
                + "the default (nil is implied) or make the type non-optional"
        case .multipleBindings:
            "declare one stored property per 'var' or 'let' in a @StateModel"
        case .unsupportedPattern:
            "@StateModel cannot store a tuple pattern: declare each property on its own"
        case .secondUnknownFields(let name):
            "only one UnknownFields property is allowed; remove '\(name)'"
        case .unknownFieldsIsLet(let name):
            "'\(name)' must be a 'var' so that unknown fields can be kept: 'var \(name) = UnknownFields()'"
        case .handWritten(let member):
            "@StateModel generates '\(member)': remove the hand-written one (or remove @StateModel)"
        case .handWrittenCodingKeys:
            "@StateModel takes each key from the property's name, or from @StateKey(\"key\") on the property; "
                + "remove CodingKeys and mark the renamed properties instead"
        case .attributeOnUnknownFields(let name):
            "'\(name)' holds the keys the model does not declare; it has no key of its own, so it takes no "
                + "@StateKey, @StateWritesNull or @StateCoder"
        case .writesNullOnNonOptional(let name):
            "@StateWritesNull applies to an optional; '\(name)' is never nil"
        case .invalidKey:
            "@StateKey takes one string literal: @StateKey(\"name\")"
        case .invalidCoder:
            "@StateCoder takes the coder's type: @StateCoder(MyCoder.self)"
        case .duplicateKey(let key):
            "two properties are stored under the key \"\(key)\"; give one of them another with @StateKey"
        case .recordsNotAnArray(let name):
            "@StateRecords marks an array of independent records; '\(name)' is not declared as [Element]"
        case .recordsWithCoder(let name):
            "'\(name)' has @StateCoder, which reads the whole array; @StateRecords cannot drop its elements"
        case .invalidUnknownFieldsRule:
            "@StateModel takes 'unknownFields: .keep' (the default) or 'unknownFields: .drop'"
        case .dropsButDeclaresUnknownFields(let name):
            "'\(name)' keeps the keys the model does not declare, but @StateModel(unknownFields: .drop) drops them: "
                + "remove one of the two"
        case .generatedNameTaken:
            "@StateModel keeps the keys the model does not declare in a property named 'unknownFields', which this "
                + "one already is: declare 'var unknownFields = UnknownFields()' yourself, rename this property, or "
                + "write @StateModel(unknownFields: .drop)"
        case .transientWithAttribute(let name):
            "'\(name)' is @StateTransient, so the file never holds it: it takes no @StateKey, @StateWritesNull, "
                + "@StateCoder or @StateRecords"
        case .transientWithoutInitialValue(let name):
            "'\(name)' is @StateTransient, so a read never sets it: give it an initial value"
        }
    }

    var diagnosticID: MessageID {
        let name: String
        switch self {
        case .notAStruct: name = "notAStruct"
        case .letWithInitialValue: name = "letWithInitialValue"
        case .computedProperty: name = "computedProperty"
        case .lazyProperty: name = "lazyProperty"
        case .propertyWrapper: name = "propertyWrapper"
        case .missingType: name = "missingType"
        case .defaultOnOptional: name = "defaultOnOptional"
        case .multipleBindings: name = "multipleBindings"
        case .unsupportedPattern: name = "unsupportedPattern"
        case .secondUnknownFields: name = "secondUnknownFields"
        case .unknownFieldsIsLet: name = "unknownFieldsIsLet"
        case .handWritten: name = "handWritten"
        case .handWrittenCodingKeys: name = "handWrittenCodingKeys"
        case .attributeOnUnknownFields: name = "attributeOnUnknownFields"
        case .writesNullOnNonOptional: name = "writesNullOnNonOptional"
        case .invalidKey: name = "invalidKey"
        case .invalidCoder: name = "invalidCoder"
        case .duplicateKey: name = "duplicateKey"
        case .recordsNotAnArray: name = "recordsNotAnArray"
        case .recordsWithCoder: name = "recordsWithCoder"
        case .invalidUnknownFieldsRule: name = "invalidUnknownFieldsRule"
        case .dropsButDeclaresUnknownFields: name = "dropsButDeclaresUnknownFields"
        case .generatedNameTaken: name = "generatedNameTaken"
        case .transientWithAttribute: name = "transientWithAttribute"
        case .transientWithoutInitialValue: name = "transientWithoutInitialValue"
        }
        return MessageID(domain: "StateModel", id: name)
    }

    var severity: DiagnosticSeverity { .error }
}

/// A fix-it's label.
struct StateModelFixIt: FixItMessage {
    let message: String
    var fixItID: MessageID { MessageID(domain: "StateModel", id: message) }
}
