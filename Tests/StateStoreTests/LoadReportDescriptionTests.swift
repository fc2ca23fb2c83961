import Foundation
import StateStore
import StateStoreSample
import StateStoreTesting
import Testing

@Suite("LoadReport's description for people")
struct LoadReportDescriptionTests {
    @Test func aMigratedLoadListsItsStepsDefaultsAndLineage() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try directory.write("notebook.json", try Fixtures.data("notebook/v1.json"))
        let report = try notebookFile(directory).load().report
        let lines = report.description.split(separator: "\n").map(String.init)
        #expect(lines.first == report.summary)
        #expect(lines.contains("  steps: 1 → 2 → 3 → 4"), "\(report.description)")
        #expect(lines.contains("  backup: the version 1 bytes go to notebook.json.v1.bak at the first save"))
        #expect(lines.contains { $0.hasPrefix("  lineage: \(report.lineage.rawValue), revision ") })
        #expect(lines.last?.hasPrefix("  took: ") == true && lines.last?.hasSuffix(" ms") == true)
        if !report.fieldsDefaulted.isEmpty {
            #expect(lines.contains { $0.hasPrefix("  defaulted: ") })
        }
        #expect(!report.description.contains("ClosedRange"))
    }

    @Test func aCurrentFileHasNoStepsLine() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try directory.write("notebook.json", try Fixtures.data("notebook/v4.json"))
        let report = try notebookFile(directory).load().report
        #expect(!report.description.contains("steps:") && !report.description.contains("backup:"))
        #expect(report.description.hasPrefix("loaded version 4"))
    }
}
