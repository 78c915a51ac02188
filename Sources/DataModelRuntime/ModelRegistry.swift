import Synchronization

#if os(Linux)
    import SwiftShims
#endif

/// A generated model that ``ManagedObjectModel/named(_:)`` (and so ``PersistentContainer/init(name:)``) can find.
///
/// Generated code declares one inside each `<Model>Model` enum, named `DataModelGenRegistration`:
///
/// ```swift
/// public enum CompanyModel {
///     public static let model = ManagedObjectModel(name: "Company", entities: [ … ])
///     public enum DataModelGenRegistration: GeneratedModelRegistration {
///         public static var model: ManagedObjectModel { CompanyModel.model }
///     }
/// }
/// ```
///
/// Nothing calls it: on Linux the runtime finds every such type linked into the process by reading the Swift type
/// metadata records each Swift binary carries (the records the Swift runtime itself uses for casts, and that
/// test discovery reads), so it works the same in an executable, a test bundle and a shared library, in debug and
/// release builds, stripped or not. Elsewhere, or for a model built by hand, call ``ManagedObjectModel/register(_:)``.
public protocol GeneratedModelRegistration {
    /// The model (the current version, with its earlier versions).
    static var model: ManagedObjectModel { get }
}

extension ManagedObjectModel {
    /// The model called `name` among the models generated code linked into the process and those passed to
    /// ``register(_:)`` (a registered model wins over a generated one of the same name).
    ///
    /// ```swift
    /// let model = try ManagedObjectModel.named("Company")
    /// ```
    ///
    /// - Throws: ``StoreError/unknownModel(_:known:)`` naming the models there are, or
    ///   ``StoreError/ambiguousModel(_:count:)`` when two different generated models have the name (two modules
    ///   each generated from a model of that name: pass the one meant with
    ///   ``PersistentContainer/init(name:managedObjectModel:)``).
    public static func named(_ name: String) throws(StoreError) -> ManagedObjectModel {
        let registered = ModelRegistry.registered.withLock { $0 }
        if let model = registered[name] { return model }
        let found = ModelRegistry.generated.filter { $0.name == name }
        if let first = found.first {
            // The same model linked twice (two copies of the generated code) is still one model.
            let distinct = Set(found.map(\.registrationIdentity))
            guard distinct.count == 1 else { throw .ambiguousModel(name, count: distinct.count) }
            return first
        }
        throw .unknownModel(name, known: knownModelNames)
    }

    /// The names of the models ``named(_:)`` finds, sorted.
    public static var knownModelNames: [String] {
        let registered = ModelRegistry.registered.withLock { Array($0.keys) }
        return Set(registered + ModelRegistry.generated.map(\.name)).sorted()
    }

    /// Makes `model` findable by its name (``named(_:)``, ``PersistentContainer/init(name:)``): for models built by
    /// hand, and on platforms where generated models are not found by themselves. A later registration of the
    /// same name replaces an earlier one.
    public static func register(_ model: ManagedObjectModel) {
        ModelRegistry.registered.withLock { $0[model.name] = model }
    }

    /// What tells two generated models of one name apart: their version and entities' names and classes.
    fileprivate var registrationIdentity: String {
        ([versionName ?? ""] + entities.map { "\($0.name):\(String(reflecting: $0.objectType))" }).joined(
            separator: ",")
    }
}

/// The models ``ManagedObjectModel/named(_:)`` looks in.
enum ModelRegistry {
    /// Models passed to ``ManagedObjectModel/register(_:)``, by name.
    static let registered = Mutex<[String: ManagedObjectModel]>([:])

    /// Every generated model linked into the process, found once (on first use).
    static let generated: [ManagedObjectModel] = registrationTypes().map { $0.model }

    /// The `DataModelGenRegistration` types of every Swift image loaded.
    static func registrationTypes() -> [any GeneratedModelRegistration.Type] {
        #if os(Linux)
            var found = TypeScan()
            withUnsafeMutablePointer(to: &found) { pointer in
                swift_enumerateAllMetadataSections(
                    { sections, context in
                        guard let context else { return true }
                        let scan = context.assumingMemoryBound(to: TypeScan.self)
                        let range = sections.pointee.swift5_type_metadata
                        scan.pointee.visit(start: range.start, length: range.length)
                        return true
                    }, pointer)
            }
            return found.types
        #else
            return []
        #endif
    }
}

#if os(Linux)
    /// Enumerates the metadata sections of every Swift image loaded (the Swift runtime's; Linux and Windows).
    @_silgen_name("swift_enumerateAllMetadataSections")
    private func swift_enumerateAllMetadataSections(
        _ body: @convention(c) (UnsafePointer<MetadataSections>, UnsafeMutableRawPointer?) -> Bool,
        _ context: UnsafeMutableRawPointer?)

    /// Reads an image's type metadata records (`swift5_type_metadata`: 32-bit offsets, each to a type's context
    /// descriptor) and keeps the types named `DataModelGenRegistration` that conform to
    /// ``GeneratedModelRegistration``. The layouts are the Swift ABI's (`TypeMetadataRecord`,
    /// `TargetTypeContextDescriptor`): flags, parent, name and access function, each 32 bits.
    private struct TypeScan {
        var types: [any GeneratedModelRegistration.Type] = []
        static let name = Array("DataModelGenRegistration".utf8)

        mutating func visit(start: UInt, length: Int) {
            guard let base = UnsafeRawPointer(bitPattern: start), length >= 4 else { return }
            for offset in stride(from: 0, to: length - 3, by: 4) {
                let record = base + offset
                let relative = record.loadUnaligned(as: Int32.self)
                let target = record + Int(relative & ~3)
                let descriptor: UnsafeRawPointer
                switch relative & 3 {
                case 0: descriptor = target
                case 1:
                    guard let indirect = target.loadUnaligned(as: UnsafeRawPointer?.self) else { continue }
                    descriptor = indirect
                default: continue  // Objective-C class references: none on Linux.
                }
                let flags = descriptor.loadUnaligned(as: UInt32.self)
                // Kinds 16...18 are class, struct and enum; bit 7 marks a generic type.
                guard (16...18).contains(flags & 0x1F), flags & 0x80 == 0, Self.hasName(descriptor) else { continue }
                let accessorField = descriptor + 12
                let accessorOffset = accessorField.loadUnaligned(as: Int32.self)
                guard accessorOffset != 0 else { continue }
                // A non-generic type's metadata access function takes the request (0: complete metadata) and
                // returns the metadata first, where a C function returns its result.
                typealias Accessor = @convention(c) (Int) -> UnsafeRawPointer?
                // safe: the field is the type's metadata access function, of this shape for a non-generic type.
                let accessor = unsafeBitCast(accessorField + Int(accessorOffset), to: Accessor.self)
                guard let metadata = accessor(0) else { continue }
                // safe: the access function returned the type's metadata.
                let type = unsafeBitCast(metadata, to: Any.Type.self)
                if let registration = type as? any GeneratedModelRegistration.Type { types.append(registration) }
            }
        }

        /// Whether the descriptor's name is `DataModelGenRegistration`.
        private static func hasName(_ descriptor: UnsafeRawPointer) -> Bool {
            let field = descriptor + 8
            let offset = field.loadUnaligned(as: Int32.self)
            guard offset != 0 else { return false }
            let name = (field + Int(offset)).assumingMemoryBound(to: UInt8.self)
            for (index, byte) in Self.name.enumerated() where name[index] != byte { return false }
            return name[Self.name.count] == 0
        }
    }
#endif
