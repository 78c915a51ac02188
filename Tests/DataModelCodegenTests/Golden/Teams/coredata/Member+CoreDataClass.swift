//
//  Member+CoreDataClass.swift
//  
//
//  This file was automatically generated and should not be edited.
//

import Foundation
import CoreData

@objc(Member)
public class Member: NSManagedObject {

}
