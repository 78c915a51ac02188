import DataModelRuntime
import Foundation
import GeneratedCompanyModel
import Testing

@Suite("Inverses are kept in memory in every direction")
struct InverseMaintenanceTests {
    @Test("to-one ↔ to-many: setting, moving and clearing the to-one", arguments: StoreKind.allCases)
    func oneToMany(kind: StoreKind) throws {
        let store = try TestStore(kind, model: CompanyModel.model)
        defer { store.cleanUp() }
        let context = store.context
        let acme = BusinessEntity(context: context)
        let globex = BusinessEntity(context: context)
        let ada = EmployeeEntity(context: context)
        ada.business = acme
        #expect(acme.employees == [ada])
        ada.business = globex
        #expect(acme.employees.isEmpty)
        #expect(globex.employees == [ada])
        try context.save()
        // From the to-many side, on saved objects whose relationships are loaded lazily.
        let other = try store.reopened()
        let businesses = try other.fetch(BusinessEntity.fetchRequest())
        let readGlobex = try #require(businesses.first { !$0.employees.isEmpty })
        let readAcme = try #require(businesses.first { $0 !== readGlobex })
        let readAda = try #require(readGlobex.employees.first)
        readAcme.addToEmployees(readAda)
        #expect(readAda.business === readAcme)
        #expect(readGlobex.employees.isEmpty)
        readAcme.removeFromEmployees(readAda)
        #expect(readAda.business == nil)
        readAda.business = readGlobex
        try other.save()
        let third = try store.reopened()
        let employee = try #require(try third.fetch(EmployeeEntity.fetchRequest()).first)
        #expect(employee.business?.objectID == readGlobex.objectID)
    }

    @Test("many-to-many: both sides, add and remove, sequences and setters", arguments: StoreKind.allCases)
    func manyToMany(kind: StoreKind) throws {
        let store = try TestStore(kind, model: CompanyModel.model)
        defer { store.cleanUp() }
        let context = store.context
        let acme = BusinessEntity(context: context)
        let rnd = DepartmentEntity(context: context)
        let sales = DepartmentEntity(context: context)
        rnd.addToBusinesses(acme)
        #expect(acme.departments == [rnd])
        acme.departments = [sales]
        #expect(rnd.businesses.isEmpty)
        #expect(sales.businesses == [acme])
        acme.addToDepartments([rnd, sales])
        try context.save()

        acme.removeFromDepartments(sales)
        #expect(sales.businesses.isEmpty)
        try context.save()
        let other = try store.reopened()
        let read = try #require(try other.fetch(BusinessEntity.fetchRequest()).first)
        #expect(read.departments.count == 1)
        let readRnd = try #require(read.departments.first)
        #expect(readRnd.objectID == rnd.objectID)
        #expect(readRnd.businesses == [read])
    }

    @Test("ordered to-many: order kept on save, insertInto and replace reorder", arguments: StoreKind.allCases)
    func ordered(kind: StoreKind) throws {
        let store = try TestStore(kind, model: RecordsModel.model)
        defer { store.cleanUp() }
        let context = store.context
        let list = RecordsEntity(context: context)
        list.title = "Runs"
        var records: [RecordEntity] = []
        for step in 0..<4 {
            let record = RecordEntity(context: context)
            record.step = Int16(step)
            list.addToRecords(record)
            for index in 0..<3 {
                let location = LocationEntity(context: context)
                location.latitude = Double(step * 10 + index)
                record.addToLocations(location)
            }
            records.append(record)
        }
        #expect(records[2].recordsEntity === list)
        #expect(list.records.map(\.step) == [0, 1, 2, 3])
        try context.save()

        let other = try store.reopened()
        let readList = try #require(try other.fetch(RecordsEntity.fetchRequest()).first)
        #expect(readList.records.map(\.step) == [0, 1, 2, 3])
        #expect(readList.records[1].locations.map(\.latitude) == [10, 11, 12])

        let last = readList.records[3]
        readList.insertIntoRecords(last, at: 0)
        #expect(readList.records.map(\.step) == [3, 0, 1, 2])
        let moved = readList.records[2].locations
        readList.records[2].replaceLocations(at: 0, with: moved[2])
        #expect(readList.records[2].locations.map(\.latitude) == [12, 11])
        #expect(moved[0].record == nil)
        readList.removeFromRecords(at: 1)
        #expect(readList.records.map(\.step) == [3, 1, 2])
        try other.save()

        let third = try store.reopened()
        let thirdList = try #require(try third.fetch(RecordsEntity.fetchRequest()).first)
        #expect(thirdList.records.map(\.step) == [3, 1, 2])
        #expect(thirdList.records[1].locations.map(\.latitude) == [12, 11])
        #expect(try third.count(for: RecordEntity.fetchRequest()) == 4)
    }

    @Test("a to-many relationship loads its destinations' rows in one batch", arguments: StoreKind.allCases)
    func batchLoading(kind: StoreKind) throws {
        let store = try TestStore(kind, model: CompanyModel.model)
        defer { store.cleanUp() }
        let acme = BusinessEntity(context: store.context)
        for index in 0..<10 {
            let employee = EmployeeEntity(context: store.context)
            employee.name = "E\(index)"
            acme.addToEmployees(employee)
        }
        try store.context.save()
        let other = try store.reopened()
        let read = try #require(try other.fetch(BusinessEntity.fetchRequest()).first)
        let employees = read.employees
        #expect(employees.count == 10)
        #expect(employees.allSatisfy { !$0.isFault })
        #expect(Set(employees.compactMap(\.name)) == Set((0..<10).map { "E\($0)" }))
    }
}
