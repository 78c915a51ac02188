// The one owner of the names the generator, the model loader, the command-line tool and the SwiftPM plugins
// share: class names, output file names, accessor names, Swift keywords and escaping, identifier checks, the
// order of model versions and the keys of `datamodelgen.json`.
//
// Standard library only. This file is the `DataModelNaming` target and is also compiled into both plugins
// (which cannot depend on library targets) through the symlink `Plugins/PluginsShared/ModelNaming.swift`, so the
// plugins predict the generator's output files with this code, not with a copy of it. `PluginOutputTests`
// compiles the plugins' shared sources and checks their predictions against `datamodelgen generate`.

/// How model names become Swift names and file names, wherever they are needed.
///
/// Swift identifiers, applied in this order:
/// 1. A name that is a Swift keyword (`class`, `default`, `protocol`, `self`, `Type` …) is written in
///    backticks wherever it is declared or used: `` `class` ``.
/// 2. A generated property whose name clashes with a member of the runtime's `ManagedObject`
///    (``runtimeReservedMembers``: `objectID`, `context`, `entity` …) gets a trailing underscore in the
///    runtime flavor (`context_`); the model name is still used for storage, key paths and predicates.
/// 3. A type reference whose name is also the name of a generated class (an entity named `Date`,
///    `Data`, `URL`, `Set` …) is qualified with its module (`Foundation.Date`, `Swift.Set`), so the
///    generated class and the standard type can coexist in one module.
public enum ModelNaming {
    // MARK: Flavors and code generation

    /// Which kind of Swift code to generate.
    public enum Flavor: String, Sendable, CaseIterable, Codable {
        /// Classes for `DataModelRuntime`, compiling on Linux (the default).
        case runtime
        /// What Xcode's own codegen writes into DerivedData, for Core Data on Apple platforms.
        case coredata
    }

    /// How Xcode generates code for an entity (the `<entity codeGenerationType=…>` attribute).
    public enum CodeGeneration: String, Hashable, Sendable, Codable {
        /// `class`: Xcode writes the class and its properties.
        case `class`
        /// `category`: Xcode writes the properties extension; the user owns the class.
        case category
        /// Absent: Manual/None, Xcode writes nothing.
        case manual

        /// The meaning of a `codeGenerationType` attribute value: an absent or unknown value is Manual/None.
        public init(attributeValue: String?) {
            self = attributeValue.flatMap(Self.init(rawValue:)) ?? .manual
        }

        /// Which of an entity's two files a run writes: Manual/None entities get both only with `includeManual`
        /// (Xcode's "Create NSManagedObject Subclass").
        public func generatedFiles(includeManual: Bool) -> (class: Bool, properties: Bool) {
            switch self {
            case .class: (true, true)
            case .category: (false, true)
            case .manual: (includeManual, includeManual)
            }
        }

        /// Whether the files a run writes for such an entity are the user's to edit: Manual/None entities' files
        /// (`--include-manual`, like Xcode's "Create NSManagedObject Subclass") say "This file is yours to edit",
        /// and `generate` writes one only when it does not exist, never overwrites or removes it.
        public var filesAreUserOwned: Bool { self == .manual }
    }

    // MARK: Class names

    /// The class name of an entity: `representedClassName` without any module prefix (`MyApp.Person`,
    /// `.Person` → `Person`), or the entity name when there is none.
    public static func className(entityName: String, representedClassName: String?) -> String {
        guard let represented = representedClassName, !represented.isEmpty else { return entityName }
        // Most names have no module prefix: a name without a `.` byte has no `.` character.
        let dotByte = UInt8(ascii: ".")
        let hasDot =
            represented.utf8.withContiguousStorageIfAvailable { $0.contains(dotByte) }
            ?? represented.utf8.contains(dotByte)
        guard hasDot, let dot = represented.lastIndex(of: ".") else { return represented }
        let tail = represented[represented.index(after: dot)...]
        return tail.isEmpty ? entityName : String(tail)
    }

