import Glibc

/// A file opened for reading by offset (`pread(2)`), closed when the value goes: for a reader that looks at a
/// file's head before deciding to read the rest.
struct ReadOnlyFile: ~Copyable {
    /// The file's path, for errors.
    let path: String
    private let descriptor: Int32

    /// Opens `path` for reading; `nil` when there is no file there.
    ///
    /// - Throws: ``FileSystemError`` when the file exists but cannot be opened.
    init?(path: String) throws(FileSystemError) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            let code = errno
            if code == ENOENT { return nil }
            throw FileSystemError(operation: "open", path: path, errno: code)
        }
        self.path = path
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }

    /// Up to `count` bytes from `offset`: fewer at the end of the file.
    func read(at offset: Int, upTo count: Int) throws(FileSystemError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let read = bytes.withUnsafeMutableBytes { buffer in
                pread(descriptor, buffer.baseAddress! + filled, count - filled, off_t(offset + filled))
            }
            if read < 0 {
                if errno == EINTR { continue }
                throw FileSystemError(operation: "read", path: path, errno: errno)
            }
            if read == 0 { break }
            filled += read
        }
        bytes.removeLast(count - filled)
        return bytes
    }

    /// Every byte from `offset` to the end of the file.
    func readToEnd(from offset: Int) throws(FileSystemError) -> [UInt8] {
        var bytes: [UInt8] = []
        var position = offset
        while true {
            let piece = try read(at: position, upTo: 1 << 16)
            if piece.isEmpty { return bytes }
            bytes += piece
            position += piece.count
        }
    }
}
