// swift-tools-version:6.0
import Foundation
import PackageDescription

let package = Package(
    name: "DataModelGen",
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .executable(name: "datamodelgen", targets: ["datamodelgen"]),
        .executable(name: "datamodelgen-postgres", targets: ["datamodelgen-postgres"]),
        .library(name: "DataModelRuntime", targets: ["DataModelRuntime"]),
        .plugin(name: "DataModelGenPlugin", targets: ["DataModelGenPlugin"]),
        .plugin(name: "GenerateDataModels", targets: ["GenerateDataModels"]),
    ],
    targets: [
        // System libraries.
        .systemLibrary(
            name: "CLibXML2",
            pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"]), .brew(["libxml2"])]
        ),
        .systemLibrary(
            name: "CSQLite",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite3"])]
        ),
        .systemLibrary(
            name: "CLibPQ",
            pkgConfig: "libpq",
            providers: [.apt(["libpq-dev"]), .brew(["libpq"])]
        ),

        // The names the generator, the loader, the CLI and the plugins share (standard library only; the plugins
        // compile the same file through `Plugins/PluginsShared/ModelNaming.swift`, a symlink).
        .target(name: "DataModelNaming"),
        // Generator core: IR, loader, parser, validator, diagnostics.
        .target(
            name: "DataModel", dependencies: ["CLibXML2", "DataModelStoreLayout", "DataModelNaming", "PredicateFormat"]),
        // Process concerns only the command-line tool uses: POSIX threads, skipping teardown at exit, and the
        // scheduler that hands both to the core's stages (which never start threads themselves).
        .target(name: "ProcessSupport", dependencies: ["DataModel"]),
        // Template engine (Mustache), independent of the rest.
        .target(name: "Mustache"),
        // Core Data's SQLite store layout, shared by the generator and the runtime.
        .target(name: "DataModelStoreLayout"),
        // A small Swift wrapper over the SQLite C API.
        .target(name: "SQLiteKit", dependencies: ["CSQLite"]),
        // A small Swift wrapper over PostgreSQL's C client library, libpq.
        .target(name: "PostgresKit", dependencies: ["CLibPQ"]),
        // The default templates (`Templates/*.mustache`), compiled into the module as string literals
        // (`EmbeddedTemplates.swift`, written by `Scripts/embed-templates.sh` and checked by a test): a binary needs
        // no files beside it, and a package that depends on this one builds no plugin for it.
        .target(name: "DataModelTemplates"),
        // Turns the template files into Swift string literals (`Scripts/embed-templates.sh`).
        .executableTarget(name: "template-embedder"),
        // Naming, template context, renderers.
        .target(
            name: "DataModelCodegen",
            dependencies: [
                "DataModel", "DataModelNaming", "Mustache", "DataModelStoreLayout", "DataModelTemplates",
                "PredicateFormat",
            ]),
        // A store file on disk: its metadata, what it holds, and its migration between model versions; shared by
        // the runtime and `datamodelgen migrate`.
        .target(name: "DataModelStore", dependencies: ["SQLiteKit", "DataModelStoreLayout"]),
        // The Core Data / Foundation predicate and expression format language: parser, typed tree, printer
        // (Foundation only; the runtime translates the tree). See Docs/PredicateFormat.md.
        .target(name: "PredicateFormat"),
        // The runtime that generated code imports.
        .target(
            name: "DataModelRuntime",
            dependencies: ["SQLiteKit", "PostgresKit", "DataModelStoreLayout", "DataModelStore", "PredicateFormat"]),
        // The command-line tool: commands, argument parsing, file writing, exit codes.
        .target(
            name: "DataModelGenCLI",
            dependencies: [
                "DataModel", "DataModelNaming", "DataModelCodegen", "DataModelTemplates", "Mustache",
                "DataModelStoreLayout", "ProcessSupport", "DataModelStore", "SQLiteKit",
            ]),
        .executableTarget(name: "datamodelgen", dependencies: ["DataModel", "DataModelGenCLI"]),
        // `datamodelgen` with PostgreSQL stores (`migrate <bundle> postgresql://…`, which `datamodelgen` hands to it):
        // a tool of its own so that `datamodelgen` does not link libpq, whose libraries every start would load.
        .executableTarget(
            name: "datamodelgen-postgres",
            dependencies: ["DataModelGenCLI", "DataModelRuntime", "DataModelStore", "DataModelStoreLayout"]),
        // SwiftPM plugins: generate on every build, or write the generated files into the package once.
        .plugin(name: "DataModelGenPlugin", capability: .buildTool(), dependencies: ["datamodelgen"]),
        .plugin(
            name: "GenerateDataModels",
            capability: .command(
                intent: .custom(
                    verb: "generate-data-models",
                    description: "Write Swift code generated from the targets' Xcode data models into the package."),
                permissions: [
                    .writeToPackageDirectory(reason: "Writes the generated Swift files next to each data model.")
                ]),
            dependencies: ["datamodelgen"]),
        // Release-mode benchmarks against baselines measured in the same run.
        .executableTarget(
            name: "datamodelgen-benchmarks",
            dependencies: [
                "DataModel", "DataModelGenCLI", "CSQLite", "DataModelRuntime", "DataModelStore", "DataModelStoreLayout",
                "GeneratedCompanyModel", "datamodelgen-benchmark-tool", "CLibPQ", "PostgresKit",
            ],
            path: "Benchmarks",
            exclude: ["Tool"],
            swiftSettings: [.unsafeFlags(["-static-stdlib"], .when(platforms: [.linux], configuration: .release))],
            linkerSettings: [.unsafeFlags(["-static-stdlib"], .when(platforms: [.linux], configuration: .release))]),
        // The tool the generator cases time: `datamodelgen` linked as a Linux release of it is built
        // (`swift build -c release --static-swift-stdlib`), start-up without resolving thousands of symbols in the
        // Swift libraries. Only the benchmark targets have the flag; no product depends on them.
        .executableTarget(
            name: "datamodelgen-benchmark-tool",
            dependencies: ["DataModel", "DataModelGenCLI"],
            path: "Benchmarks/Tool",
            swiftSettings: [.unsafeFlags(["-static-stdlib"], .when(platforms: [.linux], configuration: .release))],
            linkerSettings: [.unsafeFlags(["-static-stdlib"], .when(platforms: [.linux], configuration: .release))]),

        .testTarget(
            name: "DataModelTests", dependencies: ["DataModel", "DataModelNaming", "ProcessSupport"],
            exclude: ["Fixtures"]),
        // The plugins' shared sources (`PluginsShared`, a symlink to `Plugins/PluginsShared`) compiled with a test
        // that checks their predicted output files against `generate`'s.
        .testTarget(
            name: "PluginOutputTests", dependencies: ["DataModelGenCLI"],
            exclude: ["PluginsShared/SourceModuleTarget+Directory.swift"]),
        .testTarget(
            name: "DataModelGenCLITests",
            dependencies: [
                "DataModelGenCLI", "DataModel", "DataModelCodegen", "DataModelStore", "DataModelStoreLayout", "PostgresKit",
            ],
            exclude: ["Golden"]),
        .testTarget(name: "MustacheTests", dependencies: ["Mustache"]),
        .testTarget(name: "StoreLayoutTests", dependencies: ["DataModelStoreLayout", "SQLiteKit"], exclude: ["Golden"]),
        .testTarget(name: "SQLiteKitTests", dependencies: ["SQLiteKit"]),
        .testTarget(name: "PostgresKitTests", dependencies: ["PostgresKit"]),
        .testTarget(name: "PredicateFormatTests", dependencies: ["PredicateFormat"]),
        .testTarget(
            name: "DataModelCodegenTests",
            dependencies: [
                "DataModel", "DataModelNaming", "DataModelCodegen", "DataModelGenCLI", "DataModelTemplates", "Mustache",
                "DataModelStoreLayout", "SQLiteKit", "DataModelRuntime", "GeneratedCompanyModel", "ProcessSupport",
                "PostgresKit",
            ],
            exclude: ["Golden"]),
        // The runtime flavor generated from Models/Company.xcdatamodeld, shared by the runtime tests and the
        // benchmarks (kept fresh by CommittedGeneratedCodeTests).
        .target(
            name: "GeneratedCompanyModel", dependencies: ["DataModelRuntime"], path: "Tests/GeneratedModels/Company"),
        .testTarget(
            name: "DataModelRuntimeTests",
            dependencies: ["DataModelRuntime", "GeneratedCompanyModel", "PredicateFormat", "PostgresKit"]),
        // The seed tutorials' Core Data code and its ports (Docs/TutorialPorts.md), over the tutorial models generated
        // with --xcode-compatible (Xcode's shapes). `Models/Tutorial<Model>.xcdatamodeld` link to `Models/<Model>`:
        // the own names keep these models apart from the runtime flavor of the same models in the test binary.
        .testTarget(name: "TutorialPortTests", dependencies: ["DataModelRuntime", "PostgresKit"], exclude: ["Models"]),
    ],
    swiftLanguageModes: [.v6]
)

