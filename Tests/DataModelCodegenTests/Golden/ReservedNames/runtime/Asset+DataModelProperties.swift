// Asset+DataModelProperties.swift — generated from ReservedNames.xcdatamodeld by datamodelgen. Do not edit.
import Foundation
import DataModelRuntime

extension Asset {

    public var createdAt: Foundation.Date {
        get { value(for: "createdAt") }
        set { setValue(newValue, for: "createdAt") }
    }

    public var title: String? {
        get { value(for: "title") }
        set { setValue(newValue, for: "title") }
    }

    public var owner: Class? {
        get { toOne(for: "owner") }
        set { setToOne(newValue, for: "owner") }
    }
}
