// Your own file, named after a generated class: the build plugin names its files
// `EmployeeEntity+DataModelClass.swift` and `EmployeeEntity+DataModelProperties.swift`, so the two never collide.

extension EmployeeEntity {
    /// The name shown in lists.
    public var displayName: String { name ?? "Unnamed employee" }
}
