import HTTPTypes

extension HTTPFields {
    /// Removes every field named in `names`.
    mutating func removeAll(named names: Set<HTTPField.Name>) {
        for name in names where contains(name) { self[name] = nil }
    }
}
