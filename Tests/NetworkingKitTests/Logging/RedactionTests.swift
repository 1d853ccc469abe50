import Foundation
import NetworkingKit
import Testing

/// What ``Redaction`` hides in headers, URLs and free text, and what it leaves alone.
@Suite("Redaction")
struct RedactionTests {
    let redaction = Redaction.default.adding(headers: ["X-API-Key"], queryParameters: ["api_key", "token"])

    @Test("sensitive headers are hidden, authorization schemes kept, other headers and order untouched")
    func headers() throws {
        var fields = HTTPFields()
        fields[.accept] = "application/json"
        fields[.authorization] = "Bearer abc.def"
        fields[.proxyAuthorization] = "Basic dXNlcjpwdw=="
        fields[.cookie] = "session=xyz"
        fields.append(HTTPField(name: .setCookie, value: "id=1; HttpOnly"))
        fields[try #require(HTTPField.Name("X-API-Key"))] = "k3y"
        let redacted = redaction.redact(fields)
        #expect(
            redacted.map(\.value) == [
                "application/json", "Bearer <redacted>", "Basic <redacted>", "<redacted>", "<redacted>", "<redacted>",
            ])
        #expect(redacted.map(\.name) == fields.map(\.name))
        // API-key headers in common use are hidden by default too; a header of the app's own is not.
        #expect(Redaction.default.redact(fields)[try #require(HTTPField.Name("x-api-key"))] == "<redacted>")
        fields[try #require(HTTPField.Name("X-Request-ID"))] = "r1"
        #expect(Redaction.default.redact(fields)[try #require(HTTPField.Name("x-request-id"))] == "r1")
    }

    @Test("a bare credential in an authorization header is hidden whole")
    func bareAuthorization() {
        var fields = HTTPFields()
        fields[.authorization] = "s3cret"
        #expect(Redaction.default.redact(fields)[.authorization] == "<redacted>")
    }

    @Test("query values are hidden by name, ignoring case and percent-encoding; the URL stays valid")
    func url() throws {
        let url = try #require(URL(string: "https://api.example.com/v1/films?API_KEY=a%20b&page=2&api%5Fkey=x&token=t#token=f"))
        let redacted = redaction.redact(url)
        #expect(
            redacted.absoluteString
                == "https://api.example.com/v1/films?API_KEY=%3Credacted%3E&page=2&api%5Fkey=%3Credacted%3E&token=%3Credacted%3E#token=%3Credacted%3E"
        )
        let items = try #require(URLComponents(url: redacted, resolvingAgainstBaseURL: false)?.queryItems)
        #expect(items.map(\.value) == ["<redacted>", "2", "<redacted>", "<redacted>"])
    }

    @Test("URLs without declared parameters are unchanged; user info is dropped")
    func urlUnchangedOrUserInfo() throws {
        let plain = try #require(URL(string: "https://api.example.com/films?page=2&topic=keys&keyword=x"))
        #expect(redaction.redact(plain) == plain)
        var exactOnly = redaction
        exactOnly.hidesCommonSecretNames = false
        let tokens = try #require(URL(string: "https://api.example.com/films?page=2&tokens=1"))
        #expect(exactOnly.redact(tokens) == tokens)
        let withUser = try #require(URL(string: "https://woody:pa55@api.example.com/films"))
        #expect(redaction.redact(withUser).absoluteString == "https://api.example.com/films")
    }

    @Test("a NetworkError's description is redacted where it quotes the URL")
    func networkError() throws {
        let url = URL(string: "https://api.example.com/films?api_key=k3y-value&page=2")
        let error = NetworkError.notFound(
            HTTPFailure(request: RequestSummary(method: .get, url: url), response: HTTPResponse(status: .notFound)))
        // The description hides the parameters named as secrets commonly are on its own.
        #expect(!error.description.contains("k3y-value"))
        let text = redaction.redact(error)
        #expect(!text.contains("k3y-value"))
        #expect(text.contains("GET https://api.example.com/films?api_key=%3Credacted%3E&page=2 -> 404"))
        #expect(redaction.redact(error as any Error) == text)
    }

    @Test("free text: header lines, JSON members, form pairs and bearer tokens")
    func text() {
        #expect(redaction.redact("Authorization: Bearer abc\nAccept: */*") == "Authorization: Bearer <redacted>\nAccept: */*")
        #expect(redaction.redact(#"["Cookie": "a=b; c=d", "Accept": "x"]"#) == #"["Cookie": "<redacted>", "Accept": "x"]"#)
        #expect(redaction.redact(#"{"token":"t\"ok","id":1}"#) == #"{"token":"<redacted>","id":1}"#)
        #expect(redaction.redact("grant=x token=abc&api_key=k") == "grant=x token=<redacted>&api_key=%3Credacted%3E")
        #expect(redaction.redact("sent bearer eyJhbGci.eyJzdWIi.sig to the server") == "sent bearer <redacted> to the server")
    }

    @Test("prose that only mentions a secret's name is left readable")
    func prose() {
        let messages = [
            "The access token is invalid.", "Basic authentication required", "Cookies are disabled", "x-authorization: fine",
        ]
        for message in messages {
            #expect(redaction.redact(message) == message)
        }
    }

    @Test("redacting twice changes nothing more")
    func idempotent() {
        let inputs = [
            "GET https://x.test/a?api_key=1234&b=2", "Authorization: Bearer abc", #"{"token":"abc"}"#, "Cookie: a=b",
        ]
        for input in inputs {
            let once = redaction.redact(input)
            #expect(redaction.redact(once) == once)
        }
    }

    @Test(
        "by default, parameters named as secrets commonly are hidden in URLs, forms and JSON, whatever their case; others are shown",
        arguments: [
            "access_token", "refresh_token", "client_secret", "password", "api_key", "apikey", "X-Amz-Signature",
            "X-Amz-Credential", "key", "sig", "code", "id_token", "sessionId", "Passwd",
        ])
    func commonSecretNames(name: String) throws {
        let url = try #require(URL(string: "https://api.example.com/cb?page=2&\(name)=s3cr3t-value&q=toy"))
        let redacted = Redaction.default.redact(url).absoluteString
        #expect(redacted == "https://api.example.com/cb?page=2&\(name)=%3Credacted%3E&q=toy")
        #expect(!Redaction.default.redact(#"{"user":"woody","\#(name)":"s3cr3t-value"}"#).contains("s3cr3t-value"))
        #expect(!Redaction.default.redact("user=woody&\(name)=s3cr3t-value").contains("s3cr3t-value"))
        #expect(!Redaction.default.redact("\(name): s3cr3t-value").contains("s3cr3t-value"))
        let error = NetworkError.notFound(
            HTTPFailure(request: RequestSummary(method: .get, url: url), response: HTTPResponse(status: .notFound)))
        #expect(!error.description.contains("s3cr3t-value"))
    }

    @Test("names that only contain a short secret name, and prose, stay readable")
    func commonNamesNotOverreaching() throws {
        let url = try #require(URL(string: "https://api.example.com/search?keyword=pixar&country_code=fr&author=lasseter"))
        #expect(Redaction.default.redact(url) == url)
        #expect(Redaction.default.redact("the token expired; ask for another") == "the token expired; ask for another")
        #expect(Redaction.default.redact(#"{"title":"Toy Story","year":1995}"#) == #"{"title":"Toy Story","year":1995}"#)
    }
}
