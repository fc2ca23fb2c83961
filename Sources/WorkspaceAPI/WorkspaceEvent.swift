import FoundationEssentials
import WorkspaceModel

/// One event of `GET /v1/events`: a JSON object on a line of its own, `{"type", "sequence", "time", …fields}`
/// (docs/api.md, "Events"). Every field of its type is written, `null` included.
///
/// `sequence` numbers the daemon's events from 1, in the order they happened; a reader's `subscribed` and
/// `lagged` events carry the sequence of the last event they account for, so the next event's is one more.
public struct WorkspaceEvent: Codable, Sendable, Equatable {
    /// The event's number in the daemon's order.
    public var sequence: UInt64
    /// When it happened (whole seconds on the wire, as every API date).
    public var time: Date
    /// What happened.
    public var kind: WorkspaceEventKind

    /// An event.
    public init(sequence: UInt64, time: Date, kind: WorkspaceEventKind) {
        self.sequence = sequence
        self.time = time
        self.kind = kind
    }

    /// The `type` on the wire.
    public var type: String { kind.type }

    /// Decodes one line of the stream.
    ///
    /// - Throws: `DecodingError` when the line is not an event (an unknown `type` is not an error: it decodes as
    ///   ``WorkspaceEventKind/unknown(type:)``).
    public static func decode(line: String) throws -> WorkspaceEvent {
        try APICoding.decoder.decode(WorkspaceEvent.self, from: Data(line.utf8))
    }

    /// The line the daemon sends: the encoded event and `\n`.
    public func encodedLine() throws -> [UInt8] {
        Array(try APICoding.encoder.encode(self)) + [UInt8(ascii: "\n")]
    }

    private enum Keys: String, CodingKey {
        case type, sequence, time, revision, operation, id, milliseconds, bytes, error, consecutiveFailures
        case retryInMilliseconds, failures, logLevel, signal, missed, lineage, reason
    }

    /// Decodes the flat object by its `type`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        sequence = try container.decode(UInt64.self, forKey: .sequence)
        time = try container.decode(Date.self, forKey: .time)
        let type = try container.decode(String.self, forKey: .type)
        func field<Value: Decodable>(_ key: Keys, _: Value.Type = Value.self) throws -> Value {
            try container.decode(Value.self, forKey: key)
        }
        switch type {
        case "subscribed":
            kind = .subscribed(revision: try field(.revision), lineage: try field(.lineage))
        case "reset":
            kind = .reset(revision: try field(.revision), lineage: try field(.lineage), reason: try field(.reason))
        case "change":
            kind = .change(
                revision: try field(.revision), operation: try field(.operation),
                id: try container.decodeIfPresent(WorkspaceID.self, forKey: .id))
        case "save_durable":
            kind = .saveDurable(
                revision: try field(.revision), milliseconds: try field(.milliseconds), bytes: try field(.bytes))
        case "save_failed":
            kind = .saveFailed(
                error: try field(.error), consecutiveFailures: try field(.consecutiveFailures),
                retryInMilliseconds: try container.decodeIfPresent(Double.self, forKey: .retryInMilliseconds))
        case "save_recovered":
            kind = .saveRecovered(revision: try field(.revision), failures: try field(.failures))
        case "config_reloaded":
            kind = .configReloaded(logLevel: try field(.logLevel))
        case "stopping":
            kind = .stopping(signal: try field(.signal))
        case "lagged":
            kind = .lagged(missed: try field(.missed))
        default:
            kind = .unknown(type: type)
        }
    }

    /// Encodes the flat object; optional fields are written as `null`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(kind.type, forKey: .type)
        try container.encode(sequence, forKey: .sequence)
        try container.encode(time, forKey: .time)
        switch kind {
        case .subscribed(let revision, let lineage):
            try container.encode(revision, forKey: .revision)
            try container.encode(lineage, forKey: .lineage)
        case .reset(let revision, let lineage, let reason):
            try container.encode(revision, forKey: .revision)
            try container.encode(lineage, forKey: .lineage)
            try container.encode(reason, forKey: .reason)
        case .change(let revision, let operation, let id):
            try container.encode(revision, forKey: .revision)
            try container.encode(operation, forKey: .operation)
            try container.encode(id, forKey: .id)
        case .saveDurable(let revision, let milliseconds, let bytes):
            try container.encode(revision, forKey: .revision)
            try container.encode(milliseconds, forKey: .milliseconds)
            try container.encode(bytes, forKey: .bytes)
        case .saveFailed(let error, let consecutiveFailures, let retryInMilliseconds):
            try container.encode(error, forKey: .error)
            try container.encode(consecutiveFailures, forKey: .consecutiveFailures)
            try container.encode(retryInMilliseconds, forKey: .retryInMilliseconds)
        case .saveRecovered(let revision, let failures):
            try container.encode(revision, forKey: .revision)
            try container.encode(failures, forKey: .failures)
        case .configReloaded(let logLevel):
            try container.encode(logLevel, forKey: .logLevel)
        case .stopping(let signal):
            try container.encode(signal, forKey: .signal)
        case .lagged(let missed):
            try container.encode(missed, forKey: .missed)
        case .unknown:
            break
        }
    }
}
