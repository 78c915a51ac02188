// A stand-in for Apple's CoreData module, for type-checking the `coredata` flavor on Linux
// (Scripts/check-coredata-flavor.sh). It declares what generated code uses, with the signatures Apple documents;
// nothing here runs.
import Foundation

/// Types a fetch request can return.
public protocol NSFetchRequestResult: AnyObject {}

/// A managed object's identity.
open class NSManagedObjectID: NSObject, @unchecked Sendable {}

/// An entity of a managed object model.
open class NSEntityDescription: NSObject {
    open var name: String?
    open var managedObjectModel: NSManagedObjectModel { NSManagedObjectModel() }
    open class func entity(forEntityName entityName: String, in context: NSManagedObjectContext)
        -> NSEntityDescription?
    { nil }
}

/// A model of entities, with its fetch request templates.
///
/// Apple's methods return `NSFetchRequest<NSFetchRequestResult>`, which needs the `@objc` protocol's
/// self-conformance (Linux has no Objective-C runtime); here a concrete result type stands in.
open class NSManagedObjectModel: NSObject {
    open func fetchRequestTemplate(forName name: String) -> NSFetchRequest<NSManagedObject>? { nil }
    open func fetchRequestFromTemplate(withName name: String, substitutionVariables variables: [String: Any])
        -> NSFetchRequest<NSManagedObject>?
    { nil }
}

/// A scratch pad of managed objects.
open class NSManagedObjectContext: NSObject {}

/// A description of search criteria used to retrieve data from a persistent store.
open class NSFetchRequest<ResultType: NSFetchRequestResult>: NSObject {
    open var entityName: String?
    open var predicate: NSPredicate?
    open var sortDescriptors: [NSSortDescriptor]?
    open var fetchLimit: Int = 0

    public override init() {}

    public convenience init(entityName: String) {
        self.init()
        self.entityName = entityName
    }
}

/// The base class of every managed object.
open class NSManagedObject: NSObject, NSFetchRequestResult {
    open var managedObjectContext: NSManagedObjectContext? { nil }
    open var objectID: NSManagedObjectID { NSManagedObjectID() }
    open var entity: NSEntityDescription { NSEntityDescription() }

    public override init() {}
    public init(entity: NSEntityDescription, insertInto context: NSManagedObjectContext?) {}
    public convenience init(context: NSManagedObjectContext) { self.init() }

    open class func entity() -> NSEntityDescription { NSEntityDescription() }
    open func willAccessValue(forKey key: String?) {}
    open func didAccessValue(forKey key: String?) {}
    open func willChangeValue(forKey key: String) {}
    open func didChangeValue(forKey key: String) {}
    open func primitiveValue(forKey key: String) -> Any? { nil }
    open func value(forKey key: String) -> Any? { nil }
    open func setPrimitiveValue(_ value: Any?, forKey key: String) {}
}

extension NSDictionary: NSFetchRequestResult {}
extension NSNumber: NSFetchRequestResult {}