// libFuzzer targets (`Fuzz/<name>/`), one per parser that takes outside input. They have no `main` (libFuzzer's is
// linked in by `-sanitize=fuzzer`), so they exist only when `Scripts/fuzz.sh` builds them with
// DATAMODELGEN_FUZZ=1 and the fuzzer flags.
if ProcessInfo.processInfo.environment["DATAMODELGEN_FUZZ"] == "1" {
    let fuzzTargets: [(name: String, dependencies: [Target.Dependency])] = [
        ("fuzz-model", ["DataModel", "DataModelCodegen"]),
        ("fuzz-current-version", ["DataModel"]),
        ("fuzz-mustache", ["Mustache"]),
        ("fuzz-predicate-format", ["PredicateFormat"]),
        ("fuzz-predicate-translator", ["DataModelRuntime", "GeneratedCompanyModel", "PredicateFormat"]),
        ("fuzz-migration", ["DataModelStoreLayout", "DataModelStore", "SQLiteKit"]),
    ]
    package.targets.append(.target(name: "FuzzSupport", path: "Fuzz/FuzzSupport"))
    for target in fuzzTargets {
        package.targets.append(
            .executableTarget(
                name: target.name, dependencies: target.dependencies + ["FuzzSupport"], path: "Fuzz/\(target.name)"))
    }
}
