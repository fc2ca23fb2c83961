import StateCoding

extension LoadContext {
    /// A context for a strict decode of `schema`, or for a salvage pass that drops the records holding
    /// `duplicateKeys`.
    convenience init<Model>(
        schema: StateSchema<Model>, salvaging: Bool = false, duplicateKeys: [(path: String, key: String)] = []
    ) {
        var decoders = schema.stepsByVersion.mapValues { step in salvaging ? step.salvageDecode : step.decode }
        if salvaging {
            decoders[schema.currentVersion] = { @Sendable decoder in try Salvaging<Model>.decodeNested(from: decoder) }
        } else {
            decoders[schema.currentVersion] = { @Sendable decoder in try Model(from: decoder) }
        }
        self.init(
            versionKey: schema.versionKey, minReaderVersionKey: schema.minReaderVersionKey,
            revisionKey: schema.revisionKey, lineageKey: schema.lineageKey,
            contentChecksumKey: schema.contentChecksumKey, firstVersion: schema.firstVersion,
            currentVersion: schema.currentVersion, versionDecoders: decoders, salvaging: salvaging,
            duplicateKeys: duplicateKeys)
    }
}
