import Foundation
import StateStore
import Testing

@testable import StateJSON

/// The compact encoder's buffer: one block that grows without losing a byte and becomes `Data` without a copy.
@Suite("Compact byte buffer")
struct CompactByteBufferTests {
    @Test func bytesSurviveEveryGrowthFromAOneByteStart() {
        let buffer = CompactByteBuffer(capacity: 1)
        var expected: [UInt8] = []
        for round in 0..<5_000 {
            let byte = UInt8(truncatingIfNeeded: round)
            switch round % 3 {
            case 0:
                buffer.append(byte)
                expected.append(byte)
            case 1:
                buffer.append(byte, byte &+ 1)
                expected.append(contentsOf: [byte, byte &+ 1])
            default:
                let run = [UInt8](repeating: byte, count: round % 97)
                run.withUnsafeBufferPointer { buffer.append($0) }
                expected.append(contentsOf: run)
            }
        }
        #expect(buffer.count == expected.count)
        #expect(buffer[0] == expected[0] && buffer[expected.count - 1] == expected[expected.count - 1])
        #expect(buffer.takeData() == Data(expected))
    }

    @Test func removeLastAndWithBytesSeeWhatIsLeft() {
        let buffer = CompactByteBuffer(capacity: 4)
        Array("{\"a\":1,\"b\":2}".utf8).withUnsafeBufferPointer { buffer.append($0) }
        #expect(buffer.withBytes(from: 5) { Array($0) } == Array("1,\"b\":2}".utf8))
        buffer.removeLast(buffer.count - 6)
        buffer.append(UInt8(ascii: "}"))
        #expect(String(decoding: buffer.takeData(), as: UTF8.self) == "{\"a\":1}")
    }

    @Test func takeDataLeavesAnEmptyBufferThatCanBeWrittenAgain() {
        let buffer = CompactByteBuffer(capacity: 16)
        #expect(buffer.takeData().isEmpty)
        buffer.append(UInt8(ascii: "x"))
        let first = buffer.takeData()
        #expect(buffer.count == 0)
        buffer.append(UInt8(ascii: "y"), UInt8(ascii: "z"))
        #expect(first == Data("x".utf8))
        #expect(buffer.takeData() == Data("yz".utf8))
    }
}
