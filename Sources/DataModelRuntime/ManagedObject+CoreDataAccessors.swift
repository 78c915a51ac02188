/// Core Data's spellings for hand-written accessors, so that a ported class's custom accessors compile and work as
/// they are:
///
/// ```swift
/// var title: String? {
///     get {
///         willAccessValue(forKey: "title"); defer { didAccessValue(forKey: "title") }
///         return primitiveValue(forKey: "title") as? String
///     }
///     set {
///         willChangeValue(forKey: "title"); defer { didChangeValue(forKey: "title") }
///         setPrimitiveValue(newValue, forKey: "title")
///     }
/// }
/// ```
///
/// The runtime records changes and tells observers in the accessors themselves: `primitiveValue(forKey:)` and
/// `setPrimitiveValue(_:forKey:)` are ``value(forKey:)`` and ``setValue(_:forKey:)`` (a change is recorded, saved and
/// observed; Core Data's primitive setter records it without telling key-value observers), and the
/// `will…`/`did…` calls that bracket them in Core Data have nothing left to do. In `awakeFromInsert()`,
/// `awakeFromFetch()` and `willSave()` they behave as the setters do there (see ``awakeFromFetch()``).
extension ManagedObject {
    /// The value of `key` (Core Data's primitive getter): ``value(forKey:)``.
    public func primitiveValue(forKey key: String) -> Any? { value(forKey: key) }

    /// Sets `key` (Core Data's primitive setter): ``setValue(_:forKey:)``.
    public func setPrimitiveValue(_ value: Any?, forKey key: String) { setValue(value, forKey: key) }

    /// Nothing to do: the runtime tells observers of a change in the setter.
    public func willChangeValue(forKey key: String) {}

    /// Nothing to do: the runtime tells observers of a change in the setter.
    public func didChangeValue(forKey key: String) {}

    /// Nothing to do: a read fires the object's fault and registers with observation itself.
    public func willAccessValue(forKey key: String?) {}

    /// Nothing to do (see ``willAccessValue(forKey:)``).
    public func didAccessValue(forKey key: String?) {}
}
