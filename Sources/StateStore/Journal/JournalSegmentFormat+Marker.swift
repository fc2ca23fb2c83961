import FoundationEssentials
import StateJSON

/// The time and origin records of a segment, for the history (``HistoryEntry/date``, ``HistoryEntry/origin``).
///
/// A marker is a record whose revision is 0, which no change has (the first change of any state is revision 1),
/// followed by JSON: `{"at":<milliseconds since 1970>}` plus `"origin":"…"` when the change names one. It applies
/// to every change after it in the segment until the next marker, and is written in the same `write(2)` as the
/// change it precedes whenever the millisecond or the origin differs from the last marker's, so a burst of changes
/// in one millisecond from one client shares one. A release that knows nothing of markers reads one as a change
/// the snapshot already holds (its revision is not above the state's) and skips it: segments stay version 1.
extension JournalSegmentFormat {
    /// What a marker says.
    package struct Marker: Equatable, Sendable {
        /// Milliseconds since 1970-01-01 UTC.
        package var milliseconds: Int64
        /// Who asked for the changes after it; `nil` for nobody named.
        package var origin: String?

        /// A marker of `milliseconds` since 1970 for `origin`.
        package init(milliseconds: Int64, origin: String?) {
            self.milliseconds = milliseconds
            self.origin = origin
        }

        /// The marker of a change applied at `date` for `origin`.
        package init(date: Date, origin: String?) {
            self.init(milliseconds: Int64((date.timeIntervalSince1970 * 1000).rounded(.down)), origin: origin)
        }

        /// The time it gives.
        package var date: Date { Date(timeIntervalSince1970: Double(milliseconds) / 1000) }

        /// Its record's payload: revision 0, then the JSON.
        package var payload: [UInt8] {
            var text = "{\"at\":\(milliseconds)"
            if let origin { text += ",\"origin\":" + JSONText.quoted(origin) }
            return [UInt8](repeating: 0, count: 8) + Array((text + "}").utf8)
        }

        /// The marker a change record's split payload holds, or `nil` when it is a change (revision above 0) or
        /// its JSON is not a marker's.
        package init?(revision: UInt64, bytes: ArraySlice<UInt8>) {
            guard revision == 0 else { return nil }
            // The usual marker, `{"at":N}`, is read by hand: a history of durable changes holds one per change.
            let prefix = Array("{\"at\":".utf8)
            if bytes.count > prefix.count + 1, bytes.starts(with: prefix), bytes.last == UInt8(ascii: "}") {
                let digits = bytes.dropFirst(prefix.count).dropLast()
                if digits.count <= 18, digits.allSatisfy({ (0x30...0x39).contains($0) }) {
                    self.init(milliseconds: digits.reduce(0) { $0 * 10 + Int64($1 - 0x30) }, origin: nil)
                    return
                }
            }
            guard let stored = try? JSONDecoder().decode(StoredMarker.self, from: Data(bytes)) else { return nil }
            self.init(milliseconds: stored.at, origin: stored.origin)
        }
    }

    /// A marker as stored.
    private struct StoredMarker: Decodable {
        var at: Int64
        var origin: String?
    }
}
