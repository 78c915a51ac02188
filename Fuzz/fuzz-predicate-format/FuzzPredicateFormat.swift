// libFuzzer target: a predicate format string (NSPredicate's language) through the parser, with a fixed list of
// arguments of every kind; what parses must print to a string that parses back to the same tree, and substituting
// its variables must not crash. The same bytes are also parsed as an expression (derived attributes).
import Foundation
import PredicateFormat

private func arguments() -> [any PredicateValueConvertible] {
    ["Ann", 42, 1.5, true, Date(timeIntervalSinceReferenceDate: 0), "name", ["a", "b"], 7]
}

@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    let bytes = start.map { Array(UnsafeRawBufferPointer(start: $0, count: count)) } ?? []
    let format = String(decoding: bytes, as: UTF8.self)
    for argumentList in [[], arguments()] {
        guard let predicate = try? FormatPredicate(format: format, argumentArray: argumentList)
        else { continue }
        let printed = predicate.description
        guard let again = try? FormatPredicate(format: printed, argumentArray: []) else {
            fatalError("the printed form does not parse: \(printed)")
        }
        if again != predicate, !printed.contains("nan") {
            fatalError("the printed form parses to another tree: \(printed)")
        }
        _ = try? predicate.withSubstitutionVariables(["X": 1, "VALUE": "v", "FETCH_SOURCE": "s"])
    }
    _ = try? FormatExpression(format: format, argumentArray: [])
    return 0
}
