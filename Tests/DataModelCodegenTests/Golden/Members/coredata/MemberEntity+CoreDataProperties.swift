//
//  MemberEntity+CoreDataProperties.swift
//  
//
//  This file was automatically generated and should not be edited.
//

import Foundation
import CoreData


extension MemberEntity {

    @nonobjc public class func fetchRequest() -> NSFetchRequest<MemberEntity> {
        return NSFetchRequest<MemberEntity>(entityName: "MemberEntity")
    }

    @NSManaged public var age: Int16
    @NSManaged public var name: String?
    @NSManaged public var rating: Int32
    @NSManaged public var score: Double

}

extension MemberEntity : Identifiable {

}
