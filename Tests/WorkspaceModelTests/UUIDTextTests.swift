import Foundation
import Testing

@testable import WorkspaceModel

/// `UUIDText.parse`, which checks and converts eight digits at a time, against the grammar spelled out a character
/// at a time: every byte value at every position of a UUID's text, and random UUIDs in both letter cases.
@Suite struct UUIDTextTests {
    /// The grammar spelled out a character at a time: 8-4-4-4-12 hexadecimal digits in either letter case, the
    /// UUID, and whether no letter is upper case. (Foundation's parser on Linux also takes leading spaces, signs and
    /// `0x`, which a state file's id never holds and which the reader refuses.)
    func reference(_ text: [UInt8]) -> (uuid: UUID, isLowerCase: Bool)? {
        guard text.count == 36 else { return nil }
        var nibbles: [UInt8] = []
        for (position, byte) in text.enumerated() {
            if [8, 13, 18, 23].contains(position) {
                guard byte == UInt8(ascii: "-") else { return nil }
                continue
            }
            guard let value = Character(Unicode.Scalar(byte)).hexDigitValue, byte < 0x80 else { return nil }
            nibbles.append(UInt8(value))
        }
        var bytes = [UInt8](repeating: 0, count: 16)
        for index in 0..<16 { bytes[index] = nibbles[2 * index] << 4 | nibbles[2 * index + 1] }
        let uuid = bytes.withUnsafeBytes { $0.loadUnaligned(as: uuid_t.self) }
        return (UUID(uuid: uuid), !text.contains { (UInt8(ascii: "A")...UInt8(ascii: "F")).contains($0) })
    }

    func parse(_ text: [UInt8]) -> (uuid: UUID, isLowerCase: Bool)? {
        text.withUnsafeBufferPointer { UUIDText.parse($0) }
    }

    @Test func everyByteAtEveryPositionIsJudgedAsTheGrammarJudgesIt() {
        let base = Array("0123abcd-ef45-6789-AbCd-ef0123456789".utf8)
        var mismatches: [String] = []
        for position in base.indices {
            for byte in UInt8.min...UInt8.max {
                var text = base
                text[position] = byte
                let (found, expected) = (parse(text), reference(text))
                if found?.uuid != expected?.uuid || found?.isLowerCase != expected?.isLowerCase {
                    mismatches.append("byte \(byte) at \(position): \(String(describing: found))")
                }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
    }

    @Test func randomUUIDsReadBackInBothLetterCases() {
        for _ in 0..<2000 {
            let uuid = UUID()
            let lower = Array(uuid.uuidString.lowercased().utf8)
            let upper = Array(uuid.uuidString.uppercased().utf8)
            #expect(parse(lower)?.uuid == uuid && parse(lower)?.isLowerCase == true)
            #expect(parse(upper)?.uuid == uuid && parse(upper)?.isLowerCase == (upper == lower))
            #expect(UUIDText.lowerCase(uuid) == uuid.uuidString.lowercased())
        }
    }

    @Test func otherLengthsAndDashesAreRefused() {
        let text = "0123abcd-ef45-6789-abcd-ef0123456789"
        #expect(parse(Array(text.dropLast().utf8)) == nil)
        #expect(parse(Array((text + "0").utf8)) == nil)
        #expect(parse(Array(text.replacingOccurrences(of: "-", with: "0").utf8)) == nil)
    }
}
