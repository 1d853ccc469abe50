import Foundation

// Scanners that find secrets in free text: URLs quoted in error descriptions, header lines,
// JSON and form bodies. They work on Unicode scalars by hand rather than with regular expressions:
// no pattern to compile per call, nothing non-Sendable to cache, and each rule reads as code.
// They err towards hiding: a value runs to the first character that cannot belong to it.

extension Redaction {
    /// Hides the values of sensitive `name=value` parameters that follow `?`, `&`, `;` or `#`
    /// (and, for a form body, the start of the text).
    ///
    /// A value that carries a percent-encoded query of its own (`?next=%2Fa%3Fapi_key%3DSECRET`,
    /// as redirect and callback parameters do) is decoded and redacted too, a few levels deep.
    func redactParameters(in text: String, formAtStart: Bool, depth: Int = 0) -> String {
        // No parameter can start in a text without these (a URL without a query, most log text).
        guard hidesParameters, formAtStart || text.utf8.contains(where: Self.startsParameters) else { return text }
        let scalars = Array(text.unicodeScalars)
        var output = String.UnicodeScalarView()
        var index = 0
        var atParameterStart = formAtStart
        while index < scalars.count {
            if atParameterStart {
                // Read a name up to `=`; anything else ends the attempt.
                var end = index
                while end < scalars.count, !Self.endsParameterName(scalars[end]) { end += 1 }
                if end < scalars.count, scalars[end] == "=", end > index {
                    let name = String(String.UnicodeScalarView(scalars[index..<end]))
                    output.append(contentsOf: scalars[index...end])
                    index = end + 1
                    let valueStart = index
                    var valueEnd = index
                    while valueEnd < scalars.count, !Self.endsParameterValue(scalars[valueEnd]) { valueEnd += 1 }
                    let value = scalars[valueStart..<valueEnd]
                    if isSensitive(queryParameter: name) {
                        // An empty value hides nothing; leave it as it was.
                        if !value.isEmpty {
                            output.append(contentsOf: Redaction.encodedPlaceholder.unicodeScalars)
                        }
                        index = valueEnd
                    } else if let nested = redactNested(value, depth: depth) {
                        output.append(contentsOf: nested)
                        index = valueEnd
                    }
                    // Otherwise the value is scanned as text: a `?` in it (`next=/cb?api_key=x`)
                    // starts parameters of its own.
                }
                atParameterStart = false
                continue
            }
            let scalar = scalars[index]
            output.append(scalar)
            index += 1
            atParameterStart = scalar == "?" || scalar == "&" || scalar == ";" || scalar == "#"
        }
        return String(output)
    }

    /// A parameter's value with the sensitive parameters of a percent-encoded query inside it
    /// hidden (decoded, redacted as a URL or form, encoded again), or `nil` when nothing was hidden.
    private func redactNested(_ value: ArraySlice<Unicode.Scalar>, depth: Int) -> [Unicode.Scalar]? {
        guard depth < 3, value.contains("%"),
            let decoded = String(String.UnicodeScalarView(value)).replacingOccurrences(of: "+", with: " ")
                .removingPercentEncoding,
            decoded.contains("=")
        else { return nil }
        // A nested URL has its query after `?`; a nested form starts with a name.
        let redacted = redactParameters(in: decoded, formAtStart: !decoded.contains("?"), depth: depth + 1)
        guard redacted != decoded else { return nil }
        return Array(PercentEncoding.encode(redacted, allowing: PercentEncoding.isUnreserved, keepingEscapes: false).unicodeScalars)
    }

