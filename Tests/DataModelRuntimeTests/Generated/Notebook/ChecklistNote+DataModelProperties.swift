// ChecklistNote+DataModelProperties.swift — generated from Notebook.xcdatamodeld by datamodelgen. Do not edit.
import Foundation
import DataModelRuntime

extension ChecklistNote {

    public var itemCount: Int16? {
        get { value(for: "itemCount") }
        set { setValue(newValue, for: "itemCount") }
    }
}
