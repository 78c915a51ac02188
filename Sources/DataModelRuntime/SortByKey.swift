import DataModelStoreLayout
import Foundation
import Synchronization

// Sorting by a string key, as Core Data's `NSSortDescriptor(key:ascending:)`.

extension SortDescriptor where Compared: FetchRequestResult {
    /// Sorts by the attribute named `key` (model spelling), or by an attribute reached through to-one relationships
    /// (`"department.name"`), as Core Data's `NSSortDescriptor(key:ascending:)`.
    ///
    /// ```swift
    /// let request = EmployeeEntity.fetchRequest().sorted(by: [
    ///     SortDescriptor(key: "department.name", ascending: true),
    ///     SortDescriptor(\.name),
    /// ])
    /// ```
    ///
    /// It is Foundation's `SortDescriptor`, so it goes in ``FetchRequest/sortDescriptors`` beside key-path ones, for
    /// generated classes and for entities of the generic ``ManagedObject`` class alike. It orders as a key-path sort
    /// of the same attribute does: SQLite sorts (strings in Swift's `<` order, numbers by value, no value first when
    /// ascending), and the same order applies in memory when unsaved changes are merged into the results. A key
    /// that names no attribute, or goes through a to-many relationship, makes the fetch throw
    /// ``StoreError/unknownProperty(entity:property:)``.
    public init(key: String, ascending: Bool = true) {
        let keyPath = \Compared.[sortValueForKey: key]
        SortKeys.remember(keyPath, key: key)
        self.init(keyPath, order: ascending ? .forward : .reverse)
    }

    /// The key of a descriptor made with ``init(key:ascending:)``, or `nil` for a key-path one.
    public var key: String? {
        keyPath.flatMap(SortKeys.key(of:))
    }
}

/// The keys of the key paths ``SortDescriptor/init(key:ascending:)`` made (a key path hides its subscript's
/// argument): one entry per distinct key and class.
enum SortKeys {
    /// A key path as a dictionary key. Key paths are immutable values: sharing one between tasks is safe (the
    /// standard library's `AnyKeyPath` is not declared `Sendable`).
    private struct Key: Hashable, @unchecked Sendable {
        let keyPath: AnyKeyPath
    }

    private static let keys = Mutex<[Key: String]>([:])

    static func remember(_ keyPath: AnyKeyPath, key: String) {
        let entry = Key(keyPath: keyPath)
        keys.withLock { if $0[entry] == nil { $0[entry] = key } }
    }

    static func key(of keyPath: AnyKeyPath) -> String? {
        let entry = Key(keyPath: keyPath)
        return keys.withLock { $0[entry] }
    }
}

/// A value as a sort by key compares it: the order SQLite's `ORDER BY` gives the stored values, which is the order
/// key-path sorts give the Swift values. No value comes first, then numbers (by value, integers and reals
/// together), then strings (Swift's `<`: canonical equivalence, as the runtime's SQL sorts strings), then data
/// (bytes).
public enum SortValue: Comparable, Sendable {
    /// No value (nil, or no object on the way).
    case none
    /// A number: integers, reals, dates (seconds since 2001), booleans.
    case number(Double, exact: Int64?)
    /// A decimal number.
    case decimal(Decimal)
    /// A string.
    case string(String)
    /// Bytes.
    case data(Data)

    private var rank: Int {
        switch self {
        case .none: 0
        case .number, .decimal: 1
        case .string: 2
        case .data: 3
        }
    }

    public static func < (lhs: SortValue, rhs: SortValue) -> Bool {
        switch (lhs, rhs) {
        case (.number(_, let a?), .number(_, let b?)): return a < b
        case (.number(let a, _), .number(let b, _)): return a < b
        case (.decimal(let a), .decimal(let b)): return a < b
        case (.decimal(let a), .number(let b, _)): return a < Decimal(b)
        case (.number(let a, _), .decimal(let b)): return Decimal(a) < b
        case (.string(let a), .string(let b)): return a < b
        case (.data(let a), .data(let b)): return a.lexicographicallyPrecedes(b)
        default: return lhs.rank < rhs.rank
        }
    }

    public static func == (lhs: SortValue, rhs: SortValue) -> Bool {
        !(lhs < rhs) && !(rhs < lhs)
    }

