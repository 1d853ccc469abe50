import HTTPTypesFoundation

#if canImport(FoundationNetworking)
public import FoundationNetworking
import Foundation
#else
public import Foundation
#endif

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A transport over URLSession: Foundation on Apple platforms, FoundationNetworking on Linux.
///
/// - The response body is streamed as it arrives, so the client's size limit stops an oversized
///   download at the limit instead of after it has been buffered; a reader that stops early
///   cancels the download. FoundationNetworking (Linux) has no backpressure (suspending a task
///   restarts it) and decodes gzip as fast as libcurl can, so the transport itself stops keeping
///   bytes once the size limit is passed and cancels the task: a gzip bomb costs the limit plus
///   what libcurl inflated before the cancellation took hold (about nothing in the README's
///   figures). Only the delegate's speed bounds that (FoundationNetworking always has libcurl
///   decode, and queues what libcurl delivers without ever pausing it), and libcurl accepts a gzip
///   stream cut short as complete: use `AsyncHTTPClientTransport` for servers you do not control.
/// - A reader slower than the network does not make the process grow: past 4 MiB that it has not
///   read yet, the rest of the answer waits in a temporary file (unlinked at once, so nothing is
///   left behind) and is read back as the reader catches up.
/// - It asks for `gzip, deflate` when the request names no `Accept-Encoding`, as
///   `AsyncHTTPClientTransport` does (libcurl would also ask for `br` and `zstd`). On Linux,
///   FoundationNetworking always has libcurl decode the body, so an answer in a content coding
///   libcurl does not know fails as ``TransportFailure/Kind/invalidResponse``;
///   `AsyncHTTPClientTransport` hands such an answer on as it is.
/// - Cancelling the calling task cancels the URLSession task, during the request and while the
///   body is read.
/// - The call's timeout (``CallPlan/timeout``) bounds the whole exchange, body included,
///   not only the silence between two packets as `URLRequest.timeoutInterval` does; for a
///   streamed answer (``CallPlan/streamsResponseBody``), the wait for the head, and then the
///   silence between two packets.
/// - It never uses a `URLCache` (caching is a middleware's job, the same for every transport) and
///   it does not follow redirects: a 3xx answer is returned as it is, for the client to handle,
///   also one without a `Location` (which FoundationNetworking completes without handing its
///   head to the delegate).
///
/// A request body is never read into memory whole: a file body (``RequestBody/file(_:contentType:)``)
/// is sent by an upload task straight from disk, and any other stream (a multipart form with
/// files, a body of your own) is first copied chunk by chunk to a temporary file that an upload
/// task sends, then removed: URLSession streams from a file on every platform, but from an
/// `InputStream` only on some. Upload progress comes from URLSession's own count of bytes sent.
public final class URLSessionTransport: HTTPTransport {
    /// A transport with the default configuration, shared by clients that do not name one.
    public static let shared = URLSessionTransport()

    let session: URLSession
    let delegate: URLSessionTransportDelegate

    /// An ephemeral configuration with no `URLCache`, no local cache use, no cookie handling,
    /// and TLS 1.2 at the least on Apple platforms (RFC 8996 retires 1.0 and 1.1; lower
    /// `tlsMinimumSupportedProtocolVersion` on a configuration of your own to reach an old
    /// server). FoundationNetworking on Linux has no such setting: libcurl and the system's
    /// OpenSSL decide, and Debian 12's refuse versions below 1.2.
    ///
    /// Cookies are left to the app (a header, or a middleware) as with every other transport:
    /// cookies added below the middleware chain would be invisible to it, so a cache could not
    /// keep one user's answers from another's.
    public static func defaultSessionConfiguration() -> URLSessionConfiguration {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.httpShouldSetCookies = false
        configuration.httpCookieAcceptPolicy = .never
        configuration.httpCookieStorage = nil
        #if !canImport(FoundationNetworking)
        configuration.tlsMinimumSupportedProtocolVersion = .TLSv12
        #endif
        return configuration
    }

    /// Answers an authentication challenge the way a URLSession delegate would: server trust
    /// (certificate pinning, a private root), a client certificate, HTTP authentication.
    public typealias ChallengeHandler =
        @Sendable (URLAuthenticationChallenge) -> (URLSession.AuthChallengeDisposition, URLCredential?)

