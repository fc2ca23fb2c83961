import CSystemd

#if canImport(Glibc)
import Glibc
#endif

/// Sends journal fields with `sd_journal_sendv`, building the `iovec`s by hand.
enum JournalWriter {
    /// Sends one entry; returns 0 or a negative errno.
    static func send(_ fields: [(name: String, value: String)]) -> Int32 {
        var buffer: [UInt8] = []
        var ranges: [Range<Int>] = []
        for (name, value) in fields {
            let start = buffer.count
            buffer.append(contentsOf: name.utf8)
            buffer.append(UInt8(ascii: "="))
            buffer.append(contentsOf: value.utf8)
            ranges.append(start..<buffer.count)
        }
        return buffer.withUnsafeMutableBytes { bytes -> Int32 in
            guard let base = bytes.baseAddress else { return -EINVAL }
            let vectors = ranges.map { iovec(iov_base: base + $0.lowerBound, iov_len: $0.count) }
            return vectors.withUnsafeBufferPointer { sd_journal_sendv($0.baseAddress, Int32($0.count)) }
        }
    }
}

/// Writes whole lines to a file descriptor with `write(2)`, looping over short writes and `EINTR`.
package enum LineWriter {
    /// Writes `text`'s UTF-8 bytes to `fileDescriptor`; a descriptor that fails is given up on, as there is
    /// nowhere left to report it.
    package static func write(_ text: String, to fileDescriptor: Int32) {
        var bytes = Array(text.utf8)
        bytes.withUnsafeMutableBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(fileDescriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return
                }
                offset += written
            }
        }
    }
}
