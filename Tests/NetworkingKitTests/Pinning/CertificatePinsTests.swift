import DemoAPI
import Foundation
import NIOSSL
import Testing

@testable @_spi(Transport) import NetworkingKit

@Suite("Certificate pins")
struct CertificatePinsTests {
    private static let digest = Data(repeating: 1, count: 32)
    private static let wrong = "sha256/" + Data(repeating: 7, count: 32).base64EncodedString()

    private static func der(_ pem: String) throws -> [UInt8] {
        try NIOSSLCertificate(bytes: Array(pem.utf8), format: .pem).toDERBytes()
    }

    @Test("pins match a host exactly or one label under a wildcard, whatever its case, brackets or final dot")
    func pinsByHost() throws {
        let text = Self.digest.base64EncodedString()
        let pins = try CertificatePins(["API.example.com": ["sha256/" + text], "*.cdn.example.com": [text], "[::1]": [text]])
        #expect(pins.accepted(for: "api.example.com") == [try CertificatePin(text)])
        #expect(pins.accepted(for: "api.example.com.") != nil)
        #expect(pins.accepted(for: "img.cdn.example.com") != nil)
        #expect(pins.accepted(for: "a.img.cdn.example.com") == nil)
        #expect(pins.accepted(for: "cdn.example.com") == nil)
        #expect(pins.accepted(for: "example.com") == nil)
        #expect(pins.accepted(for: "::1") != nil)
        #expect(pins.accepted(for: "0:0:0::1") != nil)
        #expect(pins.accepted(for: "[0:0::0:1]") != nil)
        #expect(CertificatePins.none.accepted(for: "api.example.com") == nil)
    }

    @Test("a host named exactly and by a wildcard accepts the pins of both, as OkHttp's does")
    func exactAndWildcard() throws {
        let exact = "sha256/" + Data(repeating: 1, count: 32).base64EncodedString()
        let wildcard = "sha256/" + Data(repeating: 2, count: 32).base64EncodedString()
        let pins = try CertificatePins(["api.example.com": [exact], "*.example.com": [wildcard]])
        #expect(pins.accepted(for: "api.example.com") == [try CertificatePin(exact), try CertificatePin(wildcard)])
        #expect(pins.accepted(for: "www.example.com") == [try CertificatePin(wildcard)])
    }

    @Test(
        "what is not a SHA-256 pin, a host with no pin, and a misplaced wildcard are refused",
        arguments: [
            ["a.example": ["sha256/short"]], ["a.example": ["sha256/" + Data(count: 20).base64EncodedString()]],
            ["a.example": []], ["*": ["sha256/" + Data(count: 32).base64EncodedString()]],
            ["a.*.example": ["sha256/" + Data(count: 32).base64EncodedString()]],
            ["*.": ["sha256/" + Data(count: 32).base64EncodedString()]],
            ["**.example": ["sha256/" + Data(count: 32).base64EncodedString()]],
            ["a..example": ["sha256/" + Data(count: 32).base64EncodedString()]],
            // What is not a host (a typo that would pin nothing): a URL, a port, a space, Unicode.
            ["https://api.example.com": ["sha256/" + Data(count: 32).base64EncodedString()]],
            ["api.example.com:443": ["sha256/" + Data(count: 32).base64EncodedString()]],
            ["api example.com": ["sha256/" + Data(count: 32).base64EncodedString()]],
            ["bücher.example": ["sha256/" + Data(count: 32).base64EncodedString()]],
            ["*.::1": ["sha256/" + Data(count: 32).base64EncodedString()]],
            ["fe80::1%eth0": ["sha256/" + Data(count: 32).base64EncodedString()]],
        ] as [[String: [String]]])
    func refusals(pins: [String: [String]]) {
        #expect(throws: NetworkError.self) { try CertificatePins(pins) }
    }

    @Test("pins apply until their expiry, and not from then on")
    func expiry() throws {
        let expiry = Date(timeIntervalSince1970: 2_000_000_000)
        let pins = try CertificatePins(["api.example.com": [Self.wrong]], expiry: expiry)
        #expect(pins.accepted(for: "api.example.com", at: expiry.addingTimeInterval(-1)) != nil)
        #expect(pins.accepted(for: "api.example.com", at: expiry) == nil)
        #expect(pins.mismatch(certificate: nil, host: "api.example.com", at: expiry) == nil)
        #expect(pins.mismatch(certificate: nil, host: "api.example.com", at: expiry.addingTimeInterval(-1)) != nil)
    }

