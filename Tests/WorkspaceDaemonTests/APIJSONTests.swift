import Testing
import WorkspaceAPI

@testable import WorkspaceDaemon

/// The strict request-body rules of docs/api.md: each refusal's code, field and status.
@Suite struct APIJSONTests {
    private func refusal(_ text: String) -> APIError? {
        refusal(Array(text.utf8))
    }

    private func refusal(_ bytes: [UInt8]) -> APIError? {
        do {
            _ = try APIJSON.decode(AddFavoriteRequest.self, from: bytes)
            return nil
        } catch {
            #expect(error.status == .badRequest)
            return error.error
        }
    }

    @Test func aWellFormedBodyDecodes() throws {
        let body = try APIJSON.decode(AddFavoriteRequest.self, from: Array(#"{"name":"Home","path":"/home"}"#.utf8))
        #expect(body == AddFavoriteRequest(name: "Home", path: "/home"))
    }

    @Test func bytesThatAreNotUTF8AreInvalidJSON() {
        let error = refusal([0x7B, 0x22, 0xFF, 0x22, 0x3A, 0x31, 0x7D])
        #expect(error?.code == APIErrorCode.invalidJSON)
        #expect(error?.message.contains("UTF-8") == true)
    }

    // Foundation's parser tolerates a trailing comma in an object (as JSONSerialization did before it); that is
    // the one leniency, and it cannot smuggle in a key.
    @Test(arguments: [#"{"name":"#, "", "nope", "{'name':'a'}", #"{"name":"a" "path":"/a"}"#, "{/* x */}"])
    func brokenJSONIsInvalidJSON(_ text: String) {
        let error = refusal(text)
        #expect(error?.code == APIErrorCode.invalidJSON)
        #expect(error?.message == "the body is not valid JSON")
        #expect(error?.field == nil)
    }

    @Test(arguments: ["[]", "5", #""text""#, "null", "true"])
    func aBodyThatIsNotAnObjectIsRefused(_ text: String) {
        let error = refusal(text)
        #expect(error?.code == APIErrorCode.invalidJSON)
        #expect(error?.message == "the body must be a JSON object")
    }

    @Test func anUnknownKeyIsNamed() {
        let error = refusal(#"{"name":"a","path":"/a","zeta":1,"extra":true}"#)
        #expect(error?.code == APIErrorCode.unknownField)
        #expect(error?.field == "extra", "the first unknown key in sorted order")
    }

    @Test func aMissingKeyIsNamed() {
        let error = refusal(#"{"name":"a"}"#)
        #expect(error?.code == APIErrorCode.invalidField)
        #expect(error?.field == "path")
        #expect(error?.message == #""path" is required"#)
    }

    @Test(arguments: [#"{"name":5,"path":"/a"}"#, #"{"name":null,"path":"/a"}"#, #"{"name":["a"],"path":"/a"}"#])
    func aWrongTypeIsNamed(_ text: String) {
        let error = refusal(text)
        #expect(error?.code == APIErrorCode.invalidField)
        #expect(error?.field == "name")
        #expect(error?.message == #""name" must be a string"#)
    }

    @Test func aKeyOfAnotherOperationIsUnknownEvenWhenTheBodyIsOtherwiseFine() {
        let error = refusal(#"{"name":"a","path":"/a","layout":"quad"}"#)
        #expect(error?.code == APIErrorCode.unknownField)
        #expect(error?.field == "layout")
    }

    @Test func nullIsAllowedWhereTheFieldIsOptional() throws {
        let body = try APIJSON.decode(SetActiveProjectRequest.self, from: Array(#"{"projectID":null}"#.utf8))
        #expect(body.projectID == nil)
        #expect(throws: APIFailure.self) { try APIJSON.decode(SetActiveProjectRequest.self, from: Array("{}".utf8)) }
    }
}
