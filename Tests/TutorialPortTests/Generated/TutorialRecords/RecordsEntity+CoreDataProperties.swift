// RecordsEntity+CoreDataProperties.swift — generated from TutorialRecords.xcdatamodeld by datamodelgen. Do not edit.
import Foundation
import DataModelRuntime

extension RecordsEntity {
    /// A request for every `RecordsEntity` object.
    public static func fetchRequest() -> FetchRequest<RecordsEntity> {
        FetchRequest<RecordsEntity>(entityName: "RecordsEntity")
    }

    public var title: String? {
        get { value(for: "title") }
        set { setValue(newValue, for: "title") }
    }

    public var records: NSOrderedSet? {
        get { toManyNSOrderedSet(for: "records") }
        set { setToManyNSOrderedSet(newValue, for: "records") }
    }
}

// MARK: Generated accessors for records
extension RecordsEntity {
    public func insertIntoRecords(_ value: RecordEntity, at index: Int) {
        insertObject(value, at: index, into: "records")
    }

    public func removeFromRecords(at index: Int) {
        removeObject(at: index, from: "records")
    }

    public func insertIntoRecords(_ values: [RecordEntity], at indexes: IndexSet) {
        insertObjects(values, at: indexes, into: "records")
    }

    public func removeFromRecords(at indexes: IndexSet) {
        removeObjects(at: indexes, from: "records")
    }

    public func replaceRecords(at index: Int, with value: RecordEntity) {
        replaceObject(at: index, with: value, in: "records")
    }

    public func replaceRecords(at indexes: IndexSet, with values: [RecordEntity]) {
        replaceObjects(at: indexes, with: values, in: "records")
    }

    public func addToRecords(_ value: RecordEntity) {
        addObject(value, to: "records")
    }

    public func removeFromRecords(_ value: RecordEntity) {
        removeObject(value, from: "records")
    }

    public func addToRecords(_ values: some Sequence<RecordEntity>) {
        addObjects(values, to: "records")
    }

    public func removeFromRecords(_ values: some Sequence<RecordEntity>) {
        removeObjects(values, from: "records")
    }
}