    /// The class of an entity in `flavor`: `NSManagedObject` (what older Xcode wrote for "no custom class") is the
    /// generic class, `ManagedObject` in the runtime flavor; no file declares it (``isGenericClass(_:flavor:)``).
    public static func className(entityName: String, className: String, flavor: Flavor) -> String {
        flavor == .runtime && className == "NSManagedObject" ? "ManagedObject" : className
    }

    /// Whether `className` (as ``className(entityName:className:flavor:)`` gives it) is the generic class of
    /// `flavor`'s objects, `NSManagedObject` or the runtime's `ManagedObject`: its entity gets no files, its objects
    /// are of the generic class, and relationships to it are typed with it.
    public static func isGenericClass(_ className: String, flavor: Flavor) -> Bool {
        className == (flavor == .coredata ? "NSManagedObject" : "ManagedObject")
    }

    /// The class of an entity in `flavor`, from its name and `representedClassName`.
    public static func className(entityName: String, representedClassName: String?, flavor: Flavor) -> String {
        className(
            entityName: entityName,
            className: className(entityName: entityName, representedClassName: representedClassName), flavor: flavor)
    }

    /// The `<ModelName>Model` enum of the runtime flavor (no second `Model` suffix), as an identifier; `configured`
    /// (`--model-type-name`, `modelTypeName` in `datamodelgen.json`) instead when given.
    public static func modelTypeName(modelName: String, configured: String? = nil) -> String {
        if let configured { return configured }
        return escaped(identifier(modelName.hasSuffix("Model") ? modelName : modelName + "Model"))
    }

    /// Why `name` cannot be the model type's name (`--model-type-name`), or nil when it can: it must be a Swift
    /// identifier that needs no backticks (not a keyword, not `Type`, `Self` …).
    public static func modelTypeNameProblem(_ name: String) -> String? {
        if !isIdentifier(name) {
            return "'\(name)' is not a Swift identifier (letters, digits and _, not starting with a digit)"
        }
        if keywords.contains(name) { return "'\(name)' is a Swift keyword" }
        return nil
    }

    /// The model enum's function describing an entity (`describeBusinessEntity`).
    public static func describeFunctionName(entityName: String) -> String {
        "describe" + capitalized(String(identifier(entityName).drop { $0 == "_" }))
    }

    // MARK: Output files

    /// What decides an entity's file names.
    public struct EntityFacts: Sendable, Equatable {
        /// The entity's name.
        public var name: String
        /// `representedClassName` as written (may carry a module prefix).
        public var representedClassName: String?
        /// How Xcode generates code for it.
        public var codeGeneration: CodeGeneration

        /// Creates the facts of one entity.
        public init(name: String, representedClassName: String?, codeGeneration: CodeGeneration) {
            self.name = name
            self.representedClassName = representedClassName
            self.codeGeneration = codeGeneration
        }
    }

    /// One Swift file `generate` writes for a model.
    public struct OutputFile: Sendable, Equatable {
        /// What the file holds.
        public enum Kind: Sendable, Equatable {
            /// The class of the entity at this index (of the entities given).
            case entityClass(Int)
            /// The properties of the entity at this index.
            case entityProperties(Int)
            /// The runtime flavor's model description, `<ModelName>+DataModel.swift`.
            case model
        }

        /// The file's name.
        public var name: String
        /// What it holds.
        public var kind: Kind
        /// Whether the file is the user's to edit (``CodeGeneration/filesAreUserOwned``): written only when it
        /// does not exist.
        public var isUserOwned: Bool = false
    }

