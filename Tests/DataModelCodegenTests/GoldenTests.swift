import DataModelGenCLI
import Foundation
import Testing

/// Generated output for every model in `Models/` must equal the committed golden files.
///
/// To regenerate after an intended change: `Scripts/update-golden.sh`, then review the diff.
@Suite struct GoldenTests {
    static let regenerate = "Scripts/update-golden.sh"

    static let models = TestPaths.exampleModels.map(\.lastPathComponent)

    /// The runtime flavor of the other models is committed (and checked) as the runtime tests' generated
    /// code, so only the models without such a copy have runtime goldens.
    static let runtimeGoldenModels = ["ReservedNames.xcdatamodeld"]

    @Test(arguments: models.map { ($0, "coredata") } + runtimeGoldenModels.map { ($0, "runtime") })
    func swiftOutputMatchesGolden(model: String, flavor: String) throws {
        let name = String(model.dropLast(".xcdatamodeld".count))
        let golden = TestPaths.golden.appendingPathComponent("\(name)/\(flavor)").path
        let run = ToolRun.run([
            "generate", TestPaths.models.appendingPathComponent(model).path, "--output", golden, "--flavor", flavor,
            "--include-manual", "--no-schema", "--check",
        ])
        #expect(
            run.exitCode == .success,
            "\(model) (\(flavor)) differs from its golden files; if intended, run \(Self.regenerate)\n\(run.out)\(run.err)"
        )
    }

    @Test(arguments: models)
    func irDumpMatchesGolden(model: String) throws {
        let name = String(model.dropLast(".xcdatamodeld".count))
        let run = ToolRun.run(["dump", TestPaths.models.appendingPathComponent(model).path])
        #expect(run.exitCode == .success)
        let path = TestPaths.golden.appendingPathComponent("\(name)/\(name).ir.json").path
        let expected = FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) }
        #expect(expected == run.out, "IR dump of \(model) differs from \(path); if intended, run \(Self.regenerate)")
    }
}

/// Runtime-flavor code committed for the runtime tests and the benchmarks must equal what `generate` writes.
@Suite struct CommittedGeneratedCodeTests {
    static let directories: [String] = {
        var found: [String] = []
        for parent in ["Tests/DataModelRuntimeTests/Generated", "Tests/GeneratedModels"] {
            let url = TestPaths.repoRoot.appendingPathComponent(parent)
            let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
            found += names.sorted().map { parent + "/" + $0 }
        }
        return found
    }()

    /// The runtime flavor generated with `--xcode-compatible`, committed for the runtime tests.
    static let xcodeCompatibleDirectories: [String] = {
        let parent = "Tests/DataModelRuntimeTests/XcodeCompatible"
        let url = TestPaths.repoRoot.appendingPathComponent(parent)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
        return names.sorted().map { parent + "/" + $0 }
    }()

    @Test(arguments: xcodeCompatibleDirectories)
    func xcodeCompatibleIsFresh(directory: String) {
        let name = (directory as NSString).lastPathComponent
        let run = ToolRun.run([
            "generate", TestPaths.models.appendingPathComponent(name + ".xcdatamodeld").path, "--output",
            TestPaths.repoRoot.appendingPathComponent(directory).path, "--no-schema", "--include-manual",
            "--xcode-compatible", "--check",
        ])
        #expect(
            run.exitCode == .success,
            "\(directory) is stale; run \(GoldenTests.regenerate)\n\(run.out)\(run.err)")
    }

    /// The tutorial models (`Tests/TutorialPortTests/Models/Tutorial<Model>.xcdatamodeld`, links to `Models/`),
    /// generated with `--xcode-compatible` for the tutorial ports.
    static let tutorialModels: [String] = {
        let url = TestPaths.repoRoot.appendingPathComponent("Tests/TutorialPortTests/Models")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
        return names.filter { $0.hasSuffix(".xcdatamodeld") }.sorted()
    }()

    @Test func tutorialModelsArePresent() {
        #expect(Self.tutorialModels.count == 5)
    }

    @Test(arguments: tutorialModels)
    func tutorialPortCodeIsFresh(model: String) {
        let name = String(model.dropLast(".xcdatamodeld".count))
        let run = ToolRun.run([
            "generate", TestPaths.repoRoot.appendingPathComponent("Tests/TutorialPortTests/Models/\(model)").path,
            "--output", TestPaths.repoRoot.appendingPathComponent("Tests/TutorialPortTests/Generated/\(name)").path,
            "--no-schema", "--include-manual", "--xcode-compatible", "--check",
        ])
        #expect(
            run.exitCode == .success,
            "Tests/TutorialPortTests/Generated/\(name) is stale; run \(GoldenTests.regenerate)\n\(run.out)\(run.err)")
    }

    @Test(arguments: directories)
    func isFresh(directory: String) {
        let name = (directory as NSString).lastPathComponent
        let run = ToolRun.run([
            "generate", TestPaths.models.appendingPathComponent(name + ".xcdatamodeld").path, "--output",
            TestPaths.repoRoot.appendingPathComponent(directory).path, "--no-schema", "--include-manual", "--check",
        ])
        #expect(
            run.exitCode == .success,
            "\(directory) is stale; run \(GoldenTests.regenerate)\n\(run.out)\(run.err)")
    }
}
