import HTTPTypes

extension HTTPFields {
    /// The header fields a test scripts, in the one vocabulary of the testing helpers and the
    /// endpoints (`["Content-Type": "text/plain"]`), sorted by name so that answers are the same
    /// from run to run. A name that is not a valid field name is a mistake in the test: it stops
    /// there, naming the header, rather than leaving the field out without a word.
    init(scripted headers: [String: String]) {
        self.init()
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) {
            guard let fieldName = HTTPField.Name(name) else {
                preconditionFailure("'\(name)' is not a valid HTTP header field name (a scripted answer's headers)")
            }
            self[fieldName] = value
        }
    }
}