    /// The Swift files `generate` writes for a model whose entities are `entities` (in file order), sorted by
    /// name: each entity's class and properties files as its code generation asks (see
    /// ``CodeGeneration/generatedFiles(includeManual:)``; none for an entity whose class is
    /// `NSManagedObject`, as in Xcode), the first entity of a file name winning, plus
    /// `<ModelName>+DataModel.swift` in the runtime flavor. `<ModelName>.sql` (``schemaFileName(modelName:)``) is
    /// written besides, unless `--no-schema`. `xcodeCompatible` (`--xcode-compatible`) gives the runtime flavor
    /// Xcode's file names (see ``classFileName(className:flavor:xcodeCompatible:)``).
    public static func outputFiles(
        modelName: String, entities: [EntityFacts], flavor: Flavor, includeManual: Bool, xcodeCompatible: Bool = false
    ) -> [OutputFile] {
        var files: [OutputFile] = []
        var seen: Set<String> = []
        for (index, entity) in entities.enumerated() {
            let (writesClass, writesProperties) = entity.codeGeneration.generatedFiles(includeManual: includeManual)
            guard writesClass || writesProperties else { continue }
            let className = className(
                entityName: entity.name, representedClassName: entity.representedClassName, flavor: flavor)
            // `NSManagedObject` as the class (older models' "no custom class"): Xcode generates nothing for it.
            if isGenericClass(className, flavor: flavor) { continue }
            let isUserOwned = entity.codeGeneration.filesAreUserOwned
            if writesClass {
                let name = classFileName(className: className, flavor: flavor, xcodeCompatible: xcodeCompatible)
                if seen.insert(name).inserted {
                    files.append(OutputFile(name: name, kind: .entityClass(index), isUserOwned: isUserOwned))
                }
            }
            if writesProperties {
                let name = propertiesFileName(className: className, flavor: flavor, xcodeCompatible: xcodeCompatible)
                if seen.insert(name).inserted {
                    files.append(OutputFile(name: name, kind: .entityProperties(index), isUserOwned: isUserOwned))
                }
            }
        }
        if flavor == .runtime { files.append(OutputFile(name: modelFileName(modelName: modelName), kind: .model)) }
        files.sort { $0.name < $1.name }
        return files
    }

    // Generated file names never collide with the names people give their own files: every one ends in a
    // suffix that says the generator wrote it (`+DataModelClass`, `+DataModelProperties`, `+DataModel`, or
    // Xcode's `+CoreDataClass` / `+CoreDataProperties`), so a user's own `Person.swift` or `PersonModel.swift`
    // can sit in the same target (SwiftPM names object files after the source file's name, and two
    // `Person.swift` files in one target fail the build). Class names are identifiers (no `+`), so the
    // generated names cannot collide with each other either.

    /// The class file of an entity whose class (unescaped) is `className`: `BusinessEntity+CoreDataClass.swift`
    /// (coredata, or runtime with `xcodeCompatible`) or `BusinessEntity+DataModelClass.swift` (runtime).
    public static func classFileName(className: String, flavor: Flavor, xcodeCompatible: Bool = false) -> String {
        flavor == .coredata || xcodeCompatible ? className + coreDataClassSuffix : className + runtimeClassSuffix
    }

    /// The properties file: `BusinessEntity+CoreDataProperties.swift` (coredata, or runtime with
    /// `xcodeCompatible`) or `BusinessEntity+DataModelProperties.swift` (runtime).
    public static func propertiesFileName(className: String, flavor: Flavor, xcodeCompatible: Bool = false)
        -> String
    {
        flavor == .coredata || xcodeCompatible
            ? className + coreDataPropertiesSuffix : className + runtimePropertiesSuffix
    }

    /// The runtime flavor's model file, `Company+DataModel.swift` (whatever the model type is called).
    public static func modelFileName(modelName: String) -> String { modelName + modelFileSuffix }

    /// The SQL schema file, `Company.sql`.
    public static func schemaFileName(modelName: String) -> String { modelName + ".sql" }

    /// Whether `fileName` is named like a file Xcode's codegen (and the coredata flavor) writes.
    public static func isCoreDataFileName(_ fileName: String) -> Bool {
        fileName.hasSuffix(coreDataClassSuffix) || fileName.hasSuffix(coreDataPropertiesSuffix)
    }

    /// The suffixes of the runtime flavor's file names.
    public static let runtimeClassSuffix = "+DataModelClass.swift"
    public static let runtimePropertiesSuffix = "+DataModelProperties.swift"
    public static let modelFileSuffix = "+DataModel.swift"

    private static let coreDataClassSuffix = "+CoreDataClass.swift"
    private static let coreDataPropertiesSuffix = "+CoreDataProperties.swift"

    // MARK: Model files and versions

