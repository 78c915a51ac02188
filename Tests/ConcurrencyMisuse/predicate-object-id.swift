// expect: ok
import DataModelRuntime
import Foundation

// The spellings of an object comparison that #Predicate accepts (and the runtime runs in SQL).
final class Department: ManagedObject {
    var employees: Set<Employee> { toManySet(for: "employees") }
}
final class Employee: ManagedObject {
    var department: Department? { toOne(for: "department") }
}

func predicates(_ department: Department, _ employee: Employee) -> [Predicate<Employee>] {
    let id = department.objectID
    let ids = [department.objectID]
    let me = employee.objectID
    return [
        #Predicate<Employee> { $0.department?.objectID == id },
        #Predicate<Employee> { $0.department?.objectID != id },
        #Predicate<Employee> { $0.department == nil },
        #Predicate<Employee> { $0.objectID == me },
        #Predicate<Employee> { e in e.department.flatMap { ids.contains($0.objectID) } ?? false },
        #Predicate<Employee> { e in e.department.flatMap { d in d.employees.contains(where: { $0.objectID == me }) } ?? false },
    ]
}
