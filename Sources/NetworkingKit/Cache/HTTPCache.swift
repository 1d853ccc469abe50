public import Foundation
public import HTTPTypes
import Logging

/// A private HTTP cache (RFC 9111) as a middleware: it answers fresh hits without touching the
/// network, revalidates stale entries with `If-None-Match` / `If-Modified-Since`, and stores
/// what may be stored.
///
/// ```swift
/// let cache = HTTPCache(storage: MemoryCacheStorage())
/// let client = LiveAPIClient(configuration: .init(baseURL: url, middlewares: [auth, cache, retry]))
/// ```
///
/// Place it inside the authentication middleware, so that it sees the credential really sent:
/// entries are partitioned by credential (see ``CacheKey``), and a response fetched with one
/// `Authorization` or `Cookie` never answers a request with another or none, unless it is
/// `public`.
///
/// What it does:
/// - Stores final answers to GET that RFC 9111 §3 lets a private cache store (`private` is fine,
///   `no-store` never), without hop-by-hop fields, per `Vary` variant.
/// - Reuses a stored response while it is fresh (§4.2), honours the request's `max-age`,
///   `min-fresh`, `max-stale`, `no-cache` and `only-if-cached`, and the response's `no-cache`,
///   `must-revalidate`, `stale-while-revalidate` and `stale-if-error` (RFC 5861).
/// - Invalidates a URL (and the same-origin `Location` / `Content-Location`) when an unsafe
///   method succeeds on it (§4.4); then stores a POST's answer for later GETs of the URL when it
///   has explicit freshness and names the URL itself as its `Content-Location` (RFC 9110 §9.3.3).
/// - Serves a fresh `immutable` response to a reload (a request `max-age=0`) without asking
///   (RFC 8246), and a `Vary: Accept-Language` variant to a request that prefers its
///   `Content-Language` most.
/// - When the origin cannot be reached (the connection is refused or drops), serves a stale
///   response unless it says `must-revalidate` or `no-cache` (then a `504`, as §5.2.2.2 says)
///   or the request asks for validation.
/// - Answers the caller's own `If-None-Match` / `If-Modified-Since` from a fresh stored
///   response with a `304` when they match (§4.3.2); `If-Match`, `If-Unmodified-Since` and
///   `If-Range` go to the origin.
/// - Answers a single-range `Range` request from a fresh stored response that holds the range, as
///   a `206`; stores `206` answers, a complete one as the `200` it amounts to; completes a fresh
///   stored part that begins the representation with a range request for the rest (`If-Range`
///   with its validator), and stores the whole (§3.4).
/// - Says where each answer to a GET came from in ``HTTPAnswer/cacheStatus`` (read by callers as
///   ``Response/cacheStatus``), and sets `Age` on stored answers. The server's own fields (a CDN's
///   `X-Cache`) are kept as sent.
///
/// HEAD and other safe methods are passed through untouched. Each request can choose a
/// ``CachePolicy`` with ``RequestOptions/cachePolicy``. "Now" is read from the injected clock, so
/// tests are exact.
public final class HTTPCache: Middleware {
    /// Where responses are kept.
    public let storage: any CacheStorage
    let now: @Sendable () -> Date
    private let revalidations = BackgroundRevalidations()
    /// The credential partitions of the calls, hashed once per credential.
    private let partitions = CachePartition.Digests()

    /// Creates a cache.
    /// - Parameters:
    ///   - storage: Where responses are kept.
    ///   - now: The current time; inject a fixed clock in tests.
    public init(storage: any CacheStorage, now: @escaping @Sendable () -> Date = { Date() }) {
        self.storage = storage
        self.now = now
    }

    /// Removes every stored response for `url`, in every credential partition.
    public func purge(url: URL) async {
        guard let key = CachePartition.url(for: url) else { return }
        await storage.removeAll(url: key)
    }

