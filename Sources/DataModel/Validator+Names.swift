import DataModelNaming
import DataModelStoreLayout
import FoundationEssentials

// Identifier checks of a validation run; the rules themselves are `ModelNaming`'s.
extension ValidationRun {
    func checkIdentifier(_ name: String, kind: String, location: SourceLocation, uppercase: Bool) {
        guard !name.isEmpty else { return }  // reported by the parser
        guard ModelNaming.isIdentifier(name) else {
            error(
                "\(kind) name '\(name)' is not a valid identifier (letters, digits and '_', not starting with a digit)",
                .invalidIdentifier, location)
            return
        }
    }

    func isPlainName(_ text: String) -> Bool {
        text.unicodeScalars.allSatisfy { $0 == "_" || ModelNaming.isAlphanumeric($0) }
    }
}
