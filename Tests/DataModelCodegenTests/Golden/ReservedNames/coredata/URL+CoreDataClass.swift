//
//  URL+CoreDataClass.swift
//  
//
//  Created from ReservedNames.xcdatamodeld by datamodelgen. This file is yours to edit.
//

import Foundation
import CoreData

@objc(URL)
public class URL: NSManagedObject {

}