    /// Creates a transport with its own session.
    /// - Parameters:
    ///   - configuration: The session configuration; see ``defaultSessionConfiguration()``. Its
    ///     `urlCache` is ignored: the transport works on a copy without one. A proxy is its
    ///     `connectionProxyDictionary`.
    ///   - pins: Keys pinned per host. On Apple platforms they are checked in the server-trust
    ///     challenge, before `challengeHandler` is asked; a certificate without a pinned key ends
    ///     the handshake. FoundationNetworking on Linux asks no server-trust question, so there a
    ///     call to a pinned host fails at once with a ``CertificatePinningUnavailable``.
    ///   - challengeHandler: Answers the session's authentication challenges (on Apple platforms,
    ///     evaluate `challenge.protectionSpace.serverTrust` to trust a private root); `nil` for
    ///     URLSession's default handling. FoundationNetworking on Linux asks only for HTTP
    ///     authentication; it checks server certificates against the system's roots.
    public init(
        configuration: URLSessionConfiguration = defaultSessionConfiguration(), pins: CertificatePins = .none,
        challengeHandler: ChallengeHandler? = nil
    ) {
        let configuration = (configuration.copy() as? URLSessionConfiguration) ?? Self.defaultSessionConfiguration()
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        let delegate = URLSessionTransportDelegate(pins: pins, challengeHandler: challengeHandler)
        let queue = OperationQueue()
        queue.name = "NetworkingKit.URLSessionTransport"
        queue.maxConcurrentOperationCount = 1
        self.delegate = delegate
        self.session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: queue)
    }

    deinit {
        // The session keeps its delegate alive until it is invalidated.
        session.finishTasksAndInvalidate()
    }

    /// The `URLRequest` for `request`, once the checks every transport makes have passed: an
    /// absolute URL with a host and port that can be connected to, and pins that can be checked.
    func checkedURLRequest(for request: HTTPRequest) throws -> URLRequest {
        guard let authority = request.authority, let urlRequest = URLRequest(httpRequest: request) else {
            throw NetworkError.invalidRequest(reason: "the request has no absolute URL")
        }
        // The same check as every transport's: FoundationNetworking would refuse `:99999` too,
        // but a port it reads as none (`:18446744073709551617`) would go to port 80.
        if let problem = URLAuthority.problem(inAuthority: authority[...]) {
            throw NetworkError.invalidURL("\(request.scheme ?? "")://\(authority)\(request.path ?? "")", reason: problem)
        }
        if !delegate.pins.isEmpty {
            #if canImport(FoundationNetworking)
            let checksCertificates = false
            #else
            let checksCertificates = true
            #endif
            try delegate.pins.refuseUncheckable(
                request, checksCertificates: checksCertificates, transport: "FoundationNetworking (URLSession on Linux)")
        }
        return urlRequest
    }

    /// Sends the request and returns once the response head has arrived; the body streams after.
    public func send(
        _ request: HTTPRequest,
        body: HTTPBody?,
        context: RequestContext
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let summary = RequestSummary(request)
        var urlRequest = try checkedURLRequest(for: request)
        urlRequest.cachePolicy = .reloadIgnoringLocalCacheData
        if !request.headerFields.contains(.acceptEncoding) {
            // What every transport decodes; libcurl would also ask for br and zstd.
            urlRequest.setValue(ContentCoding.acceptEncoding, forHTTPHeaderField: "Accept-Encoding")
        }
        let timeout = context.plan.timeout
        urlRequest.timeoutInterval = Self.idleTimeoutInterval(for: timeout)
        let task: URLSessionTask
        var spooled: SpooledUpload?
        /// A file URLSession reads itself, and the size the request declared for it.
        var uploadedFile: (url: URL, length: Int64)?
        switch body.map(Self.upload(of:)) {
        case nil:
            task = session.dataTask(with: urlRequest)
        case .data(let data)?:
            urlRequest.httpBody = data
            task = session.dataTask(with: urlRequest)
        case .file(let file)?:
            task = session.uploadTask(with: urlRequest, fromFile: file)
            if case .known(let length)? = body?.length { uploadedFile = (file, length) }
        case .stream(let stream)?:
            let file = try await Self.spool(stream)
            spooled = file
            task = session.uploadTask(with: urlRequest, fromFile: file.url)
        }
        let answerBody = BodyPipe(overflow: Self.answerOverflow)
        let answer: (HTTPResponse, HTTPBody?)
        do {
            answer = try await exchange(
                task, summary: summary, isHead: request.method == .head, body: body, spooled: spooled, answerBody: answerBody,
                context: context, timeout: timeout)
        } catch {
            // A file that changed size explains whatever the server made of the body.
            if let uploadedFile { try Self.checkUnchanged(uploadedFile.url, length: uploadedFile.length) }
            throw error
        }
        if let uploadedFile {
            try Self.checkUnchanged(uploadedFile.url, length: uploadedFile.length)
        }
        return answer
    }

    /// Runs `task`, registered with the delegate, until the response head arrives.
    private func exchange(
        _ task: URLSessionTask, summary: RequestSummary, isHead: Bool, body: HTTPBody?, spooled: SpooledUpload?, answerBody: BodyPipe,
        context: RequestContext, timeout: Duration
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let delegate = self.delegate
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                delegate.register(
                    task,
                    state: URLSessionTransportDelegate.TaskState(
                        request: summary,
                        isHead: isHead,
                        limit: context.plan.responseBodyLimit,
                        headOnlyDeadline: context.plan.streamsResponseBody,
                        sendObserver: body?.sendObserver,
                        spooledFile: spooled,
                        responseContinuation: continuation,
                        // The reader stopped early (size limit reached, task cancelled, body
                        // dropped): the transfer is cancelled.
                        bodyChunks: BodyReader(answerBody, producer: TaskCanceller(delegate: delegate, task: task)).chunks,
                        body: answerBody
                    ))
                // Cancelled before the task was registered: the handler below found nothing to fail.
                if Task.isCancelled {
                    delegate.fail(task, with: .cancelled)
                    delegate.cancel(task)
                    return
                }
                delegate.startDeadline(for: task, after: timeout)
                task.resume()
            }
        } onCancel: {
            delegate.fail(task, with: .cancelled)
            delegate.cancel(task)
        }
    }

    /// URLSession reads an uploaded file itself, so a file that changed size while it was sent
    /// shows only afterwards: the answer is then to a body nobody meant, and the call fails as it
    /// does over a transport that reads the file (``FileFailure/Reason/changedWhileReading(expected:found:)``).
    private static func checkUnchanged(_ file: URL, length: Int64) throws {
        let attributes = try? FileManager.default.attributesOfItem(atPath: file.path)
        let found = (attributes?[.size] as? NSNumber)?.int64Value ?? -1
        guard found == length else {
            throw NetworkError.fileFailed(
                FileFailure(url: file, reason: .changedWhileReading(expected: length, found: max(found, 0))))
        }
    }

    /// How an answer waits for a reader slower than the network (a download written to a slow
    /// disk). URLSession cannot be slowed down from the delegate here: FoundationNetworking's
    /// `suspend()` closes the connection and `resume()` asks again from byte 0, it never produces
    /// resume data, and blocking the delegate queue only queues the deliveries up (each measured).
    /// So past 4 MiB unread, the rest waits on disk, in unlinked files of 64 MiB each, read back
    /// 256 KiB at a time, each closed once read and the last emptied whenever the reader catches
    /// up: memory stays bounded, and the disk holds about what is unread.
    static let answerOverflow = BodyPipe.State.Overflow.spill(memoryLimit: 4 << 20, fileSize: 64 << 20, readSize: 256 << 10)

    /// Cancels a task whose answer's reader stopped before the end.
    struct TaskCanceller: BodyProducer {
        let delegate: URLSessionTransportDelegate
        let task: URLSessionTask

        func stop(_ error: any Error) {
            delegate.cancel(task)
        }
    }

    /// The `timeoutInterval` URLSession is given for a request timeout. The timeout itself is
    /// this transport's deadline, to the millisecond; URLSession's bounds the silence between two
    /// packets. FoundationNetworking keeps only the whole seconds of it (`Int(interval) * 1000`),
    /// so that a 500 ms timeout would fire at once: there it is rounded up to a whole second.
    static func idleTimeoutInterval(for timeout: Duration) -> TimeInterval {
        #if canImport(FoundationNetworking)
        return max(1, timeout.timeInterval.rounded(.up))
        #else
        return timeout.timeInterval
        #endif
    }

    /// How URLSession is given a request body.
    private enum Upload {
        /// Bytes in memory, as `httpBody`.
        case data(Data)
        /// A whole file, which an upload task reads from disk itself.
        case file(URL)
        /// Any other stream: copied to a temporary file first (see ``spool(_:)``).
        case stream(HTTPBody)
    }

    private static func upload(of body: HTTPBody) -> Upload {
        if let data = body.bufferedData { return .data(data) }
        if let file = body.fileURL { return .file(file) }
        return .stream(body)
    }

    /// Copies a streamed body to a temporary file, chunk by chunk, for an upload task to send.
    ///
    /// URLSession streams a body from a file on every platform, but a body from an `InputStream`
    /// only where the platform's URLSession supports it; a file keeps memory flat everywhere, at
    /// the cost of one copy on disk. The body may hold a password: the file is the owner's only
    /// from its creation, and its name is removed as soon as URLSession has opened it (its
    /// first bytes sent), or when the task ends.
    static func spool(_ body: HTTPBody) async throws -> SpooledUpload {
        let (descriptor, path): (Int32, String)
        do {
            (descriptor, path) = try OwnerOnlyFile.createTemporary(prefix: "NetworkingKit-upload")
        } catch {
            let folder = FileManager.default.temporaryDirectory
            throw NetworkError.fileFailed(FileFailure(url: folder, reason: .notWritable, underlying: error))
        }
        defer { _ = close(descriptor) }
        let spooled = SpooledUpload(path: path)
        do {
            var written: Int64 = 0
            // Not counted as progress: the upload task reports what it really sends.
            for try await chunk in body.unobserved {
                do {
                    try OwnerOnlyFile.writeAll(chunk, to: descriptor, at: written)
                } catch {
                    throw NetworkError.fileFailed(FileFailure(url: spooled.url, reason: .notWritable, underlying: error))
                }
                written += Int64(chunk.count)
            }
        } catch {
            spooled.remove()
            throw error
        }
        return spooled
    }
}

/// A streamed request body copied to a file of its own for an upload task (see
/// ``URLSessionTransport/spool(_:)``).
struct SpooledUpload: Sendable {
    let path: String

    /// Where URLSession reads it.
    var url: URL { URL(fileURLWithPath: path) }

    /// Removes its name; an upload that has it open goes on reading it.
    func remove() {
        _ = unlink(path)
    }
}
