/// The Public Suffix List (<https://publicsuffix.org>): the domains under which anyone may
/// register a name (`com`, `co.uk`, `github.io`), for which a cookie may not be set, since it
/// would reach every site under them.
///
/// ``builtIn`` carries the list as of the date its source names (``builtInSource``), both its
/// ICANN and its private sections, as browsers use them. An app that must follow newer
/// registrations can load a current copy of the list with ``init(rules:)``.
public struct PublicSuffixList: Sendable {
    private let rules: Set<String>
    /// `*.ck` is kept as `ck`: a wildcard covers any one label in front of it.
    private let wildcards: Set<String>
    /// `!www.ck` is kept as `www.ck`: an exception to a wildcard.
    private let exceptions: Set<String>

    /// A list read from the text of `public_suffix_list.dat`: one rule per line, `//` comments and
    /// blank lines skipped. Rules are matched against hosts in their ASCII form, so a rule in
    /// Unicode must be given in Punycode (`xn--55qx5d.cn`), as the built-in list is.
    public init(rules text: String) {
        var rules = Set<String>()
        var wildcards = Set<String>()
        var exceptions = Set<String>()
        for line in text.split(whereSeparator: \.isNewline) {
            guard let rule = line.split(whereSeparator: \.isWhitespace).first, !rule.hasPrefix("//") else { continue }
            let lowercased = rule.lowercased()
            if lowercased.hasPrefix("!") {
                exceptions.insert(String(lowercased.dropFirst()))
            } else if lowercased.hasPrefix("*.") {
                wildcards.insert(String(lowercased.dropFirst(2)))
            } else {
                rules.insert(lowercased)
            }
        }
        self.rules = rules
        self.wildcards = wildcards
        self.exceptions = exceptions
    }

    /// The list that ships with NetworkingKit; read once, when a cookie first names a domain.
    public static let builtIn = PublicSuffixList(rules: builtInRules)

    /// Whether `domain` (lowercased, in its ASCII form) is a public suffix: the list's algorithm
    /// (an exception rule first, then the longest matching rule, then `*`: every top-level
    /// domain is one) gives `domain` itself.
    public func isPublicSuffix(_ domain: String) -> Bool {
        let labels = domain.split(separator: ".", omittingEmptySubsequences: false)
        guard !labels.isEmpty, !labels.contains(where: \.isEmpty) else { return false }
        return publicSuffixLabelCount(labels) == labels.count
    }

    /// The registrable domain of `domain` (lowercased, ASCII): its public suffix and one label more
    /// (`example.co.uk` for `www.example.co.uk`); `domain` itself when it is a public suffix or an
    /// IP address.
    public func registrableDomain(_ domain: String) -> String {
        let labels = domain.split(separator: ".", omittingEmptySubsequences: false)
        guard !labels.isEmpty, !labels.contains(where: \.isEmpty), !CookieMatching.isIPAddress(domain) else { return domain }
        let count = publicSuffixLabelCount(labels)
        guard count < labels.count else { return domain }
        return labels.suffix(count + 1).joined(separator: ".")
    }

    /// How many labels, from the right, the public suffix of `labels` has.
    private func publicSuffixLabelCount(_ labels: [Substring]) -> Int {
        let suffixes = (0..<labels.count).map { labels[$0...].joined(separator: ".") }
        // An exception wins over every other rule: its suffix is the rule minus its first label.
        for (index, suffix) in suffixes.enumerated() where exceptions.contains(suffix) {
            return labels.count - index - 1
        }
        // The longest rule that matches: suffixes go from the longest to the shortest.
        for (index, suffix) in suffixes.enumerated() {
            if rules.contains(suffix) { return labels.count - index }
            if index + 1 < suffixes.count, wildcards.contains(suffixes[index + 1]) { return labels.count - index }
        }
        return 1
    }
}