    /// The extension of a versioned model bundle.
    public static let bundleExtension = ".xcdatamodeld"
    /// The extension of one model version (inside a bundle, or alone).
    public static let versionExtension = ".xcdatamodel"
    /// The file inside a bundle that names the current version.
    public static let currentVersionFileName = ".xccurrentversion"

    /// The model file's name as the user knows it (`Company.xcdatamodeld`), named in generated files' headers.
    public static func sourceFileName(modelName: String) -> String { modelName + bundleExtension }

    /// A model's or version's name: `fileName` without `.xcdatamodeld` or `.xcdatamodel`.
    public static func modelName(fileName: String) -> String {
        for suffix in [bundleExtension, versionExtension] where fileName.hasSuffix(suffix) {
            return String(fileName.dropLast(suffix.count))
        }
        return fileName
    }

    /// The version names (without `.xcdatamodel`) among a bundle's entries, oldest first in natural order.
    public static func versionNames(amongEntries entries: [String]) -> [String] {
        entries.filter { $0.hasSuffix(versionExtension) }.map(modelName(fileName:)).sorted(by: naturalOrder)
    }

    /// The version a run uses: `pinned` (nil when the bundle has no such version), else `current` (what
    /// `.xccurrentversion` names) when it exists, else the newest. `versions` are in natural order.
    public static func chosenVersion(among versions: [String], pinned: String?, current: String?) -> String? {
        if let pinned {
            let wanted = modelName(fileName: pinned)
            return versions.contains(wanted) ? wanted : nil
        }
        if let current, versions.contains(current) { return current }
        return versions.last
    }

    /// The value of `.xccurrentversion` (`Model 2.xcdatamodel`, as written) when `text` has exactly the shape
    /// Xcode writes — the declaration and DOCTYPE optional, any white space between elements — and a plain,
    /// non-empty value; nil for anything else, which callers hand to a property-list parser:
    ///
    /// ```xml
    /// <?xml version="1.0" encoding="UTF-8"?>
    /// <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
    /// <plist version="1.0">
    /// <dict>
    ///     <key>_XCCurrentVersionName</key>
    ///     <string>Model 2.xcdatamodel</string>
    /// </dict>
    /// </plist>
    /// ```
    public static func currentVersionValue(xcodeShapedText text: String) -> String? {
        var rest = Substring(text)
        func skipSpace() {
            rest = rest.drop { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }
        }
        func take(_ literal: String) -> Bool {
            skipSpace()
            guard rest.hasPrefix(literal) else { return false }
            rest = rest.dropFirst(literal.count)
            return true
        }
        /// Skips a tag that starts with `start`, up to its `>`; false when it holds `[` (an internal subset)
        /// or closes itself.
        func skipTag(_ start: String) -> Bool {
            guard take(start), let end = rest.firstIndex(of: ">") else { return false }
            let body = rest[..<end]
            guard !body.contains(where: { $0 == "[" || $0 == "<" }), body.last != "/" else { return false }
            rest = rest[rest.index(after: end)...]
            return true
        }
        skipSpace()
        if rest.hasPrefix("<?xml"), !skipTag("<?xml") { return nil }
        skipSpace()
        if rest.hasPrefix("<!DOCTYPE"), !skipTag("<!DOCTYPE") { return nil }
        guard skipTag("<plist"), take("<dict>"), take("<key>_XCCurrentVersionName</key>"), take("<string>"),
            let end = rest.firstIndex(of: "<")
        else { return nil }
        let value = rest[..<end]
        rest = rest[end...]
        guard !value.isEmpty, !value.contains(where: { $0 == "&" }), take("</string>"), take("</dict>"),
            take("</plist>")
        else { return nil }
        skipSpace()
        return rest.isEmpty ? String(value) : nil
    }

    /// Natural order: runs of digits compare as numbers (`Model 9` < `Model 10`); equal keys fall back to the
    /// strings' order.
    public static func naturalOrder(_ lhs: String, _ rhs: String) -> Bool {
        let left = NaturalKey(lhs)
        let right = NaturalKey(rhs)
        if left != right { return left < right }
        return lhs < rhs
    }

    // MARK: The config file

