// Class+DataModelProperties.swift — generated from ReservedNames.xcdatamodeld by datamodelgen. Do not edit.
import Foundation
import DataModelRuntime

extension Class {
    /// A request for every `Class` object.
    public static func fetchRequest() -> FetchRequest<Class> {
        FetchRequest<Class>(entityName: "Class")
    }

    public var `default`: String {
        get { readsFields(attribute: 0) ? fieldValue(_defaultField) ?? .emptyValue : value(for: "default") }
        set { setValue(newValue, for: "default") }
    }

    public var `extension`: String? {
        get { readsFields(attribute: 1) ? fieldValue(_extensionField) : value(for: "extension") }
        set { setValue(newValue, for: "extension") }
    }

    public var `func`: Int32? {
        get { readsFields(attribute: 2) ? fieldValue(_funcField, nullBit: 0) : value(for: "func") }
        set { setValue(newValue, for: "func") }
    }

    public var `import`: Bool {
        get { readsFields(attribute: 3) ? fieldValue(_importField, nullBit: 1) ?? .emptyValue : value(for: "import") }
        set { setValue(newValue, for: "import") }
    }

    public var `protocol`: String? {
        get { readsFields(attribute: 4) ? fieldValue(_protocolField) : value(for: "protocol") }
        set { setValue(newValue, for: "protocol") }
    }

    public var `return`: Double? {
        get { readsFields(attribute: 5) ? fieldValue(_returnField, nullBit: 2) : value(for: "return") }
        set { setValue(newValue, for: "return") }
    }

    public var assets: Swift.Set<Asset> {
        get { toManySet(for: "assets") }
        set { setToManySet(newValue, for: "assets") }
    }

    public var type: `Type`? {
        get {
            readsFields(relationship: 1)
                ? fieldObject(relationship: 1, _typeField, nullBit: 3) : toOne(for: "type")
        }
        set { setToOne(newValue, for: "type") }
    }

    /// The fetched property `untitledAssets`: the `Asset` objects matching `title == nil`.
    /// Fetched on first access, kept until the object is refreshed (`refresh(_:mergeChanges:)`).
    public var untitledAssets: [Asset] {
        fetchedObjects(for: "untitledAssets")
    }
}

// MARK: Generated accessors for assets
extension Class {
    public func addToAssets(_ value: Asset) {
        addObject(value, to: "assets")
    }

    public func removeFromAssets(_ value: Asset) {
        removeObject(value, from: "assets")
    }

    public func addToAssets(_ values: some Sequence<Asset>) {
        addObjects(values, to: "assets")
    }

    public func removeFromAssets(_ values: some Sequence<Asset>) {
        removeObjects(values, from: "assets")
    }
}
