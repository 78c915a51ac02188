import CompanyData
import DataModelRuntime
import Foundation
import Testing

@Suite("Company example")
struct CompanyFlowTests {
    private func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("company-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test func flowReport() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let report = try CompanyFlow.run(
            companyStore: directory.appendingPathComponent("Company.sqlite"),
            recordsStore: directory.appendingPathComponent("Records.sqlite"))
        #expect(
            report == [
                "After the first save:",
                "  Acme: departments R&D, Sales",
                "    employees Ada (36, R&D), Grace (45, Sales)",
                "  Globex: departments R&D",
                "    employees Linus (28, R&D)",
                "  3 employees, 2 departments",
                "After deleting Globex (employees cascade):",
                "  Acme: departments R&D, Sales",
                "    employees Ada (36, R&D), Grace (45, Sales)",
                "  2 employees, 2 departments",
                "Records:",
                "  Morning runs: 2 runs, 13.0 km",
                "    run 1: 5.2 km via 52.50 → 52.51 → 52.52",
                "    run 2: 7.8 km via 52.50 → 52.51 → 52.52",
            ])
    }

    @Test func generatedClassesAndHandWrittenClassesMeet() throws {
        // Category codegen: the class is ours (RecordsEntities.swift), the properties are generated.
        let context = try PersistentContainer(model: RecordsModel.model, store: .inMemory).viewContext
        let list = RecordsEntity(context: context)
        let record = RecordEntity(context: context)
        record.distance = 3
        list.addToRecords(record)
        #expect(record.recordsEntity === list)
        #expect(list.totalDistance == 3)
        #expect(RecordsEntity.fetchRequest().entityName == "RecordsEntity")
        #expect(CompanyModel.model.entities.map(\.name) == ["BusinessEntity", "DepartmentEntity", "EmployeeEntity"])
    }
}