    /// `datamodelgen.json`: the keys the command-line tool and the plugins read, declared once.
    ///
    /// ```json
    /// { "flavor": "runtime", "access": "public", "templates": "Templates", "includeManual": false,
    ///   "output": "Generated", "schema": true, "modelVersion": "Company 2", "modelTypeName": "CompanyModel",
    ///   "xcodeCompatible": false }
    /// ```
    /// Relative paths are relative to the config file's directory. Command-line options win.
    public struct Config: Decodable, Equatable, Sendable {
        /// `runtime` or `coredata` (``Flavor``).
        public var flavor: String?
        /// `public` or `internal`.
        public var access: String?
        /// A directory of templates that replace the default ones.
        public var templates: String?
        /// Whether Manual/None entities get files too.
        public var includeManual: Bool?
        /// The output directory.
        public var output: String?
        /// Whether to write `<ModelName>.sql` too (`generate` writes it unless told not to; the command plugin
        /// writes it only when asked; the build plugin never does).
        public var schema: Bool?
        /// The model version to use instead of the current one.
        public var modelVersion: String?
        /// The dialect of `<ModelName>.sql`: `sqlite` (the default) or `postgres`.
        public var schemaDialect: String?
        /// Whether `<ModelName>.sql` declares key columns as foreign keys.
        public var foreignKeys: Bool?
        /// The name of the runtime flavor's model type instead of `<ModelName>Model`.
        public var modelTypeName: String?
        /// Whether to generate Xcode's shapes (non-optional scalars, optional object types, Xcode's file names).
        public var xcodeCompatible: Bool?

        /// The file name looked up next to the model.
        public static let fileName = "datamodelgen.json"

        /// The keys of the file: any other key is reported as unknown.
        public enum CodingKeys: String, CodingKey, CaseIterable, Sendable {
            case flavor, access, templates, includeManual, output, schema, modelVersion, schemaDialect, foreignKeys
            case modelTypeName, xcodeCompatible
        }

        /// Creates a config.
        public init(
            flavor: String? = nil, access: String? = nil, templates: String? = nil, includeManual: Bool? = nil,
            output: String? = nil, schema: Bool? = nil, modelVersion: String? = nil, schemaDialect: String? = nil,
            foreignKeys: Bool? = nil, modelTypeName: String? = nil, xcodeCompatible: Bool? = nil
        ) {
            self.flavor = flavor
            self.access = access
            self.templates = templates
            self.includeManual = includeManual
            self.output = output
            self.schema = schema
            self.modelVersion = modelVersion
            self.schemaDialect = schemaDialect
            self.foreignKeys = foreignKeys
            self.modelTypeName = modelTypeName
            self.xcodeCompatible = xcodeCompatible
        }
    }

    // MARK: Swift identifiers

    /// Words that must be escaped with backticks to be used as identifiers in declarations and member access.
    public static let keywords: Set<String> = nonTypeKeywords.union(typeKeywords)

    /// Keywords that can name a type, or one part of a qualified type name.
    public static let typeKeywords: Set<String> = ["Any", "Self", "Type", "Protocol"]

    /// Swift keywords that cannot name a type, even as one part of a qualified name.
    public static let nonTypeKeywords: Set<String> = [
        // Declarations
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init", "inout",
        "internal", "let", "open", "operator", "private", "precedencegroup", "protocol", "public", "rethrows",
        "static", "struct", "subscript", "typealias", "var",
        // Statements
        "break", "case", "catch", "continue", "default", "defer", "do", "else", "fallthrough", "for", "guard", "if",
        "in", "repeat", "return", "throw", "switch", "where", "while",
        // Expressions
        "as", "await", "false", "is", "nil", "self", "super", "throws", "true", "try",
        // Contextual words that break member declarations or access
        "_", "some", "any", "each",
    ]

    /// Members of the runtime's `ManagedObject` that a generated property must not redeclare.
    public static let runtimeReservedMembers: Set<String> = [
        "objectID", "context", "managedObjectContext", "entity", "isInserted", "isUpdated", "isDeleted", "isFault",
        "hasChanges", "changedValues", "description", "debugDescription", "hashValue", "observationRegistrar",
        "willAccess", "didChange", "primitiveValue", "setPrimitiveValue", "value", "setValue", "init", "deinit",
    ]

