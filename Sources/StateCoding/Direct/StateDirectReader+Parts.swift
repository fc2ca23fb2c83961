import Dispatch
import FoundationEssentials
import Glibc
import StateJSON
import Synchronization

// Reading a large array in two parts, the second on another thread: the first part is read as always; the
// second starts where a guess says an element begins, and is used only if the first part's read arrives exactly
// there, between two elements of the same array. A wrong guess costs the other thread's time, never an answer.

extension StateDirectReader {
    /// Reads an array of `Element` values. An array at the root (or one level below) with at least
    /// ``splitsArraysFrom`` bytes left in the document is read in two parts, the second on another thread, when
    /// its elements are objects written without whitespace (as StateStore writes them); the result, the defaults
    /// and the unknown keys counted, and any error are those of a read in one part.
    @inlinable
    public mutating func readElements<Element: StateDirectDecodable>(_ type: Element.Type) throws -> [Element] {
        try beginArray()
        path.append(.element)
        defer { path.removeLast() }
        if mayReadInParts { return try readInParts(Element.self) }
        var elements: [Element] = []
        while try nextElement() {
            elements.append(try Element(stateReader: &self))
        }
        return elements
    }

    /// Whether the array just opened may be read in two parts.
    @usableFromInline
    var mayReadInParts: Bool {
        guard let from = splitsArraysFrom, splitsLeft > 0, path.count <= 3 else { return false }
        return json.bytes.count - json.byteOffset >= from
    }

    /// The array's elements, the second part read by a ``PartReader`` when a place to start it is found.
    @usableFromInline
    mutating func readInParts<Element: StateDirectDecodable>(_ type: Element.Type) throws -> [Element] {
        splitsLeft -= 1
        var elements: [Element] = []
        guard try nextElement() else { return elements }
        let firstStart = json.byteOffset
        elements.append(try Element(stateReader: &self))
        var part = startSecondPart(Element.self, firstElementAt: firstStart)
        // Stopped and waited for whatever ends the read: the other thread reads these bytes.
        defer { part?.stop() }
        while try nextElement() {
            elements.append(try Element(stateReader: &self))
            guard let second = part, json.byteOffset >= second.start else { continue }
            part = nil
            guard json.byteOffset == second.start, let read = second.result() else {
                // Past the guess without an element starting there, or the second part did not read: on in one.
                second.stop()
                continue
            }
            // Room for exactly both parts: appending grows by doubling, which would leave up to half the
            // array's bytes (the bulk of the model, for a workspace's projects) allocated and unused.
            elements.reserveCapacity(elements.count + read.elements.count)
            elements.append(contentsOf: read.elements)
            for (field, count) in read.fieldsDefaulted { fieldsDefaulted[field, default: 0] += count }
            for (field, count) in read.unknownKeysKept { unknownKeysKept[field, default: 0] += count }
            for (field, count) in read.unknownKeysDropped { unknownKeysDropped[field, default: 0] += count }
            // Nothing of the first part is read again: all of it goes back (a page mapped with a large folio
            // would otherwise stay, mapped again by the faults that follow the last release).
            releaseRest()
            json.reposition(at: read.end, depth: read.depth)
            arraysReadInParts += 1
            return elements
        }
        return elements
    }

    /// A reader of the array's second part, started on another thread at the first `,` followed by the first
    /// element's opening bytes (`{` up to its first key's `:`) after the middle of what is left; nil when the
    /// first element is not such an object or no such place is found within 4 MiB of the middle.
    private func startSecondPart<Element: StateDirectDecodable>(
        _ type: Element.Type, firstElementAt firstStart: Int
    ) -> PartReader<Element>? {
        let bytes = json.bytes
        guard let base = bytes.baseAddress, bytes[firstStart] == UInt8(ascii: "{") else { return nil }
        var patternEnd = firstStart + 1
        while patternEnd < min(bytes.count, firstStart + 64), bytes[patternEnd] != UInt8(ascii: ":") {
            patternEnd += 1
        }
        guard patternEnd < bytes.count, bytes[patternEnd] == UInt8(ascii: ":") else { return nil }
        var pattern: [UInt8] = [UInt8(ascii: ",")]
        pattern += bytes[firstStart...patternEnd]
        let middle = json.byteOffset + (bytes.count - json.byteOffset) / 2
        let searched = min(bytes.count - middle, 4 << 20)
        guard searched >= pattern.count else { return nil }
        guard let found = Self.find(pattern, in: UnsafeRawBufferPointer(start: base + middle, count: searched))
        else { return nil }
        let part = PartReader<Element>(
            bytes: bytes, start: middle + found, depth: json.nestingDepth,
            dateCoding: dateCoding, path: path, releaseInterval: releaseInterval, releaseRange: releaseRange)
        // A thread of its own, not a Dispatch or Swift concurrency pool's: the first part blocks until the second
        // is read, and a pool whose threads are all blocked so (tests read many files at once) would start it
        // late or never. Through an existential, so that the closure captures no generic metatype.
        let reading: any PartReading = part
        DedicatedThread.start { reading.run() }
        return part
    }
}