    /// Hides the value after a sensitive header name or parameter name used as a key:
    /// `Authorization: Bearer x`, `"Cookie": "a=b"`, `"token": "x"`, `token=x` after a space.
    func redactNamedValues(in text: String) -> String {
        let names =
            sensitiveHeaders.map { (Array($0.canonicalName.unicodeScalars), true) }
            + sensitiveQueryParameters.map { (Array($0.unicodeScalars), false) }
        let scalars = Array(text.unicodeScalars)
        var output = String.UnicodeScalarView()
        var index = 0
        scanning: while index < scalars.count {
            let startsWord = index == 0 || !Self.isNameCharacter(scalars[index - 1])
            if startsWord, hidesCommonSecretNames, let (valueStart, valueEnd, quoted) = commonSecretValue(in: scalars, at: index) {
                output.append(contentsOf: scalars[index..<valueStart])
                output.append(contentsOf: Redaction.placeholder.unicodeScalars)
                if quoted { output.append("\"") }
                index = quoted ? valueEnd + 1 : valueEnd
                continue scanning
            }
            if startsWord {
                for (name, isHeader) in names
                where Self.matches(name, in: scalars, at: index) {
                    guard let valueStart = Self.valueStart(in: scalars, after: index + name.count) else { continue }
                    let (valueEnd, quoted) = Self.valueEnd(in: scalars, from: valueStart, isHeader: isHeader)
                    let value = String(String.UnicodeScalarView(scalars[valueStart..<valueEnd]))
                    guard !value.isEmpty, value != Redaction.placeholder, value != Redaction.encodedPlaceholder else {
                        continue
                    }
                    output.append(contentsOf: scalars[index..<valueStart])
                    let hidden = isHeader ? Redaction.hiding(value) : Redaction.placeholder
                    output.append(contentsOf: hidden.unicodeScalars)
                    if quoted { output.append("\"") }
                    index = quoted ? valueEnd + 1 : valueEnd
                    continue scanning
                }
            }
            output.append(scalars[index])
            index += 1
        }
        return String(output)
    }

