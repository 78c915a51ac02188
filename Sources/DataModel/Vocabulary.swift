import DataModelStoreLayout

/// The attribute type: `DataModelStoreLayout` owns the one enum the generator and the runtime share.
public typealias AttributeType = DataModelStoreLayout.AttributeType

/// The delete rule: `DataModelStoreLayout` owns the one enum the generator and the runtime share.
public typealias DeleteRule = DataModelStoreLayout.DeleteRule
