extension KeyedDecodingContainer {
    /// Records every key `allKeys` lists, less the store's own root keys, as dropped in the load report
    /// (`LoadReport.unknownKeysDropped` (StateStore), by path with a count).
    ///
    /// What `@StateModel(unknownFields: .drop)` generates at the end of `init(from:)`, for a container keyed so
    /// that `allKeys` lists only the keys the model does not declare. Outside a `StateCodec` load it does nothing.
    ///
    /// - Parameter decoder: The decoder passed to the model's `init(from:)`, which carries the load's context.
    public func recordUndeclaredKeysDropped(in decoder: any Decoder) {
        let keys = allKeys
        // Nearly every record has no unknown key: return before the context lookup.
        guard !keys.isEmpty, let context = LoadContext.of(decoder) else { return }
        let reserved: Set<String> = codingPath.isEmpty ? context.reservedRootKeys : []
        context.recordDroppedKeys(keys.lazy.map(\.stringValue).filter { !reserved.contains($0) }, at: codingPath)
    }
}
