// Date+DataModelProperties.swift — generated from ReservedNames.xcdatamodeld by datamodelgen. Do not edit.
import Foundation
import DataModelRuntime

extension Date {
    /// A request for every `Date` object.
    public static func fetchRequest() -> FetchRequest<Date> {
        FetchRequest<Date>(entityName: "Date")
    }

    public var note: String? {
        get { value(for: "note") }
        set { setValue(newValue, for: "note") }
    }

    public var secret: String? {
        get { value(for: "secret") }
        set { setValue(newValue, for: "secret") }
    }

    public var timestamp: Foundation.Date {
        get { value(for: "timestamp") }
        set { setValue(newValue, for: "timestamp") }
    }

    public var value_: Foundation.Date? {
        get { value(for: "value") }
        set { setValue(newValue, for: "value") }
    }

    public var urls: Swift.Set<URL> {
        get { toManySet(for: "urls") }
        set { setToManySet(newValue, for: "urls") }
    }
}

// MARK: Generated accessors for urls
extension Date {
    public func addToUrls(_ value: URL) {
        addObject(value, to: "urls")
    }

    public func removeFromUrls(_ value: URL) {
        removeObject(value, from: "urls")
    }

    public func addToUrls(_ values: some Sequence<URL>) {
        addObjects(values, to: "urls")
    }

    public func removeFromUrls(_ values: some Sequence<URL>) {
        removeObjects(values, from: "urls")
    }
}