    /// Types the generated code refers to, with the module that declares them.
    public static let standardTypeModules: [String: String] = [
        "String": "Swift", "Bool": "Swift", "Int": "Swift", "Int16": "Swift", "Int32": "Swift", "Int64": "Swift",
        "Float": "Swift", "Double": "Swift", "Set": "Swift", "Array": "Swift", "Optional": "Swift",
        "Sequence": "Swift", "Identifiable": "Swift",
        "Date": "Foundation", "Data": "Foundation", "UUID": "Foundation", "URL": "Foundation",
        "Decimal": "Foundation", "IndexSet": "Foundation", "NSNumber": "Foundation",
        "NSDecimalNumber": "Foundation", "NSSet": "Foundation", "NSOrderedSet": "Foundation",
        "NSIndexSet": "Foundation", "NSObject": "ObjectiveC", "TimeInterval": "Foundation",
        "NSManagedObjectID": "CoreData", "NSFetchRequest": "CoreData", "NSManagedObject": "CoreData",
    ]

    /// `name` in backticks when it is a keyword (rule 1).
    public static func escaped(_ name: String) -> String {
        needsEscaping(name) ? "`\(name)`" : name
    }

    /// Whether `name` needs backticks.
    public static func needsEscaping(_ name: String) -> Bool {
        keywordShapes.mightContain(name) && keywords.contains(name)
    }

    /// The Swift property name for a model property in the runtime flavor (rule 2), unescaped.
    public static func runtimePropertyName(_ name: String) -> String {
        reservedMemberShapes.mightContain(name) && runtimeReservedMembers.contains(name) ? name + "_" : name
    }

    /// The Swift property name for a model property in `flavor`, escaped.
    public static func propertyName(_ name: String, flavor: Flavor) -> String {
        switch flavor {
        case .coredata: escaped(name)
        case .runtime: escaped(runtimePropertyName(name))
        }
    }

    /// `type` qualified with its module when a generated class has the same name (rule 3).
    public static func qualified(_ type: String, generatedClassNames: Set<String>) -> String {
        guard generatedClassNames.contains(type), let module = standardTypeModules[type] else { return type }
        return "\(module).\(type)"
    }

    /// The last part of a qualified type name (`MyApp.Dataset`, `.Dataset` → `Dataset`), or nil when empty.
    public static func unqualified(_ typeName: String) -> String? {
        guard let dot = typeName.lastIndex(of: ".") else { return typeName.isEmpty ? nil : typeName }
        let tail = typeName[typeName.index(after: dot)...]
        return tail.isEmpty ? nil : String(tail)
    }

    /// The first bytes and lengths of ``keywords``: most names are ruled out without hashing them.
    private static let keywordShapes = WordShapes(keywords)
    /// The first bytes and lengths of ``runtimeReservedMembers``.
    private static let reservedMemberShapes = WordShapes(runtimeReservedMembers)

    /// Whether `name` is an identifier: letters, digits and `_`, not starting with a digit (Unicode letters
    /// allowed, combining marks after the start, as Swift allows). What the validator requires of entity,
    /// property and class names.
    public static func isIdentifier(_ name: String) -> Bool {
        let isASCIIIdentifier =
            name.utf8.withContiguousStorageIfAvailable(isASCIIIdentifier) ?? isASCIIIdentifier(Array(name.utf8))
        if isASCIIIdentifier { return true }
        var isFirst = true
        for scalar in name.unicodeScalars {
            let value = scalar.value
            let ok: Bool
            if value < 0x80 {
                let isLetter = (value >= 0x41 && value <= 0x5A) || (value >= 0x61 && value <= 0x7A) || value == 0x5F
                let isDigit = value >= 0x30 && value <= 0x39
                ok = isLetter || (!isFirst && isDigit)
            } else {
                // Letters first (combining marks only after the start, as Swift allows), then letters,
                // marks and digits.
                ok = isFirst ? isLetter(scalar) : isAlphanumeric(scalar)
            }
            if !ok { return false }
            isFirst = false
        }
        return !isFirst
    }

