import Foundation
import Testing
import WorkspaceAPI

@Suite("malformed requests against the real daemon")
struct MalformedRequestTests {
    /// Requests of the corpus sent at once.
    static let inFlight = 8

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
        // A few requests at a time: one after the other the corpus takes well under a second alone, but beside
        // the rest of the suite every request waits its turn on the cooperative pool (about 8 s in all). Each
        // request is still checked on its own; the revision after each group, naming the group, and at the end.
        for start in stride(from: 0, to: corpus.count, by: Self.inFlight) {
            let group = Array(corpus[start..<min(start + Self.inFlight, corpus.count)])
            let responses = await withTaskGroup(of: (Int, Result<RawResponse, any Error>).self) { tasks in
                for (index, testCase) in group.enumerated() {
                    tasks.addTask {
                        do {
                            let response = try await rawSend(
                                daemon, testCase.method, testCase.target, headers: testCase.headers,
                                body: testCase.body)
                            return (index, .success(response))
                        } catch {
                            return (index, .failure(error))
                        }
                    }
                }
                var all = [Result<RawResponse, any Error>?](repeating: nil, count: group.count)
                for await (index, result) in tasks { all[index] = result }
                return all
            }
            for (testCase, result) in zip(group, responses) {
                let response: RawResponse
                switch result {
                case .success(let received)?: response = received
                case .failure(let error)?:
                    Issue.record("\(testCase): no response: \(error)")
                    continue
                case nil:
                    Issue.record("\(testCase): no result")
                    continue
                }
                #expect((400..<500).contains(response.status), "\(testCase): \(response.status)")
                if let expected = testCase.status {
                    #expect(response.status == expected, "\(testCase): \(response.status) \(text(response.body))")
                }
                let refusal = try? JSONDecoder().decode(APIError.self, from: Data(response.body))
                #expect(refusal != nil, "\(testCase): not an error body: \(text(response.body))")
            }
            let now = try await client.status().revision
            #expect(now == revision, "one of \(group) changed the revision to \(now)")
        }
        _ = try await client.flush()
        #expect(daemon.stateBytes() == bytes)
        #expect(try await client.status().revision == revision)
        await daemon.stop()
    }

    private func text(_ body: [UInt8]) -> String { String(decoding: body.prefix(300), as: UTF8.self) }
}
