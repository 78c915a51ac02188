import Foundation
import GeneratedCompanyModel
import Testing

@testable import DataModelRuntime

/// The typed reads the generated properties make (`value(for:)` → `StorableValue.storedValue(of:for:)`, reading the
/// attribute in place) give exactly what the general path gives: `T(primitiveValue: primitiveValue(for: key))`.
@Suite("Typed attribute reads in place")
struct StoredValueReadTests {
    private static let stored: [PrimitiveValue] = [
        .null, .integer(0), .integer(42), .integer(-7), .integer(100_000), .integer(.max), .integer(.min),
        .real(3.9), .real(-2.5), .real(.infinity), .real(.nan), .real(1e300), .text(""), .text("17"),
        .text("3.75"), .text("a name that is longer than fifteen bytes"), .text("é"), .blob(Data("12".utf8)),
        .blob(Data()),
    ]

    private static func general<T: StorableValue>(_ object: ManagedObject, _ key: String, as type: T.Type) -> T? {
        T(primitiveValue: object.primitiveValue(for: key))
    }

    private static func same<T: StorableValue & Equatable>(_ object: ManagedObject, _ key: String, as type: T.Type)
        -> Bool
    {
        let inPlace: T? = object.value(for: key)
        let expected = general(object, key, as: T.self)
        // NaN reads as NaN both ways.
        if let inPlace = inPlace as? Double, let expected = expected as? Double, inPlace.isNaN, expected.isNaN {
            return true
        }
        if let inPlace = inPlace as? Float, let expected = expected as? Float, inPlace.isNaN, expected.isNaN {
            return true
        }
        if let inPlace = inPlace as? Date, let expected = expected as? Date,
            inPlace.timeIntervalSinceReferenceDate.isNaN, expected.timeIntervalSinceReferenceDate.isNaN
        {
            return true
        }
        return inPlace == expected
    }

    @Test("every stored kind reads as every standard type the same way both paths", arguments: ["age", "name"])
    func agreesWithGeneralPath(key: String) throws {
        let container = try PersistentContainer(model: CompanyModel.model, store: .inMemory)
        let context = container.newBackgroundContext()
        let employee = EmployeeEntity(context: context)
        for value in Self.stored {
            employee.setPrimitiveValue(value, for: key)
            let description = "\(value) in \(key)"
            #expect(Self.same(employee, key, as: String.self), "\(description)")
            #expect(Self.same(employee, key, as: Int16.self), "\(description)")
            #expect(Self.same(employee, key, as: Int32.self), "\(description)")
            #expect(Self.same(employee, key, as: Int64.self), "\(description)")
            #expect(Self.same(employee, key, as: Int.self), "\(description)")
            #expect(Self.same(employee, key, as: Bool.self), "\(description)")
            #expect(Self.same(employee, key, as: Double.self), "\(description)")
            #expect(Self.same(employee, key, as: Float.self), "\(description)")
            #expect(Self.same(employee, key, as: Date.self), "\(description)")
            #expect(Self.same(employee, key, as: Data.self), "\(description)")
        }
        // Spot checks of the conversions themselves.
        employee.setPrimitiveValue(.text("17"), for: key)
        #expect(employee.value(for: key) as Int16? == 17)
        employee.setPrimitiveValue(.integer(100_000), for: key)
        #expect(employee.value(for: key) as Int16? == .max)
        #expect(employee.value(for: key) as String? == "100000")
        employee.setPrimitiveValue(.real(3.9), for: key)
        #expect(employee.value(for: key) as Int64? == 3)
        #expect(employee.value(for: key) as Date? == Date(timeIntervalSinceReferenceDate: 3.9))
        employee.setPrimitiveValue(.integer(2), for: key)
        #expect(employee.value(for: key) as Bool? == true)
    }

    @Test("a read of an unknown key is nil, and a fault's read loads it first")
    func unknownKeysAndFaults() throws {
        let container = try PersistentContainer(model: CompanyModel.model, store: .inMemory)
        let writer = container.newBackgroundContext()
        let employee = EmployeeEntity(context: writer)
        employee.name = "Ada"
        employee.age = 36
        employee.dateJoined = Date(timeIntervalSinceReferenceDate: 1000)
        try writer.save()
        #expect(employee.value(for: "nickname") as String? == nil)
        #expect(employee.value(for: "nickname") as Int64? == nil)
        #expect(employee.value(for: "nickname") as Double? == nil)

        let reader = container.newBackgroundContext()
        let fault = try #require(reader.object(for: employee.objectID) as? EmployeeEntity)
        #expect(fault.isFault)
        #expect(fault.name == "Ada")
        #expect(!fault.isFault)
        let second = container.newBackgroundContext()
        let other = try #require(second.object(for: employee.objectID) as? EmployeeEntity)
        #expect(other.age == 36)
        let third = container.newBackgroundContext()
        let another = try #require(third.object(for: employee.objectID) as? EmployeeEntity)
        #expect(another.dateJoined == Date(timeIntervalSinceReferenceDate: 1000))
    }
}