extension StateDirectReader {
    /// Gives back every byte passed since the last release, when the read will not look at them again.
    mutating func releaseRest() {
        guard json.byteOffset > releasedFrom else { return }
        releaseRange?(releasedFrom..<json.byteOffset)
        releasedFrom = json.byteOffset
    }

    /// The offset of the first occurrence of `pattern` (which starts with a `,`) in `bytes`.
    static func find(_ pattern: [UInt8], in bytes: UnsafeRawBufferPointer) -> Int? {
        guard let base = bytes.baseAddress, pattern.count <= bytes.count else { return nil }
        var offset = 0
        let last = bytes.count - pattern.count
        while offset <= last {
            guard let comma = memchr(base + offset, Int32(pattern[0]), last - offset + 1) else { return nil }
            offset = base.distance(to: UnsafeRawPointer(comma))
            if memcmp(base + offset, pattern, pattern.count) == 0 { return offset }
            offset += 1
        }
        return nil
    }
}

/// A second part to read on another thread.
protocol PartReading: AnyObject, Sendable {
    /// Reads the part.
    func run()
}

/// The second part of an array read in two: read on another thread from `start` (an element's `,`, if the guess
/// was right) to the array's `]`, and handed to the first part's reader when it arrives at `start`.
///
/// The reader of the first part holds the bytes alive until it has called ``result()`` or ``stop()``.
final class PartReader<Element: StateDirectDecodable>: PartReading, @unchecked Sendable {
    /// What the second part read.
    struct Read {
        var elements: [Element]
        /// Where the read ended (after the `]`) and the depth there.
        var end: Int
        var depth: Int
        var fieldsDefaulted: [String: Int]
        var unknownKeysKept: [String: Int]
        var unknownKeysDropped: [String: Int]
    }

    /// The offset of the `,` the part starts at.
    let start: Int
    private let bytes: UnsafeRawBufferPointer
    private let depth: Int
    private let dateCoding: StateDirectDateCoding
    private let path: [StateDirectReader.PathItem]
    private let releaseInterval: Int
    private let releaseRange: (@Sendable (Range<Int>) -> Void)?
    private let stopping = Atomic<Bool>(false)
    private let done = DispatchSemaphore(value: 0)
    private var joined = false
    /// Written by the reading thread before it signals ``done``; read after waiting on it.
    private var read: Read?

    init(
        bytes: UnsafeRawBufferPointer, start: Int, depth: Int, dateCoding: StateDirectDateCoding,
        path: [StateDirectReader.PathItem], releaseInterval: Int, releaseRange: (@Sendable (Range<Int>) -> Void)?
    ) {
        self.bytes = bytes
        self.start = start
        self.depth = depth
        self.dateCoding = dateCoding
        self.path = path
        self.releaseInterval = releaseInterval
        self.releaseRange = releaseRange
    }

    /// Reads the part (on the other thread), stopping early when asked to.
    func run() {
        defer { done.signal() }
        var reader = StateDirectReader(bytes: bytes, dateCoding: dateCoding)
        reader.path = path
        reader.json.reposition(at: start, depth: depth)
        if let releaseRange { reader.releaseBytes(every: releaseInterval, releaseRange) }
        var elements: [Element] = []
        do {
            while try reader.nextElement() {
                if stopping.load(ordering: .relaxed) { return }
                elements.append(try Element(stateReader: &reader))
            }
        } catch {
            return
        }
        reader.releaseRest()
        read = Read(
            elements: elements, end: reader.json.byteOffset, depth: reader.json.nestingDepth,
            fieldsDefaulted: reader.fieldsDefaulted, unknownKeysKept: reader.unknownKeysKept,
            unknownKeysDropped: reader.unknownKeysDropped)
    }

    /// Waits for the part and returns what it read; nil when it did not read to the array's end.
    func result() -> Read? {
        join()
        return read
    }

    /// Asks the part to stop and waits until it has.
    func stop() {
        stopping.store(true, ordering: .relaxed)
        join()
    }

    private func join() {
        guard !joined else { return }
        done.wait()
        joined = true
    }
}
