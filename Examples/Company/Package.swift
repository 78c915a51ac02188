// swift-tools-version:6.0
import PackageDescription

// An app-like package that uses DataModelGen the way a user would: the build plugin turns the
// Xcode data models in Sources/CompanyData into Swift on every build, against DataModelRuntime.
let package = Package(
    name: "Company",
    platforms: [.macOS(.v15)],
    dependencies: [
        // `name:` lets the target refer to it as "DataModelGen" whatever the checkout directory is called.
        .package(name: "DataModelGen", path: "../..")
    ],
    targets: [
        .target(
            name: "CompanyData",
            dependencies: [.product(name: "DataModelRuntime", package: "DataModelGen")],
            plugins: [.plugin(name: "DataModelGenPlugin", package: "DataModelGen")]
        ),
        .executableTarget(name: "CompanyExample", dependencies: ["CompanyData"]),
        .testTarget(name: "CompanyDataTests", dependencies: ["CompanyData"]),
    ],
    swiftLanguageModes: [.v6]
)
