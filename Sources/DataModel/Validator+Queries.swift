import PredicateFormat

// The model's own queries: the predicates of fetch request templates and fetched properties, and the derivation
// expressions of derived attributes, must parse (the generated code hands them to the runtime, which would stop).
extension ValidationRun {
    func checkQueries() {
        for request in model.fetchRequests {
            checkPredicate(of: request, what: "fetch request '\(request.name)'")
        }
        for entity in model.entities {
            for property in entity.fetchedProperties {
                if let request = property.fetchRequest {
                    checkPredicate(of: request, what: "fetched property '\(entity.name).\(property.name)'")
                }
            }
            for attribute in entity.attributes where attribute.isDerived {
                guard let text = attribute.derivationExpression else { continue }
                do {
                    _ = try FormatExpression(format: text)
                } catch {
                    self.error(
                        "the derivation expression of '\(entity.name).\(attribute.name)' is invalid: "
                            + Self.located(error, in: "derivationExpression"),
                        .invalidPredicate, attribute.location)
                }
            }
        }
    }

    private func checkPredicate(of request: FetchRequestTemplate, what: String) {
        guard let text = request.predicateString else { return }
        do {
            _ = try FormatPredicate(format: text)
        } catch {
            self.error(
                "the predicate of \(what) is invalid: " + Self.located(error, in: "predicateString"),
                .invalidPredicate, request.location)
        }
    }

    /// The parser's message with its place in the XML attribute (`predicateString column 12: expected …`).
    static func located(_ error: PredicateFormatError, in attribute: String) -> String {
        let place = error.line > 1 ? "line \(error.line), column \(error.column)" : "column \(error.column)"
        return "\(attribute) \(place): \(error.message)"
    }
}
