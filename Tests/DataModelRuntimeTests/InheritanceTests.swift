import DataModelRuntime
import Foundation
import Testing

// A hand-written model with inheritance: Vehicle ← Car ← SportsCar, and Garage → vehicles.
open class Vehicle: ManagedObject {
    var make: String? {
        get { value(for: "make") }
        set { setValue(newValue, for: "make") }
    }
    var garage: Garage? {
        get { toOne(for: "garage") }
        set { setToOne(newValue, for: "garage") }
    }
}

open class Car: Vehicle {
    var seats: Int16 {
        get { value(for: "seats") }
        set { setValue(newValue, for: "seats") }
    }
}

final class SportsCar: Car {
    var topSpeed: Double? {
        get { value(for: "topSpeed") }
        set { setValue(newValue, for: "topSpeed") }
    }
}

final class Garage: ManagedObject {
    var vehicles: Set<Vehicle> {
        get { toManySet(for: "vehicles") }
        set { setToManySet(newValue, for: "vehicles") }
    }
}

enum VehiclesModel {
    static let model = ManagedObjectModel(
        name: "Vehicles",
        entities: [
            EntityDescription(
                name: "Vehicle", isAbstract: true, objectType: Vehicle.self,
                attributes: [AttributeDescription(name: "make", type: .string)],
                relationships: [
                    RelationshipDescription(name: "garage", destinationEntityName: "Garage", inverseName: "vehicles")
                ],
                propertyNameForKeyPath: { keyPath in keyPath == \Vehicle.make ? "make" : nil }),
            EntityDescription(
                name: "Car", parentName: "Vehicle", objectType: Car.self,
                attributes: [
                    AttributeDescription(name: "seats", type: .integer16, isOptional: false, defaultValue: .integer(4))
                ],
                propertyNameForKeyPath: { keyPath in
                    switch keyPath {
                    case \Car.make: "make"
                    case \Car.seats: "seats"
                    default: nil
                    }
                }),
            EntityDescription(
                name: "SportsCar", parentName: "Car", objectType: SportsCar.self,
                attributes: [AttributeDescription(name: "topSpeed", type: .double)]),
            EntityDescription(
                name: "Garage", objectType: Garage.self,
                relationships: [
                    RelationshipDescription(
                        name: "vehicles", destinationEntityName: "Vehicle", inverseName: "garage", isToMany: true,
                        deleteRule: .cascade)
                ]),
        ])
}

@Suite("Inheritance: one table per hierarchy")
struct InheritanceTests {
    @Test("fetching an entity includes its sub-entities, with their classes", arguments: StoreKind.allCases)
    func hierarchy(kind: StoreKind) throws {
        let store = try TestStore(kind, model: VehiclesModel.model)
        defer { store.cleanUp() }
        let context = store.context
        let garage = Garage(context: context)
        let car = Car(context: context)
        car.make = "Volvo"
        #expect(car.seats == 4)
        let fast = SportsCar(context: context)
        fast.make = "Ferrari"
        fast.seats = 2
        fast.topSpeed = 320
        garage.vehicles = [car, fast]
        #expect(fast.garage === garage)
        try context.save()
        // Car and SportsCar keys come from one sequence: they share the table.
        #expect(car.objectID.primaryKey != fast.objectID.primaryKey)

        let other = try store.reopened()
        let cars = try other.fetch(FetchRequest<Car>(entityName: "Car").sorted(by: [SortDescriptor(\.make)]))
        #expect(cars.map(\.make) == ["Ferrari", "Volvo"])
        let readFast = try #require(cars.first as? SportsCar)
        #expect(readFast.topSpeed == 320)
        #expect(readFast.seats == 2)
        #expect(try other.count(for: FetchRequest<SportsCar>(entityName: "SportsCar")) == 1)
        let onlyCars = FetchRequest<Car>(entityName: "Car")
        onlyCars.includesSubentities = false
        #expect(try other.fetch(onlyCars).map(\.make) == ["Volvo"])
        let readGarage = try #require(readFast.garage)
        #expect(readGarage.vehicles.count == 2)
        other.delete(readGarage)
        try other.save()
        #expect(try store.reopened().count(for: FetchRequest<Vehicle>(entityName: "Vehicle")) == 0)
    }

    @Test("objects of an abstract entity cannot be saved")
    func abstractEntity() throws {
        let container = try PersistentContainer(model: VehiclesModel.model, store: .inMemory)
        let vehicle = Vehicle(context: container.viewContext)
        vehicle.make = "Generic"
        #expect {
            try container.viewContext.save()
        } throws: { error in
            (error as? ValidationError)?.failures.map(\.rule) == [.abstractEntity]
        }
    }
}
