import FoundationEssentials
import StateJSON

extension StateCodec {
    /// Writes `model` as version `version` through the reverse steps, for an older release to read.
    ///
    /// The bytes are deterministic (sorted keys) and carry `version` as both the version and the minimum reader
    /// version; no revision or lineage is stamped. Loading them with this codec migrates them up again, taking
    /// back what the reverse steps set aside: a schema whose steps are lossless gives the same model.
    ///
    /// - Throws: ``DowngradeError`` when `version` is out of range, a step on the way has no reverse, or a reverse
    ///   step fails.
    public func encode(_ model: Model, downTo version: Int) throws(DowngradeError) -> DowngradedState {
        guard (schema.firstVersion...schema.currentVersion).contains(version) else {
            throw .outOfRange(target: version, first: schema.firstVersion, current: schema.currentVersion)
        }
        let lowest = schema.lowestReachableVersion
        guard version >= lowest else { throw .unreachable(target: version, lowest: lowest, blockedAt: lowest) }
        var result = DowngradedState(data: Data(), version: version)
        var value: any Sendable = model
        var encodeValue: @Sendable (any Sendable, any Encoder) throws -> Void = { value, encoder in
            guard let model = value as? Model else { return }
            try model.encode(to: encoder)
        }
        var current = schema.currentVersion
        while current > version {
            // `lowestReachableVersion` checked that every step on the way declares both.
            let step = schema.stepsByVersion[current - 1]!
            guard let revert = step.revert, let encodeInput = step.encodeInput else {
                throw .unreachable(target: version, lowest: lowest, blockedAt: current)
            }
            var context = MigrationContext(
                fromVersion: current, toVersion: current - 1, dateCoding: schema.dateCoding)
            do {
                value = try revert(value, &context)
            } catch {
                throw .stepFailed(from: current, to: current - 1, reason: "\(error)")
            }
            encodeValue = encodeInput
            result.stepsReverted.append((current - 1)...current)
            result.fieldsSetAside.merge(context.fieldsSetAside, uniquingKeysWith: +)
            result.fieldsDefaulted.merge(context.fieldsDefaulted, uniquingKeysWith: +)
            result.warnings += context.warnings
            for (field, count) in context.unknownFieldsReplaced.sorted(by: { $0.key < $1.key }) {
                result.warnings.append(
                    "\(field): \(count) \(count == 1 ? "record" : "records") held it as an unknown field of "
                        + "version \(current), which version \(current - 1) declares; the value written for version "
                        + "\(current - 1) replaced it (the backup still holds it)")
            }
            current -= 1
        }
        let envelope = EncodingEnvelope(
            model: ErasedEncodable(value: value, encode: encodeValue), versionKey: schema.versionKey,
            version: version, minReaderVersionKey: schema.minReaderVersionKey, minReaderVersion: version)
        do {
            result.data = try encodeDown(envelope)
        } catch {
            throw .encodingFailed(version: version, reason: "\(error)")
        }
        return result
    }
}

extension StateCodec {
    /// The bytes of a file written down: through the compact encoder unless ``prettyPrinted`` (the same bytes as
    /// `JSONEncoder`, and unknown fields a direct read kept written as the text they were read as, so that they
    /// reach the older release as they were), `JSONEncoder` otherwise or when the compact encoder refuses.
    fileprivate func encodeDown<Envelope: Encodable>(_ envelope: Envelope) throws -> Data {
        if !prettyPrinted {
            if let data = try? compactEncoder(capacity: 0).encode(envelope) { return data }
        }
        return try jsonEncoder().encode(envelope)
    }
}

/// A value of some version with the encode function its step provides.
private struct ErasedEncodable: Encodable {
    let value: any Sendable
    let encode: @Sendable (any Sendable, any Encoder) throws -> Void

    func encode(to encoder: any Encoder) throws {
        try encode(value, encoder)
    }
}
