import CompanyData
import Foundation

// Runs the Company flow against SQLite files in a fresh temporary directory and prints the report.
let directory = FileManager.default.temporaryDirectory.appendingPathComponent("company-example-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: directory) }

let report = try CompanyFlow.run(
    companyStore: directory.appendingPathComponent("Company.sqlite"),
    recordsStore: directory.appendingPathComponent("Records.sqlite"))
print(report.joined(separator: "\n"))
print("Models found by name: " + CompanyFlow.modelNames.joined(separator: ", "))
