/// The peak resident memory a load of the state file is expected to reach, from the file's size, and the check
/// against the service's memory limit made before the load: a file too large for `MemoryMax=` is refused with
/// a message instead of being killed by the kernel at every restart.
///
/// The two constants bound the peak memory rows of `make bench` (docs/benchmarks.md, a version 4 file; a version 1
/// file of the same content is smaller and peaks lower): an idle daemon's memory, mostly its binary and libraries,
/// and what the peak grows by per byte of the file, each with a margin so that the estimate errs towards loading.
package struct LoadMemoryEstimate: Sendable, Equatable {
    /// The memory the daemon takes before any state: binary, libraries, threads.
    package static let baseline: UInt64 = 40 << 20
    /// The peak per byte of the state file, over the baseline.
    package static let perByte: UInt64 = 5

    /// The state file's size.
    package var fileBytes: UInt64
    /// The expected peak: `baseline + perByte × fileBytes`.
    package var peakBytes: UInt64 { Self.baseline + Self.perByte * fileBytes }

    /// The estimate for a file of `fileBytes`.
    package init(fileBytes: UInt64) {
        self.fileBytes = fileBytes
    }

    /// `nil` when the load fits in `limit` (or there is no limit); otherwise the refusal to report.
    package func refusal(limit: UInt64?, path: String) -> MemoryRefusal? {
        guard let limit, peakBytes > limit else { return nil }
        return MemoryRefusal(path: path, estimate: self, limitBytes: limit)
    }
}

/// A state file too large to load within the service's memory limit.
package struct MemoryRefusal: Error, Sendable, Equatable, CustomStringConvertible {
    /// The state file, left as it was.
    package var path: String
    /// What its load is expected to take.
    package var estimate: LoadMemoryEstimate
    /// The service's memory limit (`MemoryMax=`).
    package var limitBytes: UInt64

    /// What happened and what to do, in one sentence.
    package var description: String {
        let megabytes = { (bytes: UInt64) in "\((bytes + (1 << 20) - 1) >> 20) MB" }
        return "\(path) (\(megabytes(estimate.fileBytes))) would take about \(megabytes(estimate.peakBytes)) of memory "
            + "to load (\(LoadMemoryEstimate.perByte) × the file + \(megabytes(LoadMemoryEstimate.baseline))), more "
            + "than the service's memory limit of \(megabytes(limitBytes)) (MemoryMax=); raise MemoryMax= to at least "
            + "\(megabytes(estimate.peakBytes)) (systemctl edit workspaced) and start again. The file was not changed"
    }
}
