// URL+DataModelProperties.swift — created from ReservedNames.xcdatamodeld by datamodelgen. This file is yours to edit.
import Foundation
import DataModelRuntime

extension URL {
    /// A request for every `URL` object.
    public static func fetchRequest() -> FetchRequest<URL> {
        FetchRequest<URL>(entityName: "URL")
    }

    public var absoluteString: String? {
        get { value(for: "absoluteString") }
        set { setValue(newValue, for: "absoluteString") }
    }

    public var link: Foundation.URL? {
        get { value(for: "link") }
        set { setValue(newValue, for: "link") }
    }

    public var visitedAt: Foundation.Date? {
        get { value(for: "visitedAt") }
        set { setValue(newValue, for: "visitedAt") }
    }

    public var date: Date? {
        get { toOne(for: "date") }
        set { setToOne(newValue, for: "date") }
    }
}
