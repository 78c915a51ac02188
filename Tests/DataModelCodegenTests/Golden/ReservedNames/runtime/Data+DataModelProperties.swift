// Data+DataModelProperties.swift — generated from ReservedNames.xcdatamodeld by datamodelgen. Do not edit.
import Foundation
import DataModelRuntime

extension Data {
    /// A request for every `Data` object.
    public static func fetchRequest() -> FetchRequest<Data> {
        FetchRequest<Data>(entityName: "Data")
    }

    public var archive: Foundation.Data? {
        get { value(for: "archive") }
        set { setValue(newValue, for: "archive") }
    }

    public var bytes: Foundation.Data? {
        get { value(for: "bytes") }
        set { setValue(newValue, for: "bytes") }
    }

    public var checksum: Int64 {
        get { value(for: "checksum") }
        set { setValue(newValue, for: "checksum") }
    }

    public var remoteID: String? {
        get { value(for: "remoteID") }
        set { setValue(newValue, for: "remoteID") }
    }

    public var transformed: Foundation.Data? {
        get { value(for: "transformed") }
        set { setValue(newValue, for: "transformed") }
    }

    public var values: Foundation.Data? {
        get { value(for: "values") }
        set { setValue(newValue, for: "values") }
    }

    public var sets: Swift.Set<Set> {
        get { toManySet(for: "sets") }
        set { setToManySet(newValue, for: "sets") }
    }
}

// MARK: Generated accessors for sets
extension Data {
    public func addToSets(_ value: Set) {
        addObject(value, to: "sets")
    }

    public func removeFromSets(_ value: Set) {
        removeObject(value, from: "sets")
    }

    public func addToSets(_ values: some Sequence<Set>) {
        addObjects(values, to: "sets")
    }

    public func removeFromSets(_ values: some Sequence<Set>) {
        removeObjects(values, from: "sets")
    }
}