    /// Whether `bytes` are ASCII letters, digits and `_`, not starting with a digit, and not empty.
    private static func isASCIIIdentifier(_ bytes: some Collection<UInt8>) -> Bool {
        var first = true
        for byte in bytes {
            let isLetter = (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x5F
            if !(isLetter || (!first && byte >= 0x30 && byte <= 0x39)) { return false }
            first = false
        }
        return !first
    }

    /// A letter: Unicode general category L*.
    public static func isLetter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter: true
        default: false
        }
    }

    /// What Foundation's `CharacterSet.alphanumerics` holds: general categories L*, M* and N*.
    public static func isAlphanumeric(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter, .nonspacingMark,
            .spacingMark, .enclosingMark, .decimalNumber, .letterNumber, .otherNumber:
            true
        default: false
        }
    }

    /// `name` made an identifier: characters other than letters, digits and `_` become `_`, and a leading digit
    /// gets a `_` before it (`151-ordered` → `_151_ordered`).
    public static func identifier(_ name: String) -> String {
        if let first = name.utf8.first, !isASCIIDigit(first),
            name.utf8.allSatisfy({ isASCIIDigit($0) || isASCIILetter($0) || $0 == UInt8(ascii: "_") })
        {
            return name
        }
        var result = String(name.map { $0.isLetter || $0.isNumber || $0 == "_" ? $0 : "_" })
        if result.first?.isNumber ?? true { result = "_" + result }
        return result
    }

    private static func isASCIIDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    private static func isASCIILetter(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
            || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
    }

    /// The first character upper-cased: `departments` → `Departments` (used in accessor names and selectors).
    public static func capitalized(_ name: String) -> String {
        // Fast path: a first ASCII byte followed by an ASCII byte is a whole character (a carriage return,
        // the one ASCII character that can join the next, is no letter).
        // (`#available`: the plugins compile this file for the deployment target of SwiftPM's plugin library.)
        var bytes = name.utf8.makeIterator()
        if #available(macOS 11, iOS 14, tvOS 14, watchOS 7, *), let first = bytes.next(), first < 0x80,
            bytes.next().map({ $0 < 0x80 }) ?? true
        {
            guard first >= UInt8(ascii: "a") && first <= UInt8(ascii: "z") else { return name }
            let count = name.utf8.count
            return String(unsafeUninitializedCapacity: count) { buffer in
                var index = 0
                for byte in name.utf8 {
                    buffer[index] = index == 0 ? byte - 32 : byte
                    index += 1
                }
                return count
            }
        }
        guard let first = name.first else { return name }
        return first.uppercased() + name.dropFirst()
    }

    /// The first character lower-cased: `Departments` → `departments`.
    public static func lowercasedFirst(_ name: String) -> String {
        guard let first = name.first else { return name }
        return first.lowercased() + name.dropFirst()
    }

    // MARK: Accessor names

    /// The to-many accessors and Objective-C selectors generated for a relationship.
    public enum Accessor: Sendable, CaseIterable {
        /// `addToDepartments`.
        case addTo
        /// `removeFromDepartments`.
        case removeFrom
        /// `insertIntoDepartments`.
        case insertInto
        /// `replaceDepartments`.
        case replace
        /// `addDepartmentsObject:`.
        case addObjectSelector
        /// `removeDepartmentsObject:`.
        case removeObjectSelector
        /// `addDepartments:`.
        case addSetSelector
        /// `removeDepartments:`.
        case removeSetSelector
        /// `insertObject:inDepartmentsAtIndex:`.
        case insertObjectSelector
        /// `removeObjectFromDepartmentsAtIndex:`.
        case removeObjectAtIndexSelector
        /// `insertDepartments:atIndexes:`.
        case insertAtIndexesSelector
        /// `removeDepartmentsAtIndexes:`.
        case removeAtIndexesSelector
        /// `replaceObjectInDepartmentsAtIndex:withObject:`.
        case replaceObjectSelector
        /// `replaceDepartmentsAtIndexes:withDepartments:`.
        case replaceAtIndexesSelector

        /// The accessor's spelling around the capitalized relationship name: `prefix` + name + `suffix`, then,
        /// when `repeatsName`, name + `finalSuffix` once more.
        public var spelling: (prefix: StaticString, suffix: StaticString, repeatsName: Bool, finalSuffix: StaticString)
        {
            switch self {
            case .addTo: ("addTo", "", false, "")
            case .removeFrom: ("removeFrom", "", false, "")
            case .insertInto: ("insertInto", "", false, "")
            case .replace: ("replace", "", false, "")
            case .addObjectSelector: ("add", "Object:", false, "")
            case .removeObjectSelector: ("remove", "Object:", false, "")
            case .addSetSelector: ("add", ":", false, "")
            case .removeSetSelector: ("remove", ":", false, "")
            case .insertObjectSelector: ("insertObject:in", "AtIndex:", false, "")
            case .removeObjectAtIndexSelector: ("removeObjectFrom", "AtIndex:", false, "")
            case .insertAtIndexesSelector: ("insert", ":atIndexes:", false, "")
            case .removeAtIndexesSelector: ("remove", "AtIndexes:", false, "")
            case .replaceObjectSelector: ("replaceObjectIn", "AtIndex:withObject:", false, "")
            case .replaceAtIndexesSelector: ("replace", "AtIndexes:with", true, ":")
            }
        }

        /// The accessor's name for a relationship whose name, capitalized, is `capitalizedName`.
        public func name(capitalizedName: String) -> String {
            let spelling = spelling
            var name = spelling.prefix.description + capitalizedName + spelling.suffix.description
            if spelling.repeatsName { name += capitalizedName + spelling.finalSuffix.description }
            return name
        }
    }
}

