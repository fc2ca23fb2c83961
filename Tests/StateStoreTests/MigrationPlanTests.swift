import StateStore
import StateStoreSample
import Testing

struct Old: Codable, Sendable, Equatable { var a: Int }
struct Middle: Codable, Sendable, Equatable { var a: Int }
struct Current: Codable, Sendable, Equatable { var a: Int }

@Suite("Migration plan validation")
struct MigrationPlanTests {
    private func step1() -> MigrationStep {
        MigrationStep(from: 1, Old.self, to: Middle.self) { old, _ in Middle(a: old.a) }
    }
    private func step2() -> MigrationStep {
        MigrationStep(from: 2, Middle.self, to: Current.self) { old, _ in Current(a: old.a) }
    }

    @Test func aCompleteChainBuilds() throws {
        let schema = try StateSchema<Current>(
            currentVersion: 3, migrations: [step2(), step1()], initial: { Current(a: 0) })
        #expect(schema.steps(from: 1) == [1...2, 2...3])
        #expect(schema.steps(from: 3).isEmpty)
    }

    @Test func aGapIsReportedWhenThePlanIsBuilt() {
        #expect(throws: MigrationPlanError.missingStep(fromVersion: 2)) {
            try StateSchema<Current>(currentVersion: 3, migrations: [step1()], initial: { Current(a: 0) })
        }
    }

    @Test func aDuplicateStepIsReported() {
        #expect(throws: MigrationPlanError.duplicateStep(fromVersion: 1)) {
            try StateSchema<Current>(
                currentVersion: 3, migrations: [step1(), step2(), step1()], initial: { Current(a: 0) })
        }
    }

    @Test func aStepOutsideTheRangeIsReported() {
        let extra = MigrationStep(from: 3, Current.self, to: Current.self) { old, _ in old }
        #expect(throws: MigrationPlanError.stepOutOfRange(fromVersion: 3, first: 1, current: 3)) {
            try StateSchema<Current>(
                currentVersion: 3, migrations: [step1(), step2(), extra], initial: { Current(a: 0) })
        }
    }

    @Test func mismatchedTypesAreReported() {
        let wrong = MigrationStep(from: 1, Old.self, to: Current.self) { old, _ in Current(a: old.a) }
        #expect(throws: MigrationPlanError.self) {
            try StateSchema<Current>(currentVersion: 3, migrations: [wrong, step2()], initial: { Current(a: 0) })
        }
        let lastWrong = MigrationStep(from: 2, Middle.self, to: Middle.self) { old, _ in old }
        #expect(throws: MigrationPlanError.typeMismatch(fromVersion: 2, produces: "Middle", nextExpects: "Current")) {
            try StateSchema<Current>(currentVersion: 3, migrations: [step1(), lastWrong], initial: { Current(a: 0) })
        }
    }

    @Test func impossibleVersionsAreReported() {
        #expect(throws: MigrationPlanError.invalidVersions(first: 1, current: 2, minReader: 3)) {
            try StateSchema<Current>(
                currentVersion: 2, minReaderVersion: 3, migrations: [], initial: { Current(a: 0) })
        }
    }

    @Test func theSampleSchemaBuilds() throws {
        let schema = try NotebookSchema.make()
        #expect(schema.currentVersion == 4)
        #expect(schema.minReaderVersion == 4)
        #expect(schema.firstVersion == 1)
    }
}
