import Foundation
import Testing
import WorkspaceClient

@Suite("malformed requests against the real daemon")
struct MalformedRequestTests {
    @Test("every malformed request gets a 4xx error body and leaves the revision and the file unchanged")
    func corpusChangesNothing() async throws {
        let daemon = try LiveDaemon()
        try await daemon.start()
        let client = daemon.client()
        let project = try #require(try await client.createProject(name: "P", layout: .single).value)
        let pane = try #require(try await client.addPane(projectID: project.id, folder: "/p").value)
        let tab = try #require(try await client.openTab(paneID: pane.id, folder: "/p/t").value)
        let favorite = try #require(try await client.addFavorite(name: "F", path: "/f").value)
        _ = try await client.flush()
        let bytes = try #require(daemon.stateBytes())
        let revision = try await client.status().revision

        let corpus = malformedCorpus(
            CorpusTargets(
                projectID: project.id.text, paneID: pane.id.text, tabID: tab.id.text, favoriteID: favorite.id.text))
        #expect(corpus.count >= 100)
        for testCase in corpus {
            let response: RawResponse
            do {
                response = try await rawSend(
                    daemon, testCase.method, testCase.target, headers: testCase.headers, body: testCase.body)
            } catch {
                Issue.record("\(testCase): no response: \(error)")
                continue
            }
            #expect((400..<500).contains(response.status), "\(testCase): \(response.status)")
            if let expected = testCase.status {
                #expect(response.status == expected, "\(testCase): \(response.status) \(text(response.body))")
            }
            let refusal = try? JSONDecoder().decode(APIError.self, from: Data(response.body))
            #expect(refusal != nil, "\(testCase): not an error body: \(text(response.body))")
            let now = try await client.status().revision
            #expect(now == revision, "\(testCase) changed the revision to \(now)")
        }
        _ = try await client.flush()
        #expect(daemon.stateBytes() == bytes)
        #expect(try await client.status().revision == revision)
        daemon.stop()
    }

    private func text(_ body: [UInt8]) -> String { String(decoding: body.prefix(300), as: UTF8.self) }
}
