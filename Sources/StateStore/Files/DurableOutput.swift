import FoundationEssentials

/// The temporary file of a durable replace in progress (``DurableWriter/write(to:temporaryPrefix:filling:)``):
/// what is written to it becomes the file's content once the replace completes.
public struct DurableOutput {
    let fileSystem: any FileSystem
    let descriptor: Int32
    let temporaryPath: String
    let targetPath: String
    /// The bytes written so far.
    public private(set) var byteCount = 0

    /// Appends `bytes` to the new content (looping on short writes).
    /// - Throws: ``DurableWriteError`` at the ``DurableWriteError/Stage/write`` stage.
    public mutating func write(_ bytes: UnsafeRawBufferPointer) throws(DurableWriteError) {
        guard !bytes.isEmpty else { return }
        do {
            try fileSystem.writeAll(bytes, to: descriptor, path: temporaryPath)
        } catch {
            throw DurableWriteError(stage: .write, path: targetPath, underlying: error)
        }
        byteCount += bytes.count
    }

    /// Appends `data` to the new content.
    /// - Throws: ``DurableWriteError`` at the ``DurableWriteError/Stage/write`` stage.
    public mutating func write(_ data: Data) throws(DurableWriteError) {
        let failure: DurableWriteError? = data.withUnsafeBytes { bytes in
            do throws(DurableWriteError) {
                try write(bytes)
                return nil
            } catch {
                return error
            }
        }
        if let failure { throw failure }
    }
}

/// A ``DurableOutput`` a sink closure can write through while the replace that owns it is filling.
final class OutputPieces {
    var output: DurableOutput

    init(_ output: DurableOutput) {
        self.output = output
    }
}
