import DataModel
import Testing

@testable import DataModelGenCLI

@Suite("Argument parser")
struct ArgumentParserTests {
    private let dump = ArgumentParser(options: Command.dump.options)
    private let validate = ArgumentParser(options: Command.validate.options)

    private func usageError(_ parser: ArgumentParser, _ arguments: [String]) -> String? {
        do {
            _ = try parser.parse(arguments)
            return nil
        } catch {
            return error.description
        }
    }

    @Test func separateValue() throws {
        let parsed = try dump.parse(["Model.xcdatamodeld", "--format", "text"])
        #expect(parsed.positionals == ["Model.xcdatamodeld"])
        #expect(parsed.value(.format) == "text")
        #expect(parsed.flags.isEmpty)
    }

    @Test func inlineValue() throws {
        let parsed = try dump.parse(["--format=text", "--model-version=Model 2", "m"])
        #expect(parsed.value(.format) == "text")
        #expect(parsed.value(.modelVersion) == "Model 2")
        #expect(parsed.positionals == ["m"])
    }

    @Test func inlineValueMayContainEqualsAndBeEmpty() throws {
        let parsed = try dump.parse(["--model-version=a=b", "m"])
        #expect(parsed.value(.modelVersion) == "a=b")
        #expect(try dump.parse(["--model-version=", "m"]).value(.modelVersion) == "")
    }

    @Test func valueMayLookLikeAnOption() throws {
        #expect(try dump.parse(["--model-version", "--format", "m"]).value(.modelVersion) == "--format")
    }

    @Test func flags() throws {
        let parsed = try validate.parse(["--warnings-as-errors", "a", "b"])
        #expect(parsed.flag(.warningsAsErrors))
        #expect(!parsed.flag(.modelVersion))
        #expect(parsed.positionals == ["a", "b"])
        #expect(usageError(validate, ["--warnings-as-errors=yes"]) == "option '--warnings-as-errors' takes no value")
    }

    @Test func doubleDashEndsOptions() throws {
        let parsed = try dump.parse(["--format", "json", "--", "--format", "-x", "--"])
        #expect(parsed.value(.format) == "json")
        #expect(parsed.positionals == ["--format", "-x", "--"])
    }

    @Test func singleDashIsPositional() throws {
        #expect(try dump.parse(["-"]).positionals == ["-"])
    }

    @Test func repeatedOptionLastWins() throws {
        let parsed = try dump.parse(["--format", "json", "--format=text"])
        #expect(parsed.values(.format) == ["json", "text"])
        #expect(parsed.value(.format) == "text")
    }

    @Test func everyCommandDeclaresEachOptionOnce() {
        for command in Command.allCases {
            let names = command.options.map(\.name)
            #expect(Set(names).count == names.count, "\(command.rawValue): \(names)")
        }
    }

    @Test func unknownOptionWithSuggestion() {
        #expect(usageError(dump, ["--fromat", "text"]) == "unknown option '--fromat'; did you mean '--format'?")
        #expect(
            usageError(validate, ["--model-versoin", "x"])
                == "unknown option '--model-versoin'; did you mean '--model-version'?")
        #expect(
            usageError(validate, ["--warnings-as-error"])
                == "unknown option '--warnings-as-error'; did you mean '--warnings-as-errors'?")
        #expect(usageError(validate, ["--diag"]) == "unknown option '--diag'; did you mean '--diagnostics-format'?")

        let generate = ArgumentParser(options: Command.generate.options)
        #expect(usageError(generate, ["--outptu", "x"]) == "unknown option '--outptu'; did you mean '--output'?")
    }

    @Test func unknownOptionWithoutSuggestion() {
        #expect(usageError(dump, ["--zebra"]) == "unknown option '--zebra'")
        #expect(usageError(validate, ["--output", "x"]) == "unknown option '--output'", "validate has no --output")
        #expect(usageError(ArgumentParser(options: []), ["--x"]) == "unknown option '--x'")
    }

    @Test func singleDashOptionIsAnOption() {
        #expect(usageError(dump, ["-q"]) == "unknown option '-q'")
    }

    @Test func missingValue() {
        #expect(usageError(dump, ["m", "--format"]) == "option '--format' needs a value")
        #expect(usageError(validate, ["--model-version"]) == "option '--model-version' needs a value")
    }

    @Test func disallowedValue() {
        #expect(
            usageError(dump, ["--format", "yaml"]) == "invalid value 'yaml' for '--format'; expected one of: json, text"
        )
        #expect(
            usageError(validate, ["--diagnostics-format=xml"])
                == "invalid value 'xml' for '--diagnostics-format'; expected one of: text, json")
        #expect(usageError(dump, ["--format=JSON"]) != nil, "values are case-sensitive")
    }

    @Test func editDistance() {
        #expect(NameSuggestion.distance("", "abc") == 3)
        #expect(NameSuggestion.distance("abc", "") == 3)
        #expect(NameSuggestion.distance("format", "format") == 0)
        #expect(NameSuggestion.distance("fromat", "format") == 1, "a swap of neighbours is one edit")
        #expect(NameSuggestion.distance("ca", "abc") == 3, "optimal string alignment: no edit of a swapped pair")
        #expect(NameSuggestion.distance("kitten", "sitting") == 3)
        #expect(NameSuggestion.distance("ö", "o") == 1)
    }
}
