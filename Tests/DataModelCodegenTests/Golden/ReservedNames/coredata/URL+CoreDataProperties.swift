//
//  URL+CoreDataProperties.swift
//  
//
//  Created from ReservedNames.xcdatamodeld by datamodelgen. This file is yours to edit.
//

import Foundation
import CoreData


extension URL {

    @nonobjc public class func fetchRequest() -> NSFetchRequest<URL> {
        return NSFetchRequest<URL>(entityName: "URL")
    }

    @NSManaged public var absoluteString: String?
    @NSManaged public var link: Foundation.URL?
    @NSManaged public var visitedAt: Foundation.Date?
    @NSManaged public var date: Date?

}

extension URL : Identifiable {

}
