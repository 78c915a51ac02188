//
//  Date+CoreDataProperties.swift
//  
//
//  This file was automatically generated and should not be edited.
//

import Foundation
import CoreData


extension Date {

    @nonobjc public class func fetchRequest() -> NSFetchRequest<Date> {
        return NSFetchRequest<Date>(entityName: "Date")
    }

    @NSManaged public var note: String?
    @NSManaged public var secret: String?
    @NSManaged public var timestamp: Foundation.Date?
    @NSManaged public var value: Foundation.Date?
    @NSManaged public var urls: NSSet?

}

// MARK: Generated accessors for urls
extension Date {

    @objc(addUrlsObject:)
    @NSManaged public func addToUrls(_ value: URL)

    @objc(removeUrlsObject:)
    @NSManaged public func removeFromUrls(_ value: URL)

    @objc(addUrls:)
    @NSManaged public func addToUrls(_ values: NSSet)

    @objc(removeUrls:)
    @NSManaged public func removeFromUrls(_ values: NSSet)

}

extension Date : Identifiable {

}