/// A string split into text and number runs, compared run by run (``ModelNaming/naturalOrder(_:_:)``).
private struct NaturalKey: Comparable {
    enum Run: Comparable {
        /// A run of digits: its value's digits (no leading zeros, any length) and the run as written.
        case number(Substring, String)
        case text(String)

        static func < (lhs: Run, rhs: Run) -> Bool {
            switch (lhs, rhs) {
            case let (.number(a, sa), .number(b, sb)):
                a.count != b.count ? a.count < b.count : a != b ? a < b : sa < sb
            case (.number, .text): true
            case (.text, .number): false
            case let (.text(a), .text(b)): a < b
            }
        }
    }

    var runs: [Run] = []

    init(_ string: String) {
        var current = ""
        var inDigits = false
        for character in string {
            let isDigit = character.isASCII && character.isNumber
            if !current.isEmpty, isDigit != inDigits {
                flush(current, digits: inDigits)
                current = ""
            }
            current.append(character)
            inDigits = isDigit
        }
        if !current.isEmpty { flush(current, digits: inDigits) }
    }

    private mutating func flush(_ run: String, digits: Bool) {
        runs.append(digits ? .number(run.drop { $0 == "0" }, run) : .text(run))
    }

    static func < (lhs: NaturalKey, rhs: NaturalKey) -> Bool { lhs.runs.lexicographicallyPrecedes(rhs.runs) }
}

/// Which (first byte, length) pairs occur in a set of words: a name whose pair does not occur is not one of
/// them, which a table lookup tells without hashing the name.
private struct WordShapes: Sendable {
    /// For each first byte, a bit per length below 64; longer words set bit 63.
    private var lengthsByFirstByte = [UInt64](repeating: 0, count: 256)

    init(_ words: Set<String>) {
        for word in words {
            guard let first = word.utf8.first else { continue }
            lengthsByFirstByte[Int(first)] |= Self.bit(forLength: word.utf8.count)
        }
    }

    /// Whether `name` could be one of the words; false means it certainly is not.
    func mightContain(_ name: String) -> Bool {
        guard let first = name.utf8.first else { return true }
        return lengthsByFirstByte[Int(first)] & Self.bit(forLength: name.utf8.count) != 0
    }

    private static func bit(forLength length: Int) -> UInt64 {
        1 << UInt64(min(length, 63))
    }
}
