// The pull reader's throughput against JSONDecoder and JSONSerialization on the same file (issue 29's starting
// point): `make bench-reader FILE=…` compiles this file with StateJSON's sources (its API is `package`, which the
// Benchmarks package cannot see) and prints the median of 5 runs of each, in ms and MB/s.
//
// The walk reads every key, string, number and literal as a generated decoder would, without building a model;
// the JSONDecoder line decodes the same bytes into a Decodable that reads every value (AnyJSON).

import Foundation

/// Reads every value of the document at the reader, returning a number made of them so that nothing is optimized
/// away.
func walk(_ reader: inout JSONPullReader) throws -> Int {
    switch try reader.peekKind() {
    case .object:
        try reader.beginObject()
        var n = 0
        while let key = try reader.nextKey() { n += key.rawBytes.count; n += try walk(&reader) }
        return n
    case .array:
        try reader.beginArray()
        var n = 0
        while try reader.nextElement() { n += try walk(&reader) }
        return n
    case .string: return try reader.readString().utf8.count
    case .number: return Int(try reader.readDouble())
    case .bool: return try reader.readBool() ? 1 : 0
    case .null: _ = try reader.readNull(); return 0
    }
}

/// Any JSON value, read through JSONDecoder's containers.
indirect enum AnyJSON: Decodable {
    case null, bool(Bool), number(Double), string(String), array([AnyJSON]), object([String: AnyJSON])
    struct Key: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
    init(from decoder: any Decoder) throws {
        if let c = try? decoder.container(keyedBy: Key.self) {
            var m: [String: AnyJSON] = [:]
            for k in c.allKeys { m[k.stringValue] = try c.decode(AnyJSON.self, forKey: k) }
            self = .object(m); return
        }
        if var a = try? decoder.unkeyedContainer() {
            var e: [AnyJSON] = []
            while !a.isAtEnd { e.append(try a.decode(AnyJSON.self)) }
            self = .array(e); return
        }
        let s = try decoder.singleValueContainer()
        if s.decodeNil() {
            self = .null
        } else if let b = try? s.decode(Bool.self) {
            self = .bool(b)
        } else if let d = try? s.decode(Double.self) {
            self = .number(d)
        } else {
            self = .string(try s.decode(String.self))
        }
    }
}

let data = try Data(contentsOf: URL(fileURLWithPath: CommandLine.arguments[1]))
func time(_ label: String, _ body: () throws -> Void) rethrows {
    var samples: [Double] = []
    for _ in 0..<5 {
        let t = ContinuousClock.now; try body(); samples.append((ContinuousClock.now - t).seconds)
    }
    let m = samples.sorted()[2]
    print(
        label.padding(toLength: 40, withPad: " ", startingAt: 0)
            + String(format: " %8.1f ms  %6.0f MB/s", m * 1000, Double(data.count) / m / 1e6))
}
extension Duration { var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 } }
try time("pull reader: every value read") {
    try data.withUnsafeBytes { raw in
        var r = JSONPullReader(bytes: raw); _ = try walk(&r); try r.finish()
    }
}
try time("pull reader: skipValue of the root") {
    try data.withUnsafeBytes { raw in
        var r = JSONPullReader(bytes: raw); _ = try r.skipValue(); try r.finish()
    }
}
try time("pull reader: skipValue, checking values") {
    try data.withUnsafeBytes { raw in
        var r = JSONPullReader(bytes: raw); _ = try r.skipValue(checkingValues: true); try r.finish()
    }
}
try time("JSONDecoder: every value (AnyJSON)") { _ = try JSONDecoder().decode(AnyJSON.self, from: data) }
try time("JSONSerialization") { _ = try JSONSerialization.jsonObject(with: data) }
