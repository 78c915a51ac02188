// Photo+DataModelProperties.swift — generated from ReservedNames.xcdatamodeld by datamodelgen. Do not edit.
import Foundation
import DataModelRuntime

extension Photo {

    public var height: Float {
        get { value(for: "height") }
        set { setValue(newValue, for: "height") }
    }

    public var location: Foundation.Data? {
        get { value(for: "location") }
        set { setValue(newValue, for: "location") }
    }

    public var width: Float {
        get { value(for: "width") }
        set { setValue(newValue, for: "width") }
    }

    public var document: Document? {
        get { toOne(for: "document") }
        set { setToOne(newValue, for: "document") }
    }
}
