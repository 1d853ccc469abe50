import Foundation
public import HTTPTypes
import Logging

extension CookieJar: Middleware {
    /// Adds the jar's cookies for the request's URL to its `Cookie` header (after the caller's own,
    /// which win over a jar cookie of the same name) and hands the jar to the client's redirect
    /// step, which stores every answer's cookies and picks each hop's.
    public func intercept(
        _ request: HTTPRequest, body: HTTPBody?, context: RequestContext, next: @escaping MiddlewareNext
    ) async throws -> HTTPAnswer {
        guard let target = CookieTarget(request) else { return try await next(request, body, context) }
        var request = request
        let callersCookies = request.headerFields[.cookie]
        request.headerFields[.cookie] = Self.merge(callersCookies, header(for: target))
        var context = context
        context.networkLevelStep = CookieJarUse(jar: self, callersCookies: callersCookies)
        return try await next(request, body, context)
    }

    /// One `Cookie` value from the caller's and the jar's: the caller's pairs first, then the jar's
    /// whose names the caller did not use.
    static func merge(_ callers: String?, _ jars: String?) -> String? {
        guard let callers, !callers.isEmpty else { return jars }
        guard let jars else { return callers }
        let taken = Set(callers.split(separator: ";").map(name(ofPair:)))
        let added = jars.split(separator: ";").filter { !taken.contains(name(ofPair: $0)) }
        guard !added.isEmpty else { return callers }
        return ([callers] + added.map { $0.trimmingHTTPWhitespace() }).joined(separator: "; ")
    }

    static func name(ofPair pair: Substring) -> String {
        guard let equals = pair.firstIndex(of: "=") else { return "" }
        return pair[..<equals].trimmingHTTPWhitespace()
    }
}

/// A call's jar, as the redirect step sees it: where every answer's cookies go and each hop's come
/// from, and the `Cookie` the caller wrote, which stays on hops within its origin only.
final class CookieJarUse: NetworkLevelStep {
    let jar: CookieJar
    let callersCookies: String?
    /// The names of the cookies the server set or deleted during the call: on a later hop they
    /// win over the caller's pairs of the same name (a login's `302` that rotates the session).
    private let setDuringCall = LockedState<Set<String>>([])

    init(jar: CookieJar, callersCookies: String?) {
        self.jar = jar
        self.callersCookies = callersCookies
    }

    /// Stores the cookies of `response`, the answer to `request`. A jar that cannot write its file
    /// still holds them in memory: the call goes on, and the failure is logged.
    func received(_ response: HTTPResponse, to request: HTTPRequest, logger: Logger) async {
        guard response.headerFields.contains(.setCookie), let target = CookieTarget(request) else { return }
        do {
            let names = try await jar.receive(response.headerFields, for: target, logger: logger)
            setDuringCall.withLock { $0.formUnion(names) }
        } catch {
            logger.warning("Cookie jar not saved", metadata: ["error": "\(error)", "file": "\(jar.fileURL?.path ?? "")"])
        }
    }

    /// A hop's `Cookie`: the caller's own while the chain has not left its origin (less those the
    /// server has set since), and the jar's for the hop's URL.
    func prepare(hop request: inout HTTPRequest, credentialsRemoved: Bool) {
        let jars = CookieTarget(request).flatMap(jar.header(for:))
        var callers = credentialsRemoved ? nil : callersCookies
        let replaced = setDuringCall.withLock { $0 }
        if let pairs = callers, !replaced.isEmpty {
            let kept = pairs.split(separator: ";").filter { !replaced.contains(CookieJar.name(ofPair: $0)) }
            callers = kept.isEmpty ? nil : kept.map { $0.trimmingHTTPWhitespace() }.joined(separator: "; ")
        }
        request.headerFields[.cookie] = CookieJar.merge(callers, jars)
    }
}
