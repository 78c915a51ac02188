import Foundation
import GeneratedCompanyModel
import Testing

@testable import DataModelRuntime

// A hand-written hierarchy whose to-many points at a leaf sub-entity: ShelfItem ← ShelfNovel, ShelfItem ←
// ShelfMagazine (one table), and Shelf → novels. The novels' table also holds magazines, so reading the
// to-many must look at each row's entity.
open class ShelfItem: ManagedObject {
    var title: String? {
        get { value(for: "title") }
        set { setValue(newValue, for: "title") }
    }
}

final class ShelfNovel: ShelfItem {
    var shelf: Shelf? {
        get { toOne(for: "shelf") }
        set { setToOne(newValue, for: "shelf") }
    }
}

final class ShelfMagazine: ShelfItem {}

final class Shelf: ManagedObject {
    var novels: Set<ShelfNovel> {
        get { toManySet(for: "novels") }
        set { setToManySet(newValue, for: "novels") }
    }
}

enum ShelfModel {
    static let model = ManagedObjectModel(
        name: "Shelves",
        entities: [
            EntityDescription(
                name: "ShelfItem", objectType: ShelfItem.self,
                attributes: [AttributeDescription(name: "title", type: .string)]),
            EntityDescription(
                name: "ShelfNovel", parentName: "ShelfItem", objectType: ShelfNovel.self,
                relationships: [
                    RelationshipDescription(name: "shelf", destinationEntityName: "Shelf", inverseName: "novels")
                ]),
            EntityDescription(name: "ShelfMagazine", parentName: "ShelfItem", objectType: ShelfMagazine.self),
            EntityDescription(
                name: "Shelf", objectType: Shelf.self,
                relationships: [
                    RelationshipDescription(
                        name: "novels", destinationEntityName: "ShelfNovel", inverseName: "shelf", isToMany: true)
                ]),
        ])
}

// Stickers whose to-one points at a hierarchy: Board ← CorkBoard (one table), Board → stickers, Sticker.board → Board.
// The stickers' table holds stickers only, but their to-one's key names a row of either entity, so it is read with its
// `Z_ENT`.
final class Sticker: ManagedObject {
    var label: String? {
        get { value(for: "label") }
        set { setValue(newValue, for: "label") }
    }
    var board: Board? {
        get { toOne(for: "board") }
        set { setToOne(newValue, for: "board") }
    }
}

class Board: ManagedObject {
    var stickers: Set<Sticker> {
        get { toManySet(for: "stickers") }
        set { setToManySet(newValue, for: "stickers") }
    }
}

final class CorkBoard: Board {}

enum StickerModel {
    static let model = ManagedObjectModel(
        name: "Stickers",
        entities: [
            EntityDescription(
                name: "Board", objectType: Board.self,
                relationships: [
                    RelationshipDescription(
                        name: "stickers", destinationEntityName: "Sticker", inverseName: "board", isToMany: true)
                ]),
            EntityDescription(name: "CorkBoard", parentName: "Board", objectType: CorkBoard.self),
            EntityDescription(
                name: "Sticker", objectType: Sticker.self,
                attributes: [AttributeDescription(name: "label", type: .string)],
                relationships: [
                    RelationshipDescription(name: "board", destinationEntityName: "Board", inverseName: "stickers")
                ]),
        ])
}

@Suite("To-many reads and inverse appends: object hashing, the load query, lists indexed on first use")
struct ToManyReadTests {
    private static func id(_ primaryKey: Int64) -> ObjectID {
        ObjectID(storeNumber: 1, entityNumber: 2, primaryKey: primaryKey)
    }

