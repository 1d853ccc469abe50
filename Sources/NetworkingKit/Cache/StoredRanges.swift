import Foundation
import HTTPTypes

/// `Range` requests answered from stored responses, and `206` answers stored (RFC 9111 §3.3,
/// §3.4; RFC 9110 §14): a single range is cut from a complete stored `200`, or from a stored
/// `206` that holds it; a `206` that holds the whole representation is stored as the `200` it is.
enum StoredRanges {
    /// What a stored response can give a request.
    enum Selection: Equatable {
        /// The whole stored response.
        case whole
        /// These positions of a representation of `completeLength` bytes, as a `206`.
        case bytes(ClosedRange<Int64>, completeLength: Int64)
    }

    /// What `entry` can give a request for `range` (`nil`: the request has no `Range`), or `nil`
    /// when it cannot answer it: a part for a request of the whole, a range it does not hold or
    /// that selects nothing (left to the origin, which answers `416` with the current length).
    static func selection(of entry: CachedResponse, for range: RequestedRange?) -> Selection? {
        if entry.response.status == .partialContent {
            guard let range, let stored = entry.response.headerFields[.contentRange].flatMap(ContentRange.init),
                let complete = stored.completeLength, let wanted = range.positions(in: complete),
                wanted.lowerBound >= stored.first, wanted.upperBound <= stored.last
            else { return nil }
            return .bytes(wanted, completeLength: complete)
        }
        guard let range else { return .whole }
        let length = Int64(entry.body.count)
        guard entry.response.status == .ok, let wanted = range.positions(in: length) else { return nil }
        return .bytes(wanted, completeLength: length)
    }

    /// `entry` cut to `positions`: a `206` with the stored fields, `Content-Range` and
    /// `Content-Length`, and those bytes.
    static func cut(_ entry: CachedResponse, to positions: ClosedRange<Int64>, completeLength: Int64) -> (HTTPResponse, Data) {
        // A stored part starts at its own first position; a whole response at 0.
        let start =
            entry.response.status == .partialContent
            ? entry.response.headerFields[.contentRange].flatMap(ContentRange.init)?.first ?? 0 : 0
        var response = entry.response
        response.status = .partialContent
        response.headerFields[.contentRange] = "bytes \(positions.lowerBound)-\(positions.upperBound)/\(completeLength)"
        response.headerFields[.contentLength] = String(positions.count)
        let from = entry.body.startIndex + Int(positions.lowerBound - start)
        return (response, entry.body.subdata(in: from..<(from + Int(positions.count))))
    }

    /// A response as the cache keeps it: any but a `206` as it is; a `206` holding the whole
    /// representation (`bytes 0-99/100`) as the `200` it amounts to; another single-range `206`
    /// as it is, when its body is exactly its range and the complete length is known. `nil` for
    /// a `206` that cannot be reused (several ranges, an unknown length, a body that disagrees).
    static func storable(_ response: HTTPResponse, body: Data) -> HTTPResponse? {
        guard response.status == .partialContent else { return response }
        guard let range = response.headerFields[.contentRange].flatMap(ContentRange.init),
            let complete = range.completeLength, range.count == Int64(body.count)
        else { return nil }
        guard range.first == 0, range.last == complete - 1 else { return response }
        var whole = response
        whole.status = .ok
        whole.headerFields[.contentRange] = nil
        whole.headerFields[.contentLength] = String(body.count)
        return whole
    }
}
