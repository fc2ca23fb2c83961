// The libFuzzer driver of the fuzz targets (WorkspaceFuzzing); built only by `make fuzz` (WSD_FUZZ=1, with
// `-sanitize=fuzzer,address`). `WorkspaceFuzz --target=NAME [libFuzzer flags] [corpus directories]`.
import CLibFuzzer
import Foundation
import WorkspaceFuzzing

/// libFuzzer's own `main` is linked in too, and needs this symbol, though SwiftPM's `main=WorkspaceFuzz_main`
/// replaces it with the code below.
@_cdecl("LLVMFuzzerTestOneInput")
func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    FuzzDriver.testOneInput(data, size)
}

guard let target = FuzzDriver.selectedTarget(CommandLine.arguments) else {
    let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")
    FileHandle.standardError.write(Data("usage: WorkspaceFuzz --target=NAME [libFuzzer flags] (\(names))\n".utf8))
    exit(2)
}
do {
    FuzzDriver.checker = try target.makeChecker()
} catch {
    FileHandle.standardError.write(Data("WorkspaceFuzz: \(target.rawValue): \(error)\n".utf8))
    exit(1)
}
var argc = CommandLine.argc
var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&argc, &argv) { data, size in FuzzDriver.testOneInput(data, size) })