    /// The sort value of a stored attribute value of `type`.
    init(_ stored: PrimitiveValue, type: AttributeType) {
        switch stored {
        case .null: self = .none
        case .integer(let integer): self = .number(Double(integer), exact: integer)
        case .real(let real): self = .number(real, exact: nil)
        case .text(let text):
            if type == .decimal, let decimal = Decimal(primitiveValue: stored) {
                self = .decimal(decimal)
            } else {
                self = .string(text)
            }
        case .blob(let data):
            if type == .decimal, let decimal = Decimal(primitiveValue: stored) {
                self = .decimal(decimal)
            } else {
                self = .data(data)
            }
        }
    }
}

extension FetchRequestResult {
    /// The value ``SortDescriptor/init(key:ascending:)`` sorts by: the attribute at `key`, following to-one
    /// relationships on the way (`"department.name"`); ``SortValue/none`` when an object on the way is missing or
    /// the key names no attribute.
    public subscript(sortValueForKey key: String) -> SortValue {
        // Every `FetchRequestResult` is a `ManagedObject` (the protocol keeps the initializer's generic parameter
        // from defaulting to the base class in chained calls).
        guard var object = self as? ManagedObject else { return .none }
        let components = key.split(separator: ".", omittingEmptySubsequences: false)
        for (offset, component) in components.enumerated() {
            let name = String(component)
            if offset == components.count - 1 {
                guard let index = object.entityRuntime.attributeIndex(name) else { return .none }
                return SortValue(object.primitiveValue(for: name), type: object.entityRuntime.attributes[index].type)
            }
            guard let relationship = object.relationship(name), !relationship.isToMany,
                let next = object.toOne(for: name) as ManagedObject?
            else { return .none }
            object = next
        }
        return .none
    }
}

extension ManagedObjectContext {
    /// The `ORDER BY` term of a sort by `key` from the rows of `entity` (`t0`): the attribute's column, through a
    /// subquery per to-one relationship on the way; `nil` when SQL cannot sort by it (a transient attribute).
    ///
    /// - Throws: ``StoreError/unknownProperty(entity:property:)`` for a key naming no attribute, or going through
    ///   a to-many relationship or an attribute.
    func sortTerm(
        forKey key: String, ascending: Bool, in entity: EntityRuntime, strings: SwiftStringFunctions.Ordering = .key
    ) throws(StoreError) -> String? {
        let components = key.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        var current = entity
        var source = "t0"
        var joins: [(table: String, alias: String, condition: String)] = []
        var sortable = true
        for (offset, name) in components.enumerated() {
            if offset == components.count - 1 {
                guard let index = current.attributeIndex(name) else {
                    throw .unknownProperty(entity: entity.name, property: key)
                }
                guard sortable, let column = current.attributeColumns[index] else { return nil }
                var expression = source + "." + SQLQuoting.identifier(column)
                let isString = current.attributes[index].type == .string
                let direction =
                    database.isPostgres
                    ? PostgresSQL.orderTerm("", isString: isString, ascending: ascending)
                    : ascending ? " ASC" : " DESC"
                if isString && database.isPostgres { expression = PostgresSQL.normalized(expression) }
                if !joins.isEmpty {
                    // One correlated subquery: the destination's value, `NULL` when an object on the way is missing.
                    let first = joins[0]
                    let rest = joins.dropFirst()
                    let from =
                        SQLQuoting.identifier(first.table) + " AS " + first.alias
                        + rest.map {
                            " LEFT JOIN " + SQLQuoting.identifier($0.table) + " AS " + $0.alias + " ON "
                                + $0.condition
                        }
                        .joined()
                    expression = "(SELECT " + expression + " FROM " + from + " WHERE " + first.condition + ")"
                }
                // Strings sort as Swift's `<` sorts them, as key-path sorts do. Around the subquery: SQLite sorts a
                // subquery's value by its own collation, not by one inside it.
                if isString && !database.isPostgres { expression = strings.term(expression) }
                return expression + direction
            }
            guard let index = current.relationshipIndex[name], !current.relationships[index].isToMany else {
                throw .unknownProperty(entity: entity.name, property: key)
            }
            let relationship = current.relationships[index]
            guard case .foreignKey(let columns)? = relationship.storage else {
                // A transient to-one has no column: sorted in memory.
                sortable = false
                current = relationship.destination
                continue
            }
            let alias = "s\(joins.count + 1)"
            joins.append(
                (
                    relationship.destination.tableName, alias,
                    alias + #"."Z_PK" = "# + source + "." + SQLQuoting.identifier(columns.column)
                ))
            source = alias
            current = relationship.destination
        }
        throw .unknownProperty(entity: entity.name, property: key)
    }
}