    /// Removes every stored response.
    public func purgeAll() async {
        await storage.removeAll()
    }

    /// Returns when the background revalidations started so far (`stale-while-revalidate`) have
    /// finished; for tests.
    package func backgroundRevalidationsFinished() async {
        await revalidations.waitForAll()
    }

    /// Answers from the cache, the network, or both, as RFC 9111 and the request's
    /// ``CachePolicy`` say.
    public func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        context: RequestContext,
        next: @escaping MiddlewareNext
    ) async throws -> HTTPAnswer {
        // A WebSocket upgrade is neither answered from the cache nor stored.
        guard context.plan.webSocket == nil, let url = CachePartition.url(for: request) else {
            return try await next(request, body, context)
        }
        switch request.method {
        case .get:
            return try await get(request, body: body, url: url, context: context, next: next)
        case .head, .options, .trace:
            return try await next(request, body, context)
        default:
            return try await forwardUnsafe(request, body: body, url: url, context: context, next: next)
        }
    }

    // MARK: - GET

    private func get(
        _ request: HTTPRequest, body: HTTPBody?, url: String, context: RequestContext, next: @escaping MiddlewareNext
    ) async throws -> HTTPAnswer {
        let directives = CacheControl(request.headerFields, pragmaFallback: true)
        let policy = context.options.cachePolicy
        let exchange = Exchange(
            request: request, body: body, url: url,
            partition: partitions.partition(for: request, declared: context.plan.redirectPolicy.sensitiveHeaders),
            directives: directives, context: context)
        let conditional = Validation.isConditional(request)
        let rangeValue = request.headerFields[.range]
        let range = rangeValue.flatMap(RequestedRange.init)
        // Conditions only the origin can judge (If-Match, If-Range...) and ranges the cache does
        // not read (several at once) go to the origin as they are.
        if policy == .reloadIgnoringCacheData || (conditional && !CallerConditions.cacheCanEvaluate(request))
            || (rangeValue != nil && range == nil)
        {
            return try await load(exchange, next: next, replacing: nil)
        }
        let now = self.now()
        let stored = await lookup(exchange)
        // A stored response that cannot give what is asked (a part for the whole, a range it does
        // not hold) is no answer; the origin's answer may replace it.
        let usable = stored.flatMap { StoredRanges.selection(of: $0.entry, for: range) }
        let found = usable == nil ? nil : stored
        let selection = usable ?? .whole
        let conditions = conditional ? exchange.request : nil

        switch policy {
        case .returnCacheDataDontLoad:
            guard let found else { return CachedAnswer.gatewayTimeout() }
            return CachedAnswer.answer(
                found.entry, freshness: Freshness(of: found.entry, now: now), conditions: conditions, selection: selection)
        case .returnCacheDataElseLoad:
            guard let found else { return try await load(exchange, next: next, replacing: stored) }
            return CachedAnswer.answer(
                found.entry, freshness: Freshness(of: found.entry, now: now), conditions: conditions, selection: selection)
        case .useProtocolCachePolicy, .reloadIgnoringCacheData:
            break
        }

        guard let found else {
            if directives.onlyIfCached { return CachedAnswer.gatewayTimeout() }
            if range == nil, !conditional, !context.plan.streamsResponseBody, let part = stored,
                let completion = PartCompletion(part.entry, now: now)
            {
                return try await complete(part, with: completion, exchange: exchange, next: next)
            }
            return try await load(exchange, next: next, replacing: stored)
        }
        // The freshness the decision is made on is the one the answer shows (its age, HIT or STALE).
        let freshness = Freshness(of: found.entry, now: now)
        switch Reuse(entry: found.entry.parsed.cacheControl, freshness: freshness, request: directives) {
        case .fresh:
            context.logger.trace("Cache hit", metadata: ["url": "\(url)"])
            return CachedAnswer.answer(found.entry, freshness: freshness, conditions: conditions, selection: selection)
        case .stale:
            return CachedAnswer.answer(found.entry, freshness: freshness, conditions: conditions, selection: selection)
        case .staleWhileRevalidate:
            // §5.2.1.7: only-if-cached asks that the origin not be contacted, not even behind.
            if !directives.onlyIfCached { revalidateInBackground(found, exchange: exchange, next: next) }
            return CachedAnswer.answer(found.entry, freshness: freshness, conditions: conditions, selection: selection)
        case .validate:
            if directives.onlyIfCached { return CachedAnswer.gatewayTimeout() }
            // The caller's own conditions or range go to the origin as they are: the cache's
            // validators would change the question.
            if conditional || range != nil {
                return try await load(exchange, next: next, replacing: range == nil ? nil : found)
            }
            return try await revalidate(found, freshness: freshness, exchange: exchange, next: next)
        }
    }

    /// Asks the server, stores the answer when allowed, and says it is a ``CacheStatus/miss``.
    func load(
        _ exchange: Exchange, next: MiddlewareNext, replacing: Found?
    ) async throws -> HTTPAnswer {
        let requestTime = now()
        var answer = try await next(exchange.request, exchange.body, exchange.context)
        // An answer from another URL (a followed redirect) is not this URL's representation:
        // storing it here would serve it for the redirecting URL long after the redirect changed.
        guard !answer.wasRedirected else {
            answer.cacheStatus = .miss
            return answer
        }
        return try await keep(answer, exchange: exchange, requestTime: requestTime, responseTime: now(), replacing: replacing)
    }

    /// Stores a full response when RFC 9111 allows (reading its body, up to the response size
    /// limit) and hands it on as a ``CacheStatus/miss``, with a fresh body when it was read.
    func keep(
        _ answer: HTTPAnswer, exchange: Exchange, requestTime: Date, responseTime: Date, replacing: Found?
    ) async throws -> HTTPAnswer {
        let (response, body) = (answer.response, answer.body)
        var marked = answer
        marked.cacheStatus = .miss
        // A streamed answer (a download, a live feed) is handed on as it arrives, never held.
        guard !exchange.context.plan.streamsResponseBody,
            Storability.mayStore(response, request: exchange.request, requestDirectives: exchange.directives)
        else {
            // A new representation that is not stored makes the old one obsolete; an error
            // (a 500 without freshness) says nothing about it.
            if let replacing, [.successful, .redirection].contains(response.status.kind) {
                await storage.remove(replacing.key, varyValues: replacing.entry.varyValues)
            }
            return marked
        }
        let limit = exchange.context.plan.responseBodyLimit ?? .max
        if let body, case .known(let length) = body.length, length > Int64(limit) {
            return marked
        }
        let data: Data
        switch try await Self.buffer(body, upTo: limit) {
        case .complete(let complete):
            data = complete
        case .overLimit(let whole):
            // Not stored; the caller reads it as if no cache were there, and its own limit (or
            // none) decides, so that an error answer over the limit is still reported as one.
            marked.body = whole
            return marked
        }
        marked.body = body == nil ? nil : HTTPBody(data)
        // A part that cannot be reused, or that would replace a whole response, is only handed on.
        guard var stored = StoredRanges.storable(response, body: data),
            stored.status != .partialContent || replacing.map({ $0.entry.response.status == .partialContent }) ?? true
        else {
            return marked
        }
        stored.headerFields = StoredFields.removingHopByHop(stored.headerFields)
        let varyValues = StoredFields.varyValues(of: exchange.request, names: StoredFields.varyNames(response))
        let partition = CacheControl(response.headerFields).isPublic ? "" : exchange.partition
        let entry = CachedResponse(
            response: StoredFields.keptIn(partition: partition, stored), body: data, requestTime: requestTime, responseTime: responseTime,
            varyValues: varyValues)
        let key = CacheKey(url: exchange.url, partition: partition)
        await storage.store(entry, for: key)
        if let replacing, replacing.key != key || replacing.entry.varyValues != varyValues {
            await storage.remove(replacing.key, varyValues: replacing.entry.varyValues)
        }
        return marked
    }

    /// A body read for storing: whole, or found longer than the limit.
    private enum Buffered {
        /// The whole body, within the limit.
        case complete(Data)
        /// The body, still whole for the caller: the bytes read so far, then the rest unread.
        case overLimit(HTTPBody)
    }

    /// Reads `body` up to `limit` bytes. A stream that turns out longer is not an error here (the
    /// caller may allow more, or the answer may be an error response it wants to see): it is
    /// handed back as a single-iteration body that yields what was read, then continues.
    private static func buffer(_ body: HTTPBody?, upTo limit: Int) async throws -> Buffered {
        guard let body else { return .complete(Data()) }
        if let data = body.bufferedData {
            return data.count <= limit ? .complete(data) : .overLimit(body)
        }
        var iterator = body.makeAsyncIterator()
        var collected = Data()
        while let chunk = try await iterator.next() {
            collected.append(chunk)
            if collected.count > limit {
                let rest = PrefixedChunks(chunks: [collected], then: iterator, failure: nil)
                return .overLimit(HTTPBody(rest, length: body.length, iterationBehavior: .single))
            }
        }
        return .complete(collected)
    }

    // MARK: - Revalidation

    /// Revalidates a stored response (RFC 9111 §4.3): a `304` freshens and serves it, a full
    /// response replaces it, a failure serves it stale only when `stale-if-error` allows.
    private func revalidate(
        _ found: Found, freshness: Freshness, exchange: Exchange, next: MiddlewareNext
    ) async throws -> HTTPAnswer {
        let staleIfError = Self.staleIfErrorAllows(found.entry, freshness: freshness, request: exchange.directives)
        let conditional = Validation.hasValidator(found.entry)
        let request = conditional ? Validation.conditionalRequest(exchange.request, for: found.entry) : exchange.request
        let requestTime = now()
        let answer: HTTPAnswer
        do {
            answer = try await next(request, exchange.body, exchange.context)
        } catch {
            if error is CancellationError || Task.isCancelled { throw error }
            if staleIfError {
                exchange.context.logger.debug("Serving stale response after a failed revalidation")
                return CachedAnswer.serve(found.entry, as: .stale, now: now())
            }
            guard Self.isDisconnected(error) else { throw error }
            // §4.2.4: a cache that cannot reach the origin may serve a stale response, unless the
            // response forbids it (then §5.2.2.2 asks for a generated error, 504) or the request
            // asks for validation or a bounded age (then the failure itself is the answer).
            let stored = found.entry.parsed.cacheControl
            if stored.mustRevalidate || stored.noCache { return CachedAnswer.gatewayTimeout() }
            let request = exchange.directives
            guard !request.noCache, !request.has("max-age"), !request.has("min-fresh") else { throw error }
            exchange.context.logger.debug("Serving stale response: the origin cannot be reached")
            return CachedAnswer.serve(found.entry, as: .stale, now: now())
        }
        let responseTime = now()
        let (response, responseBody) = (answer.response, answer.body)
        // An answer from another URL (a followed redirect) is not this entry's: a 304 there
        // cannot freshen it, nor another URL's body replace it. The entry goes (this URL now
        // redirects), and the caller gets what an unconditional request brings, not stored.
        if answer.wasRedirected {
            await storage.remove(found.key, varyValues: found.entry.varyValues)
            guard conditional, response.status == .notModified else {
                var missed = answer
                missed.cacheStatus = .miss
                return missed
            }
            await HTTPBody.discard(responseBody)
            return try await load(exchange, next: next, replacing: nil)
        }
        if conditional, response.status == .notModified {
            await HTTPBody.discard(responseBody)
            guard Validation.notModified(response, refers: found.entry) else {
                // §4.3.4: a 304 for another representation cannot freshen this one; ask in full.
                return try await load(exchange, next: next, replacing: found)
            }
            let freshened = Validation.freshen(
                found.entry, with: response, request: exchange.request, requestTime: requestTime,
                responseTime: responseTime)
            if Storability.forbidsStoring(freshened.parsed.cacheControl, status: freshened.response.status.code)
                || exchange.directives.noStore
                || StoredFields.varyNames(freshened.response) == ["*"]
            {
                await storage.remove(found.key, varyValues: found.entry.varyValues)
            } else {
                var kept = freshened
                kept.response = StoredFields.keptIn(partition: found.key.partition, freshened.response)
                await storage.store(kept, for: found.key)
                // A new Vary in the 304 made it another variant; the old one is this response.
                if freshened.varyValues != found.entry.varyValues {
                    await storage.remove(found.key, varyValues: found.entry.varyValues)
                }
            }
            // The stored body, brought up to date by the exchange that asked: its timing.
            var revalidated = CachedAnswer.serve(freshened, as: .revalidated, now: responseTime)
            revalidated.timingBox = answer.timingBox
            return revalidated
        }
        if response.status.code >= 500, staleIfError {
            await HTTPBody.discard(responseBody)
            var stale = CachedAnswer.serve(found.entry, as: .stale, now: responseTime)
            stale.timingBox = answer.timingBox
            return stale
        }
        return try await keep(answer, exchange: exchange, requestTime: requestTime, responseTime: responseTime, replacing: found)
    }

    /// Revalidates `found` after the caller has been answered (`stale-while-revalidate`, RFC 5861
    /// §3), once however many requests find it stale meanwhile.
    private func revalidateInBackground(_ found: Found, exchange: Exchange, next: @escaping MiddlewareNext) {
        let id =
            found.key.partition + " " + found.key.url + " "
            + found.entry.varyValues.sorted { $0.key < $1.key }
            .map { "\($0.key)=\($0.value)" }.joined(separator: "&")
        var exchange = exchange
        // The caller's deadline is the caller's; the revalidation runs after it has been answered.
        exchange.context.deadline = nil
        exchange.body = nil
        // It revalidates the whole stored response, whatever part or condition the caller asked for.
        for name in [HTTPField.Name.range, .ifNoneMatch, .ifModifiedSince] {
            exchange.request.headerFields[name] = nil
        }
        let background = exchange
        revalidations.start(id) { [self] in
            let freshness = Freshness(of: found.entry, now: now())
            do {
                let answer = try await revalidate(found, freshness: freshness, exchange: background, next: next)
                await HTTPBody.discard(answer.body)
            } catch {
                background.context.logger.debug("Background revalidation failed", metadata: ["error": "\(error)"])
            }
        }
    }

    /// Whether a stale response may stand in for a failed revalidation (RFC 5861 §4): the response
    /// or the request grants `stale-if-error` long enough, and neither `must-revalidate` nor
    /// `no-cache` forbids serving it stale (RFC 9111 §4.2.4).
    private static func staleIfErrorAllows(
        _ entry: CachedResponse, freshness: Freshness, request: CacheControl
    ) -> Bool {
        let directives = entry.parsed.cacheControl
        guard !directives.mustRevalidate, !directives.noCache, !request.noCache else { return false }
        let allowance = max(directives.validSeconds("stale-if-error") ?? -1, request.validSeconds("stale-if-error") ?? -1)
        return allowance >= 0 && freshness.staleness <= Double(allowance)
    }

    /// Whether `error` says the origin could not be reached at all (RFC 9111 §4.2.4's
    /// "disconnected"), as opposed to an answer that was wrong or a failure of security.
    private static func isDisconnected(_ error: any Error) -> Bool {
        guard case .transport(let failure) = error as? NetworkError else { return false }
        switch failure.kind {
        case .connectionRefused, .connectionLost, .hostNotFound, .notConnected: return true
        case .secureConnectionFailed, .invalidResponse, .truncatedBody, .other: return false
        }
    }

    // MARK: - Unsafe methods

    /// Forwards an unsafe request; when it succeeds, invalidates its URL and the same-origin
    /// `Location` and `Content-Location` (RFC 9111 §4.4). A POST's answer that says it is the
    /// current representation of the POST's own URL (its `Content-Location`) with explicit
    /// freshness is then stored for later GETs of that URL (RFC 9110 §9.3.3, RFC 9111 §4.2.1).
    private func forwardUnsafe(
        _ request: HTTPRequest, body: HTTPBody?, url: String, context: RequestContext, next: MiddlewareNext
    ) async throws -> HTTPAnswer {
        let requestTime = now()
        let answer = try await next(request, body, context)
        let response = answer.response
        guard [.successful, .redirection].contains(response.status.kind) else { return answer }
        await storage.removeAll(url: url)
        guard let base = URL(string: url) else { return answer }
        var representsTarget = false
        for name in [HTTPField.Name.location, .contentLocation] {
            guard let value = response.headerFields[name], let target = URL(string: value, relativeTo: base)?.absoluteURL,
                Origin(target) == Origin(base), let key = CachePartition.url(for: target)
            else { continue }
            await storage.removeAll(url: key)
            if name == .contentLocation, key == url { representsTarget = true }
        }
        let directives = CacheControl(response.headerFields)
        guard request.method == .post, representsTarget, [.ok, .nonAuthoritativeInformation].contains(response.status),
            directives.has("max-age") || response.headerFields.contains(.expires)
        else { return answer }
        // Stored as the answer a GET of the URL would have had: the GET rules decide the rest.
        var asGet = request
        asGet.method = .get
        let exchange = Exchange(
            request: asGet, body: nil, url: url,
            partition: partitions.partition(for: request, declared: context.plan.redirectPolicy.sensitiveHeaders),
            directives: CacheControl(request.headerFields, pragmaFallback: true), context: context)
        // The answer to an unsafe method is not one of the cache's: it gets no cache status.
        var kept = try await keep(answer, exchange: exchange, requestTime: requestTime, responseTime: now(), replacing: nil)
        kept.cacheStatus = nil
        return kept
    }

    // MARK: - Lookup and answers

    /// A stored response and the key it was found under.
    struct Found: Sendable {
        let key: CacheKey
        let entry: CachedResponse
    }

    /// What one GET brings: the request, its parsed directives, and its context.
    struct Exchange: Sendable {
        var request: HTTPRequest
        var body: HTTPBody?
        let url: String
        /// The credentials' partition (``CachePartition/Digests``), worked out once per call.
        let partition: String
        let directives: CacheControl
        var context: RequestContext
    }

    /// The most recent stored response that may answer `request`: from its own partition, or
    /// from the shared one, which a request with credentials may use only for `public` responses.
    private func lookup(_ exchange: Exchange) async -> Found? {
        let (request, url, partition) = (exchange.request, exchange.url, exchange.partition)
        // The most recent match, the shared partition's first on a tie, found without lists.
        var best: Found?
        func consider(_ entries: [CachedResponse], under key: CacheKey, publicOnly: Bool) {
            for entry in entries
            where (!publicOnly || entry.parsed.cacheControl.isPublic)
                && StoredFields.matches(entry, request: request)
                && best.map({ $0.entry.responseTime < entry.responseTime }) ?? true
            {
                best = Found(key: key, entry: entry)
            }
        }
        let shared = CacheKey(url: url)
        consider(await storage.responses(for: shared), under: shared, publicOnly: !partition.isEmpty)
        if !partition.isEmpty {
            let own = CacheKey(url: url, partition: partition)
            consider(await storage.responses(for: own), under: own, publicOnly: false)
        }
        return best
    }
}