    /// Whether `byte` may come just before a parameter: `?`, `&`, `;` or `#`.
    private static func startsParameters(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "?") || byte == UInt8(ascii: "&") || byte == UInt8(ascii: ";") || byte == UInt8(ascii: "#")
    }

    /// The value after a name at `index` that is named as secrets commonly are (`"access_token":
    /// "..."`, `password=...`): where it starts and ends and whether it is quoted; `nil` when the
    /// word there is no such name, or no value follows it. The word is read only when a
    /// separator follows it, so that plain text costs a scan and nothing more.
    private func commonSecretValue(in scalars: [Unicode.Scalar], at index: Int) -> (Int, Int, Bool)? {
        var end = index
        while end < scalars.count, Self.isNameCharacter(scalars[end]) { end += 1 }
        guard end > index, let valueStart = Self.valueStart(in: scalars, after: end) else { return nil }
        let name = String(String.UnicodeScalarView(scalars[index..<end])).lowercased()
        guard Self.isCommonSecretName(name.removingPercentEncoding ?? name) else { return nil }
        let (valueEnd, quoted) = Self.valueEnd(in: scalars, from: valueStart, isHeader: false)
        let value = String(String.UnicodeScalarView(scalars[valueStart..<valueEnd]))
        guard !value.isEmpty, value != Redaction.placeholder, value != Redaction.encodedPlaceholder else { return nil }
        return (valueStart, valueEnd, quoted)
    }

    /// Hides the credentials after an authorization scheme anywhere in the text (`Bearer abc`,
    /// `Basic dXNlcjpwdw==`), for a token quoted without its header name.
    ///
    /// Only `Bearer` takes any word after it; `Basic` needs something shaped like base64, so that
    /// a server message such as "Basic authentication required" stays readable.
    static func redactCredentials(in text: String) -> String {
        let schemes = ["bearer", "basic"].map { Array($0.unicodeScalars) }
        let scalars = Array(text.unicodeScalars)
        var output = String.UnicodeScalarView()
        var index = 0
        scanning: while index < scalars.count {
            if index == 0 || !isNameCharacter(scalars[index - 1]) {
                for scheme in schemes where matches(scheme, in: scalars, at: index) {
                    var start = index + scheme.count
                    guard start < scalars.count, scalars[start] == " " else { continue }
                    while start < scalars.count, scalars[start] == " " { start += 1 }
                    var end = start
                    while end < scalars.count, isCredentialCharacter(scalars[end]) { end += 1 }
                    guard end > start else { continue }
                    if scheme.count == 5, !looksLikeBase64(scalars[start..<end]) { continue }
                    output.append(contentsOf: scalars[index..<start])
                    output.append(contentsOf: placeholder.unicodeScalars)
                    index = end
                    continue scanning
                }
            }
            output.append(scalars[index])
            index += 1
        }
        return String(output)
    }

    /// Whether `name` (lowercase) appears at `index`, ignoring case, and ends a word there.
    private static func matches(_ name: [Unicode.Scalar], in scalars: [Unicode.Scalar], at index: Int) -> Bool {
        guard index + name.count <= scalars.count else { return false }
        for offset in 0..<name.count where lowercased(scalars[index + offset]) != name[offset] {
            return false
        }
        let after = index + name.count
        return after == scalars.count || !isNameCharacter(scalars[after])
    }

    /// Where the value begins after a name: past an optional closing quote, `:` or `=`, spaces
    /// and an opening quote; `nil` when no separator follows (the name was only mentioned).
    private static func valueStart(in scalars: [Unicode.Scalar], after nameEnd: Int) -> Int? {
        var index = nameEnd
        if index < scalars.count, scalars[index] == "\"" { index += 1 }
        while index < scalars.count, scalars[index] == " " { index += 1 }
        guard index < scalars.count, scalars[index] == ":" || scalars[index] == "=" else { return nil }
        index += 1
        while index < scalars.count, scalars[index] == " " { index += 1 }
        if index < scalars.count, scalars[index] == "\"" { index += 1 }
        return index
    }

    /// Where the value ends: at the closing quote of a quoted value (skipping escaped quotes),
    /// else at the end of the line for a header and at a delimiter for a parameter.
    private static func valueEnd(in scalars: [Unicode.Scalar], from start: Int, isHeader: Bool) -> (Int, Bool) {
        let quoted = start > 0 && scalars[start - 1] == "\""
        var index = start
        while index < scalars.count {
            let scalar = scalars[index]
            if quoted {
                if scalar == "\"" { return (index, true) }
                if scalar == "\\" { index += 1 }
            } else if scalar == "\r" || scalar == "\n" || scalar == "\"" {
                break
            } else if !isHeader, endsParameterValue(scalar) || scalar == "," || scalar == "}" {
                break
            }
            index += 1
        }
        return (min(index, scalars.count), false)
    }

    /// Characters that may belong to a header, parameter or scheme name.
    static func isNameCharacter(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "-" || scalar == "_"
            || scalar == "." || scalar == "%"
    }

    /// Characters of a token68 credential (RFC 9110 §11.2), and `%` for encoded ones.
    private static func isCredentialCharacter(_ scalar: Unicode.Scalar) -> Bool {
        isNameCharacter(scalar) || scalar == "~" || scalar == "+" || scalar == "/" || scalar == "="
    }

    private static func looksLikeBase64(_ credential: ArraySlice<Unicode.Scalar>) -> Bool {
        credential.count >= 8 && credential.count % 4 == 0
            && credential.allSatisfy { scalar in
                scalar.isASCII
                    && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
                        || "+/=".unicodeScalars.contains(scalar))
            }
    }

    private static func endsParameterName(_ scalar: Unicode.Scalar) -> Bool {
        "=&#;?\"'<> \t\r\n".unicodeScalars.contains(scalar)
    }

    private static func endsParameterValue(_ scalar: Unicode.Scalar) -> Bool {
        "&#;\"'<>\\ \t\r\n".unicodeScalars.contains(scalar)
    }

    private static func lowercased(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        ("A"..."Z").contains(scalar) ? Unicode.Scalar(scalar.value + 32) ?? scalar : scalar
    }
}
