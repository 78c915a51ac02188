// expect-error: to closure result type 'any StandardPredicateExpression<Bool>'
import DataModelRuntime
import Foundation

// A #Predicate captures only Sendable and Codable values: not a managed object. Capture its objectID
// (predicate-object-id.swift).
final class Department: ManagedObject {}
final class Employee: ManagedObject {
    var department: Department? { toOne(for: "department") }
}

func byDepartment(_ department: Department) -> Predicate<Employee> {
    #Predicate<Employee> { $0.department == department }
}
