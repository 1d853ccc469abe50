import Foundation
import NetworkingKit
import Testing

/// ``HTTPRequest/curlDescription(body:redaction:)``: the exact commands, and that a shell reads
/// them back as the intended arguments.
@Suite("cURL description")
struct CURLDescriptionTests {
    static func request(
        _ path: String, method: HTTPRequest.Method = .get, _ headers: [(String, String)] = []
    ) -> HTTPRequest {
        var fields = HTTPFields()
        for (name, value) in headers {
            if let name = HTTPField.Name(name) { fields.append(HTTPField(name: name, value: value)) }
        }
        return HTTPRequest(method: method, scheme: "https", authority: "api.example.com", path: path, headerFields: fields)
    }

    @Test("GET with a query, a declared secret parameter hidden")
    func getWithQuery() {
        let request = Self.request("/v1/films?api_key=k3y&page=2", [("Accept", "application/json")])
        #expect(
            request.curlDescription(redaction: .default.adding(queryParameters: ["api_key"]))
                == "curl -X GET 'https://api.example.com/v1/films?api_key=%3Credacted%3E&page=2' -H 'Accept: application/json'"
        )
    }

    @Test("POST JSON whose body holds a single quote")
    func postJSON() {
        let request = Self.request("/v1/films", method: .post, [("Content-Type", "application/json")])
        let body = Data(#"{"title":"Woody's Roundup"}"#.utf8)
        #expect(
            request.curlDescription(body: body)
                == #"curl -X POST 'https://api.example.com/v1/films' -H 'Content-Type: application/json' --data-raw '{"title":"Woody'\''s Roundup"}'"#
        )
    }

    @Test("a body starting with @ is sent as text, never read from a file")
    func atSignBody() {
        let request = Self.request("/v1/notes", method: .post, [("Content-Type", "text/plain")])
        #expect(
            request.curlDescription(body: Data("@/etc/passwd".utf8))
                == "curl -X POST 'https://api.example.com/v1/notes' -H 'Content-Type: text/plain' --data-raw '@/etc/passwd'")
    }

    @Test("a method with shell characters is quoted; brackets in a URL cannot trigger curl's globbing")
    func shellSafety() throws {
        let method = try #require(HTTPRequest.Method("X&id"))
        #expect(Self.request("/v1/x", method: method).curlDescription() == "curl -X 'X&id' 'https://api.example.com/v1/x'")
        // Brackets come out percent-encoded, so curl's globbing never sees them.
        #expect(
            Self.request("/v1/films?ids[]=1").curlDescription()
                == "curl -X GET 'https://api.example.com/v1/films?ids%5B%5D=1'")
    }

    @Test("header values are quoted, quotes in them escaped")
    func headerEscaping() {
        let request = Self.request("/v1/x", [("X-Note", #"it's "fine" $HOME `id`"#)])
        #expect(
            request.curlDescription()
                == #"curl -X GET 'https://api.example.com/v1/x' -H 'X-Note: it'\''s "fine" $HOME `id`'"#)
    }

    @Test("credentials are hidden by default and shown when redaction is nil")
    func redactedUnlessAsked() {
        let request = Self.request("/v1/me", [("Authorization", "Bearer s3cret"), ("Cookie", "id=1")])
        #expect(
            request.curlDescription()
                == "curl -X GET 'https://api.example.com/v1/me' -H 'Authorization: Bearer <redacted>' -H 'Cookie: <redacted>'")
        #expect(
            request.curlDescription(redaction: nil)
                == "curl -X GET 'https://api.example.com/v1/me' -H 'Authorization: Bearer s3cret' -H 'Cookie: id=1'")
    }

    @Test("form and JSON bodies have declared secrets hidden")
    func bodyRedaction() {
        let redaction = Redaction.default.adding(queryParameters: ["password"])
        let form = Self.request("/login", method: .post, [("Content-Type", "application/x-www-form-urlencoded")])
        #expect(
            form.curlDescription(body: Data("password=hunter2&user=woody".utf8), redaction: redaction)
                == "curl -X POST 'https://api.example.com/login' -H 'Content-Type: application/x-www-form-urlencoded' --data-raw 'password=%3Credacted%3E&user=woody'"
        )
    }

    @Test("HEAD uses --head; a binary body is described, not inlined")
    func headAndBinary() {
        #expect(Self.request("/v1/x", method: .head).curlDescription() == "curl --head 'https://api.example.com/v1/x'")
        #expect(
            Self.request("/v1/x", method: .put).curlDescription(body: Data([0xFF, 0xFE, 0x00]))
                == "curl -X PUT 'https://api.example.com/v1/x' --data-raw '<3 bytes of binary data>'")
    }

    #if os(macOS) || os(Linux)
    @Test(
        "a POSIX shell reads the command back as the intended arguments",
        .enabled(if: FileManager.default.isExecutableFile(atPath: "/bin/sh")))
    func shellRoundTrip() throws {
        let note = #"it's "fine" $HOME `id` \n"#
        let body = #"{"title":"Woody's Roundup"}"#
        let request = Self.request("/v1/films", method: .post, [("X-Note", note)])
        let command = request.curlDescription(body: Data(body.utf8), redaction: nil)
        // Replace `curl` with a command that prints each argument on its own line.
        let printing = "printf '%s\\n'" + command.dropFirst("curl".count)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", printing]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        process.waitUntilExit()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(
            text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
                == ["-X", "POST", "https://api.example.com/v1/films", "-H", "X-Note: \(note)", "--data-raw", body, ""])
    }
    #endif
}