    @Test("an object's raw hash follows its identity for every seed and spreads over a collection's buckets")
    func identityHash() throws {
        let context = try PersistentContainer(model: CompanyModel.model, store: .inMemory).viewContext
        let objects = (0..<1_024).map { _ in EmployeeEntity(context: context) }
        for seed in [0, 1, 0x5555, Int.min, Int.max] {
            for object in objects.prefix(64) {
                #expect(object._rawHashValue(seed: seed) == object._rawHashValue(seed: seed))
            }
            // The low bits a `Set` masks its buckets with: addresses alone (16-byte aligned) would give at most 64
            // values of 1,024 here; a good mix gives about 650.
            let buckets = Set(objects.map { $0._rawHashValue(seed: seed) & 1_023 })
            #expect(buckets.count > 500, "seed \(seed): \(buckets.count) of 1,024 buckets")
        }
        // Another seed places the same object elsewhere (sets of other sizes order their elements differently).
        let moved = objects.filter { $0._rawHashValue(seed: 1) != $0._rawHashValue(seed: 2) }
        #expect(moved.count > 1_000)
        // Sets and dictionaries of objects behave: every object found, none twice, removals exact.
        var set = Set(objects)
        #expect(set.count == 1_024 && objects.allSatisfy { set.contains($0) })
        for object in objects.prefix(300) { set.remove(object) }
        #expect(set.count == 724 && !set.contains(objects[0]) && set.contains(objects[300]))
        let union = Set(objects.prefix(10)).union(set)
        #expect(union.count == 734)
        let byObject = Dictionary(uniqueKeysWithValues: objects.enumerated().map { ($1, $0) })
        #expect(objects.enumerated().allSatisfy { byObject[$1] == $0 })
        #expect(
            AnyHashable(objects[5]) == AnyHashable(objects[5]) && AnyHashable(objects[5]) != AnyHashable(objects[6]))
    }

    @Test("a to-many's query names the entity as a constant only when its table holds no other entity")
    func loadQuery() throws {
        let company = try PersistentContainer(model: CompanyModel.model, store: .inMemory).viewContext
        let employees = try #require(
            company.runtime.entity(named: "DepartmentEntity")?.relationship(named: "employees"))
        let employee = try #require(company.runtime.entity(named: "EmployeeEntity"))
        #expect(employees.destinationOwnsTable)
        #expect(employees.loadSQL?.hasPrefix(#"SELECT "Z_PK", \#(employee.number), "Z_OPT", "#) == true)
        let garage = try PersistentContainer(model: VehiclesModel.model, store: .inMemory).viewContext
        let vehicles = try #require(garage.runtime.entity(named: "Garage")?.relationship(named: "vehicles"))
        #expect(!vehicles.destinationOwnsTable)
        #expect(vehicles.loadSQL?.hasPrefix(#"SELECT "Z_PK", "Z_ENT", "Z_OPT", "#) == true)
        let shelves = try PersistentContainer(model: ShelfModel.model, store: .inMemory).viewContext
        let novels = try #require(shelves.runtime.entity(named: "Shelf")?.relationship(named: "novels"))
        #expect(!novels.destinationOwnsTable)
        #expect(novels.loadSQL?.hasPrefix(#"SELECT "Z_PK", "Z_ENT", "Z_OPT", "#) == true)
    }

    @Test(
        "a to-many's rows get the to-one back to the loading object once per query, as each row's column reads it",
        arguments: StoreKind.allCases)
    func sharedToOne(kind: StoreKind) throws {
        let company = try TestStore(kind, model: CompanyModel.model)
        defer { company.cleanUp() }
        let departments = company.makeDepartments(2)
        let business = BusinessEntity(context: company.context)
        for index in 0..<6 {
            let employee = EmployeeEntity(context: company.context)
            employee.name = "E\(index)"
            employee.department = departments[index % 2]
            if index < 3 { employee.business = business }
        }
        try company.context.save()
        let reader = try company.reopened()
        let employeeEntity = try #require(reader.runtime.entity(named: "EmployeeEntity"))
        let departmentEntity = try #require(reader.runtime.entity(named: "DepartmentEntity"))
        let employees = try #require(departmentEntity.relationship(named: "employees"))
        let departmentIndex = try #require(employeeEntity.relationship(named: "department")?.index)
        let businessIndex = try #require(employeeEntity.relationship(named: "business")?.index)
        #expect(employees.rowsSharedToOne?.index == departmentIndex)
        #expect(employees.rowsSharedToOne?.entityNumber == departmentEntity.number)
        // The key the query tests is selected as a constant: the rows' decoding does not read it.
        #expect(employees.loadSQL?.contains(", NULL") == true)
        // The values set once per query are those a fetch of the same rows reads from their columns.
        let fetcher = try company.reopened()
        let fetched = try fetcher.fetch(EmployeeEntity.fetchRequest())
        let byName = Dictionary(uniqueKeysWithValues: fetched.map { ($0.name ?? "", $0) })
        for department in try reader.fetch(DepartmentEntity.fetchRequest()) {
            #expect(department.employees.count == 3)
            for employee in department.employees {
                let other = try #require(byName[employee.name ?? ""])
                #expect(employee.values[relationship: departmentIndex] == .toOne(department.objectID))
                #expect(employee.values[relationship: departmentIndex] == other.values[relationship: departmentIndex])
                #expect(employee.values[relationship: businessIndex] == other.values[relationship: businessIndex])
                #expect(employee.department === department && !employee.hasChanges)
            }
        }
        #expect(!reader.hasChanges)

        // A to-one whose destination has sub-entities reads its `Z_ENT` per row: not shared.
        let boards = try TestStore(kind, model: StickerModel.model)
        defer { boards.cleanUp() }
        let cork = CorkBoard(context: boards.context)
        let plain = Board(context: boards.context)
        for (index, board) in [cork, plain, cork].enumerated() {
            let sticker = Sticker(context: boards.context)
            sticker.label = "S\(index)"
            sticker.board = board
        }
        try boards.context.save()
        let boardReader = try boards.reopened()
        let stickers = try #require(boardReader.runtime.entity(named: "Board")?.relationship(named: "stickers"))
        #expect(stickers.destinationOwnsTable && stickers.rowsSharedToOne == nil)
        #expect(stickers.loadSQL?.contains("NULL") == false)
        let read = try boardReader.fetch(FetchRequest<Board>(entityName: "Board"))
        let readCork = try #require(read.first { $0 is CorkBoard })
        #expect(Set(readCork.stickers.compactMap(\.label)) == ["S0", "S2"])
        #expect(readCork.stickers.allSatisfy { $0.board === readCork })
        let readPlain = try #require(read.first { !($0 is CorkBoard) })
        #expect(readPlain.stickers.compactMap(\.label) == ["S1"] && readPlain.stickers.first?.board === readPlain)
    }

    @Test("to-manys read from the store hold their objects, of their classes", arguments: StoreKind.allCases)
    func readFromStore(kind: StoreKind) throws {
        let company = try TestStore(kind, model: CompanyModel.model)
        defer { company.cleanUp() }
        let departments = company.makeDepartments(3)
        for index in 0..<30 {
            let employee = EmployeeEntity(context: company.context)
            employee.name = "E\(index)"
            employee.department = departments[index % 3]
        }
        try company.context.save()
        let reader = try company.reopened()
        let read = try reader.fetch(DepartmentEntity.fetchRequest().sorted(by: [SortDescriptor(\.name)]))
        #expect(read.map(\.name) == ["D0", "D1", "D2"])
        for (offset, department) in read.enumerated() {
            let names = Set(department.employees.compactMap(\.name))
            #expect(names == Set(stride(from: offset, to: 30, by: 3).map { "E\($0)" }))
            #expect(department.employees.allSatisfy { $0.department === department })
        }
        // The list read from the store answers membership (indexed on first use) and changes.
        let first = read[0]
        let moved = try #require(first.employees.first)
        moved.department = read[1]
        #expect(first.employees.count == 9 && read[1].employees.count == 11 && read[1].employees.contains(moved))
        first.addToEmployees(moved)
        #expect(first.employees.count == 10 && read[1].employees.count == 10 && moved.department === first)

        let shelves = try TestStore(kind, model: ShelfModel.model)
        defer { shelves.cleanUp() }
        let shelf = Shelf(context: shelves.context)
        for title in ["A", "B"] {
            let novel = ShelfNovel(context: shelves.context)
            novel.title = title
            novel.shelf = shelf
        }
        ShelfMagazine(context: shelves.context).title = "M"
        try shelves.context.save()
        // The context held: objects do not keep their context alive.
        let shelfReader = try shelves.reopened()
        let readShelf = try #require(try shelfReader.fetch(FetchRequest<Shelf>(entityName: "Shelf")).first)
        #expect(Set(readShelf.novels.compactMap(\.title)) == ["A", "B"])
    }

    @Test(
        "a to-many's accessors take its objects by class: cast once when all are of one class that is a T, per object otherwise",
        arguments: StoreKind.allCases)
    func destinationsByClass(kind: StoreKind) throws {
        let shelves = try TestStore(kind, model: ShelfModel.model)
        defer { shelves.cleanUp() }
        let shelf = Shelf(context: shelves.context)
        for title in ["A", "B", "C"] {
            let novel = ShelfNovel(context: shelves.context)
            novel.title = title
            novel.shelf = shelf
        }
        ShelfMagazine(context: shelves.context).title = "M"
        try shelves.context.save()
        weak var weakNovel: ShelfNovel?
        weak var weakReader: ManagedObjectContext?
        var kept: Set<ShelfItem> = []
        do {
            let reader = try shelves.reopened()
            weakReader = reader
            let readShelf = try #require(try reader.fetch(FetchRequest<Shelf>(entityName: "Shelf")).first)
            // Read from the store (the loaded objects handed over), then from the loaded list (looked up by ID):
            // the same objects, for the class itself, a superclass, and a class none of them is.
            let loaded: Set<ShelfNovel> = readShelf.toManySet(for: "novels")
            let listed: Set<ShelfNovel> = readShelf.toManySet(for: "novels")
            #expect(loaded == listed && Set(loaded.compactMap(\.title)) == ["A", "B", "C"])
            let items: Set<ShelfItem> = readShelf.toManySet(for: "novels")
            #expect(items == Set(loaded.map { $0 as ShelfItem }))
            let magazines: Set<ShelfMagazine> = readShelf.toManySet(for: "novels")
            #expect(magazines.isEmpty)
            let ordered: [ShelfItem] = readShelf.toManyArray(for: "novels")
            #expect(ordered.compactMap(\.title) == ["A", "B", "C"])
            #expect((readShelf.toManyArray(for: "novels") as [ShelfMagazine]).isEmpty)
            #expect(readShelf.destinations("novels").count == 3)
            weakNovel = loaded.first
            kept = items
        }
        // The accessors' sets hold their objects (each retained once by the set): alive while held, freed after.
        #expect(weakReader == nil)
        #expect(kept.count == 3 && Set(kept.compactMap(\.title)) == ["A", "B", "C"])
        #expect(weakNovel != nil)
        kept = []
        #expect(weakNovel == nil)

        // The buffer's class test, on objects of two classes and on none.
        let context = shelves.context
        let novel = ShelfNovel(context: context)
        let magazine = ShelfMagazine(context: context)
        let empty = DestinationObjects()
        #expect(empty.areAll(ShelfMagazine.self))
        let one = DestinationObjects()
        one.append(novel)
        one.append(novel)
        #expect(one.areAll(ShelfNovel.self) && one.areAll(ShelfItem.self) && one.areAll(ManagedObject.self))
        #expect(!one.areAll(ShelfMagazine.self))
        let mixed = DestinationObjects()
        mixed.append(novel)
        mixed.append(magazine)
        mixed.append(novel)
        #expect(!mixed.areAll(ShelfNovel.self) && !mixed.areAll(ShelfItem.self) && mixed.count == 3)
        // Taken as an array (past a growth of the buffer), or dropped without being moved out: each object is
        // released exactly once.
        weak var weakTaken: ShelfMagazine?
        weak var weakDropped: ShelfMagazine?
        do {
            let scratch = try shelves.reopened()
            let held = DestinationObjects()
            for _ in 0..<40 { held.append(ShelfMagazine(context: scratch)) }
            let taken = held.take()
            #expect(taken.count == 40 && held.count == 0)
            weakTaken = taken.last as? ShelfMagazine
            let dropped = DestinationObjects()
            let object = ShelfMagazine(context: scratch)
            weakDropped = object
            dropped.append(object)
            #expect(weakTaken != nil && weakDropped != nil)
        }
        #expect(weakTaken == nil && weakDropped == nil)
    }

    @Test("an inserted object's inverse list, filled without membership tests, answers and changes like any list")
    func insertedInverseList() throws {
        let context = try PersistentContainer(model: CompanyModel.model, store: .inMemory).viewContext
        let first = DepartmentEntity(context: context)
        let second = DepartmentEntity(context: context)
        let employees = (0..<50).map { _ in EmployeeEntity(context: context) }
        for employee in employees { employee.department = first }
        // Set again to the same department: no second entry.
        for employee in employees.prefix(10) { employee.department = first }
        #expect(first.employees.count == 50 && Set(employees) == first.employees)
        // Moving one removes it from the first list (which is indexed then) and appends it to the second.
        employees[7].department = second
        #expect(first.employees.count == 49 && !first.employees.contains(employees[7]))
        #expect(second.employees == [employees[7]])
        first.addToEmployees(employees[7])
        #expect(first.employees.count == 50 && second.employees.isEmpty)
        first.removeFromEmployees(employees[0])
        #expect(first.employees.count == 49 && employees[0].department == nil)
        employees[0].department = first
        #expect(first.employees.count == 50)
        try context.save()
        #expect(first.employees.count == 50)
    }

    @Test("lists read in one go or filled by distinct appends agree with an array model", arguments: 1...12)
    func listsAgreeWithArrays(seed: UInt64) {
        var generator = SeededGenerator(seed: seed)
        let start = (0..<Int.random(in: 0...30, using: &generator)).map { _ in
            Int64.random(in: 1...60, using: &generator)
        }
        var reference: [ObjectID] = []
        for key in start where !reference.contains(Self.id(key)) { reference.append(Self.id(key)) }
        var list = seed.isMultiple(of: 2) ? ObjectIDList(distinct: reference) : ObjectIDList()
        if !seed.isMultiple(of: 2) {
            for id in reference { list.appendDistinct(id) }
        }
        // A copy changed before either side was indexed: each side answers for its own IDs.
        var early = list
        early.appendDistinct(Self.id(1_000))
        #expect(early.contains(Self.id(1_000)) && !list.contains(Self.id(1_000)))
        #expect(reference.allSatisfy { early.contains($0) && list.contains($0) })
        #expect(early.ids == reference + [Self.id(1_000)] && list.ids == reference)
        var copies: [(ObjectIDList, [ObjectID])] = []
        for _ in 0..<300 {
            let id = Self.id(Int64.random(in: 1...60, using: &generator))
            switch Int.random(in: 0..<8, using: &generator) {
            case 0:
                #expect(list.append(id) == !reference.contains(id))
                if !reference.contains(id) { reference.append(id) }
            case 1:
                if !reference.contains(id) {
                    list.appendDistinct(id)
                    reference.append(id)
                }
            case 2:
                let index = Int.random(in: 0...reference.count, using: &generator)
                #expect(list.insert(id, at: index) == !reference.contains(id))
                if !reference.contains(id) { reference.insert(id, at: index) }
            case 3:
                #expect(list.remove(id) == reference.contains(id))
                reference.removeAll { $0 == id }
            case 4:
                let order = reference.shuffled(using: &generator)
                list.reorder(order)
                if !order.isEmpty { reference = order }
            case 5:
                copies.append((list, reference))
            default:
                #expect(list.contains(id) == reference.contains(id), "seed \(seed)")
                #expect(list.firstIndex(of: id) == reference.firstIndex(of: id), "seed \(seed)")
            }
            #expect(list.ids == reference && list.count == reference.count, "seed \(seed)")
        }
        // Copies taken along the way kept their IDs and answer for them.
        for (copy, ids) in copies {
            #expect(copy.ids == ids)
            for key in Int64(1)...60 { #expect(copy.contains(Self.id(key)) == ids.contains(Self.id(key))) }
        }
    }

    @Test("a copy of values holding no references is equal, and independent, as one holding text is")
    func plainCopy() {
        // Nine attributes and three relationships: two words of tags.
        let plain: [PrimitiveValue] = [
            .integer(0), .null, .integer(.min), .real(-0.0), .real(.infinity), .null, .integer(42), .real(3.5),
            .integer(.max),
        ]
        let relationships: [RelationshipValue] = [.toOne(Self.id(3)), .toManyFault, .toOne(nil)]
        let values = ObjectValues(attributes: plain, relationships: relationships)
        var copy = values.uniqueCopy()
        #expect(copy.attributes == plain && copy.relationships == relationships)
        copy[attribute: 6] = .integer(7)
        copy[relationship: 0] = .toOne(Self.id(4))
        #expect(values.attributes == plain && values.relationships == relationships)
        // A reference in the second word of tags: copied as a value, alive after the original goes.
        var withText: ObjectValues? = ObjectValues(
            attributes: plain.dropLast() + [.text(String(repeating: "long text ", count: 8))],
            relationships: [.toOne(nil), .toMany(ObjectIDList([Self.id(1), Self.id(2)])), .toManyFault])
        let textCopy = withText?.uniqueCopy()
        withText = nil
        #expect(textCopy?[attribute: 8] == .text(String(repeating: "long text ", count: 8)))
        #expect(textCopy?[relationship: 1] == .toMany(ObjectIDList([Self.id(1), Self.id(2)])))
        #expect(textCopy?[attribute: 6] == .integer(42))
    }
}
