import Foundation

/// Content types for files, from their extension: the common web types, the same on every
/// platform (no dependency on the system's type database).
enum MediaType {
    static let octetStream = "application/octet-stream"

    private static let byExtension: [String: String] = [
        "aac": "audio/aac", "avif": "image/avif", "bin": octetStream, "bmp": "image/bmp", "css": "text/css",
        "csv": "text/csv", "doc": "application/msword",
        "docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        "gif": "image/gif", "gz": "application/gzip", "heic": "image/heic", "htm": "text/html", "html": "text/html",
        "ico": "image/vnd.microsoft.icon", "jpeg": "image/jpeg", "jpg": "image/jpeg", "js": "text/javascript",
        "json": "application/json", "m4a": "audio/mp4", "md": "text/markdown", "mov": "video/quicktime",
        "mp3": "audio/mpeg", "mp4": "video/mp4", "mpeg": "video/mpeg", "oga": "audio/ogg", "ogg": "audio/ogg",
        "pdf": "application/pdf", "png": "image/png", "svg": "image/svg+xml", "tar": "application/x-tar",
        "tif": "image/tiff", "tiff": "image/tiff", "txt": "text/plain", "wasm": "application/wasm",
        "wav": "audio/wav", "webm": "video/webm", "webp": "image/webp", "xml": "application/xml",
        "xls": "application/vnd.ms-excel",
        "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", "yaml": "application/yaml",
        "yml": "application/yaml", "zip": "application/zip",
    ]

    /// The content type of a file from its extension; `application/octet-stream` when unknown.
    static func forFile(_ url: URL) -> String {
        byExtension[url.pathExtension.lowercased()] ?? octetStream
    }
}
