import Foundation
import Testing

@testable import DataModelRuntime

// Classes written as the generator writes classes with fields, in a hierarchy: FieldVehicle ← FieldCar, a
// FieldGarage holding vehicles, and a FieldOwner whose to-one points into the hierarchy (its rows name the
// destination's entity, so its class's fields do not fit and it decodes into values).
open class FieldVehicle: ManagedObject {
    @exclusivity(unchecked) var _makeField: Swift.String?
    @exclusivity(unchecked) var _garageField: Swift.Int64?

    override open class var fieldLayout: FieldLayout? {
        FieldLayout(attributes: [.text("make")], relationships: [.toOne("garage")])
    }

    override open func readFields(from row: FieldReader) {
        _makeField = row.text(0)
        _garageField = row.toOne(0)
    }

    override open func writeFields(to writer: FieldWriter) {
        writer.text(0, _makeField)
        writer.toOne(0, _garageField)
    }

    var make: String? {
        get { readsFields(attribute: 0) ? fieldValue(_makeField) : value(for: "make") }
        set { setValue(newValue, for: "make") }
    }

    var garage: FieldGarage? {
        get { readsFields(relationship: 0) ? fieldObject(relationship: 0, _garageField) : toOne(for: "garage") }
        set { setToOne(newValue, for: "garage") }
    }
}

final class FieldCar: FieldVehicle {
    @exclusivity(unchecked) var _seatsField: Swift.Int64?

    override class var fieldLayout: FieldLayout? {
        FieldLayout(attributes: [.text("make"), .integer("seats")], relationships: [.toOne("garage")])
    }

    override func readFields(from row: FieldReader) {
        _makeField = row.text(0)
        _seatsField = row.integer(1)
        _garageField = row.toOne(0)
    }

    override func writeFields(to writer: FieldWriter) {
        writer.text(0, _makeField)
        writer.integer(1, _seatsField)
        writer.toOne(0, _garageField)
    }

    var seats: Int16 {
        get { readsFields(attribute: 1) ? fieldValue(_seatsField) ?? .emptyValue : value(for: "seats") }
        set { setValue(newValue, for: "seats") }
    }
}

final class FieldGarage: ManagedObject {
    @exclusivity(unchecked) var _nameField: Swift.String?

    override class var fieldLayout: FieldLayout? {
        FieldLayout(attributes: [.text("name")], relationships: [.toMany("vehicles")])
    }

    override func readFields(from row: FieldReader) { _nameField = row.text(0) }

    override func writeFields(to writer: FieldWriter) { writer.text(0, _nameField) }

    var name: String? {
        get { readsFields(attribute: 0) ? fieldValue(_nameField) : value(for: "name") }
        set { setValue(newValue, for: "name") }
    }

    var vehicles: Set<FieldVehicle> {
        get { toManySet(for: "vehicles") }
        set { setToManySet(newValue, for: "vehicles") }
    }
}

final class FieldOwner: ManagedObject {
    @exclusivity(unchecked) var _favoriteField: Swift.Int64?

    override class var fieldLayout: FieldLayout? {
        FieldLayout(attributes: [], relationships: [.toOne("favorite")])
    }

    override func readFields(from row: FieldReader) { _favoriteField = row.toOne(0) }

    override func writeFields(to writer: FieldWriter) { writer.toOne(0, _favoriteField) }

    var favorite: FieldVehicle? {
        get { toOne(for: "favorite") }
        set { setToOne(newValue, for: "favorite") }
    }
}

enum FieldVehiclesModel {
    static let model = ManagedObjectModel(
        name: "FieldVehicles",
        entities: [
            EntityDescription(
                name: "Vehicle", objectType: FieldVehicle.self,
                attributes: [AttributeDescription(name: "make", type: .string)],
                relationships: [
                    RelationshipDescription(name: "garage", destinationEntityName: "Garage", inverseName: "vehicles")
                ]),
            EntityDescription(
                name: "Car", parentName: "Vehicle", objectType: FieldCar.self,
                attributes: [
                    AttributeDescription(name: "seats", type: .integer16, isOptional: false, defaultValue: .integer(4))
                ]),
            EntityDescription(
                name: "Garage", objectType: FieldGarage.self,
                attributes: [AttributeDescription(name: "name", type: .string)],
                relationships: [
                    RelationshipDescription(
                        name: "vehicles", destinationEntityName: "Vehicle", inverseName: "garage", isToMany: true)
                ]),
            EntityDescription(
                name: "Owner", objectType: FieldOwner.self,
                relationships: [RelationshipDescription(name: "favorite", destinationEntityName: "Vehicle")]),
        ])
}

@Suite("Fetched rows in fields: hierarchies")
struct FieldHierarchyTests {
    @Test("rows of an entity and its sub-entities read into each class's fields", arguments: StoreKind.allCases)
    func hierarchy(kind: StoreKind) throws {
        let store = try TestStore(kind, model: FieldVehiclesModel.model)
        defer { store.cleanUp() }
        let context = store.context
        let garage = FieldGarage(context: context)
        garage.name = "North"
        let bike = FieldVehicle(context: context)
        bike.make = "Brompton"
        let car = FieldCar(context: context)
        car.make = "Volvo"
        car.seats = 7
        garage.vehicles = [bike, car]
        let owner = FieldOwner(context: context)
        owner.favorite = car
        try context.save()

        let other = try store.reopened()
        #expect(other.entity(for: FieldVehicle.self)?.fieldColumns != nil)
        #expect(other.entity(for: FieldCar.self)?.fieldColumns != nil)
        #expect(other.entity(for: FieldOwner.self)?.fieldColumns == nil, "a to-one into a hierarchy does not fit")
        let vehicles = try other.fetch(FetchRequest<FieldVehicle>(entityName: "Vehicle"))
        #expect(vehicles.count == 2)
        #expect(vehicles.allSatisfy { $0.holdsFields })
        let readCar = try #require(vehicles.first { $0 is FieldCar } as? FieldCar)
        #expect(readCar.make == "Volvo")
        #expect(readCar.seats == 7)
        let readGarage = try #require(readCar.garage)
        #expect(readGarage.name == "North")
        for vehicle in vehicles {
            let row = try #require(try other.storedRow(of: vehicle))
            let values = vehicle.values
            #expect(!vehicle.holdsFields)
            #expect(
                values.attributeIndices.map { values[attribute: $0] }
                    == row.values.attributeIndices.map { row.values[attribute: $0] })
            #expect(
                values.relationshipIndices.map { values[relationship: $0] }
                    == row.values.relationshipIndices.map { row.values[relationship: $0] })
        }
        // A to-many's load into a hierarchy reads each row's entity from the row.
        let third = try store.reopened()
        let garages = try third.fetch(FetchRequest<FieldGarage>(entityName: "Garage"))
        let loaded = try #require(garages.first).vehicles
        #expect(loaded.count == 2)
        #expect(loaded.allSatisfy { $0.holdsFields })
        #expect(Set(loaded.compactMap(\.make)) == ["Brompton", "Volvo"])
        #expect(loaded.allSatisfy { $0.garage === garages.first })
        let owners = try third.fetch(FetchRequest<FieldOwner>(entityName: "Owner"))
        #expect(owners.count == 1)
        #expect(owners.allSatisfy { !$0.holdsFields })
        #expect((owners.first?.favorite as? FieldCar)?.seats == 7)
    }
}