    @Test("the SubjectPublicKeyInfo read from a certificate's DER is the one SwiftNIO SSL extracts")
    func subjectPublicKeyInfo() throws {
        for pem in [ByteFaultServer.certificatePEM, ByteFaultServer.anotherHostCertificatePEM] {
            let certificate = try NIOSSLCertificate(bytes: Array(pem.utf8), format: .pem)
            let spki = SubjectPublicKeyInfo.bytes(inCertificate: try certificate.toDERBytes())
            #expect(spki.map(Array.init) == (try certificate.extractPublicKey().toSPKIBytes()))
        }
    }

    @Test("a key pin or a certificate pin passes its certificate; another certificate is a mismatch naming its key")
    func matching() throws {
        let der = try Self.der(ByteFaultServer.certificatePEM)
        let other = try Self.der(ByteFaultServer.anotherHostCertificatePEM)
        let key = try #require(CertificatePin.publicKey(ofCertificate: der))
        let certificate = CertificatePin.certificate(ofCertificate: der)
        #expect(key.description.hasPrefix("sha256/"))
        #expect(try CertificatePin(key.description) == key)
        #expect(try CertificatePin.certificate(sha256: certificate.sha256.base64EncodedString()) == certificate)
        #expect(try CertificatePin.certificate(sha256: "sha256/" + certificate.sha256.base64EncodedString()) == certificate)
        for pin in [key, certificate] {
            let pins = try CertificatePins(["host.example": [pin]])
            #expect(pins.mismatch(certificate: der, host: "host.example") == nil)
            let mismatch = pins.mismatch(certificate: other, host: "host.example")
            #expect(mismatch?.presentedPin == CertificatePin.publicKey(ofCertificate: other)?.description)
            #expect(mismatch?.description.contains("host.example") == true)
            // Another host is not pinned.
            #expect(pins.mismatch(certificate: other, host: "other.example") == nil)
        }
    }

    @Test("malformed certificate bytes, cut anywhere or with lengths that lie, are a mismatch with no key, never a crash")
    func hostileBytes() throws {
        let der = try Self.der(ByteFaultServer.certificatePEM)
        let pins = try CertificatePins(["host.example": [Self.wrong]])
        for count in 0..<der.count {
            #expect(SubjectPublicKeyInfo.bytes(inCertificate: Array(der[..<count])) == nil)
        }
        var liar = der
        liar[1] = 0x84  // a four-byte length ...
        liar[2] = 0xFF  // ... of about 4 GiB
        #expect(SubjectPublicKeyInfo.bytes(inCertificate: liar) == nil)
        // A four-byte length from 0x80000000 would be negative in a 32-bit Int (watchOS):
        // lengths of more than three bytes are refused.
        let hostile: [[UInt8]] = [
            [], [0x30], [0x30, 0x80, 0x00, 0x00], [0x30, 0x85, 1, 1, 1, 1, 1], [0x30, 0x02, 0x30, 0x00],
            [0x30, 0x84, 0x80, 0, 0, 0, 0x30, 0x00], [0x30, 0x83, 0xFF, 0xFF, 0xFF, 0x30, 0x00],
        ]
        for bytes in hostile {
            #expect(SubjectPublicKeyInfo.bytes(inCertificate: bytes) == nil)
            #expect(pins.mismatch(certificate: bytes, host: "host.example")?.presentedPin == nil)
        }
    }

    @Test("a pinned host is refused over http always, and over https only by a transport that cannot check it")
    func uncheckable() throws {
        let pins = try CertificatePins(["api.example.com": [Self.wrong]])
        func refusal(_ url: String, checks: Bool) -> CertificatePinningUnavailable? {
            do {
                try pins.refuseUncheckable(
                    HTTPRequest(url: URL(string: url)!), checksCertificates: checks, transport: "TestTransport")
                return nil
            } catch NetworkError.transport(let failure) where failure.kind == .secureConnectionFailed {
                return failure.underlying as? CertificatePinningUnavailable
            } catch {
                Issue.record("unexpected \(error)")
                return nil
            }
        }
        #expect(refusal("https://api.example.com/a", checks: true) == nil)
        #expect(refusal("https://API.example.com:8443/a", checks: false)?.reason.contains("TestTransport") == true)
        #expect(refusal("http://api.example.com/a", checks: true)?.reason.contains("http") == true)
        #expect(refusal("http://api.example.com/a", checks: true)?.host == "api.example.com")
        #expect(refusal("http://other.example.com/a", checks: false) == nil)
    }
}
