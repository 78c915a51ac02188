// Self+DataModelProperties.swift — generated from ReservedNames.xcdatamodeld by datamodelgen. Do not edit.
import Foundation
import DataModelRuntime

extension `Self` {
    /// A request for every `Self` object.
    public static func fetchRequest() -> FetchRequest<`Self`> {
        FetchRequest<`Self`>(entityName: "Self")
    }

    /// Derived: computed when the context saves (read-only).
    public var childCount: Int64? {
        readsFields(attribute: 0) ? fieldValue(_childCountField, nullBit: 0) : value(for: "childCount")
    }

    public var context_: String? {
        get { readsFields(attribute: 1) ? fieldValue(_contextField) : value(for: "context") }
        set { setValue(newValue, for: "context") }
    }

    public var deleted: Bool {
        get { readsFields(attribute: 2) ? fieldValue(_deletedField, nullBit: 1) ?? .emptyValue : value(for: "deleted") }
        set { setValue(newValue, for: "deleted") }
    }

    public var entityName: String? {
        get { readsFields(attribute: 3) ? fieldValue(_entityNameField) : value(for: "entityName") }
        set { setValue(newValue, for: "entityName") }
    }

    public var identifier: UUID? {
        get { readsFields(attribute: 4) ? fieldValue(_identifierField) : value(for: "identifier") }
        set { setValue(newValue, for: "identifier") }
    }

    public var isPinned: Bool? {
        get { value(for: "isPinned") }
        set { setValue(newValue, for: "isPinned") }
    }

    public var children: Swift.Set<`Self`> {
        get { toManySet(for: "children") }
        set { setToManySet(newValue, for: "children") }
    }

    public var followers: Swift.Set<`Self`> {
        get { toManySet(for: "followers") }
        set { setToManySet(newValue, for: "followers") }
    }

    public var following: Swift.Set<`Self`> {
        get { toManySet(for: "following") }
        set { setToManySet(newValue, for: "following") }
    }

    public var parent: `Self`? {
        get {
            readsFields(relationship: 3)
                ? fieldObject(relationship: 3, _parentField, nullBit: 2) : toOne(for: "parent")
        }
        set { setToOne(newValue, for: "parent") }
    }

    public var twin: `Self`? {
        get {
            readsFields(relationship: 4)
                ? fieldObject(relationship: 4, _twinField, nullBit: 3) : toOne(for: "twin")
        }
        set { setToOne(newValue, for: "twin") }
    }

    /// The fetched property `namesakes`: the `Self` objects matching `entityName == $FETCH_SOURCE.entityName`.
    /// Fetched on first access, kept until the object is refreshed (`refresh(_:mergeChanges:)`).
    public var namesakes: [`Self`] {
        fetchedObjects(for: "namesakes")
    }
}

// MARK: Generated accessors for children
extension `Self` {
    public func addToChildren(_ value: `Self`) {
        addObject(value, to: "children")
    }

    public func removeFromChildren(_ value: `Self`) {
        removeObject(value, from: "children")
    }

    public func addToChildren(_ values: some Sequence<`Self`>) {
        addObjects(values, to: "children")
    }

    public func removeFromChildren(_ values: some Sequence<`Self`>) {
        removeObjects(values, from: "children")
    }
}

// MARK: Generated accessors for followers
extension `Self` {
    public func addToFollowers(_ value: `Self`) {
        addObject(value, to: "followers")
    }

    public func removeFromFollowers(_ value: `Self`) {
        removeObject(value, from: "followers")
    }

    public func addToFollowers(_ values: some Sequence<`Self`>) {
        addObjects(values, to: "followers")
    }

    public func removeFromFollowers(_ values: some Sequence<`Self`>) {
        removeObjects(values, from: "followers")
    }
}

// MARK: Generated accessors for following
extension `Self` {
    public func addToFollowing(_ value: `Self`) {
        addObject(value, to: "following")
    }

    public func removeFromFollowing(_ value: `Self`) {
        removeObject(value, from: "following")
    }

    public func addToFollowing(_ values: some Sequence<`Self`>) {
        addObjects(values, to: "following")
    }

    public func removeFromFollowing(_ values: some Sequence<`Self`>) {
        removeObjects(values, from: "following")
    }
}
