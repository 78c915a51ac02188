import DataModelStoreLayout
import Foundation

// Derived attributes of the rows batch requests write. Core Data keeps derived attributes in the store (SQL triggers
// of its SQLite store), so they follow batch inserts, updates and deletes as they follow saves; this runtime
// computes them in memory, in the batch request's own transaction, with the save's rules.

extension ManagedObjectContext {
    /// Whether any entity of the model has derived attributes (batch requests skip the work otherwise).
    var modelHasDerivedAttributes: Bool {
        runtime.entities.contains { !$0.derivedAttributes.isEmpty }
    }

    /// The rows whose derivations read one of `ids` through relationships, as stored now: what a batch delete must
    /// recompute once the rows are gone (found before, while the relationships still lead to them).
    func storedDerivationOwners(of ids: [ObjectID]) throws(StoreError) -> [ObjectID] {
        guard modelHasDerivedAttributes, !ids.isEmpty else { return [] }
        let scratch = ManagedObjectContext(coordinator: coordinator)
        return try scratch.operation { () throws(StoreError) -> [ObjectID] in
            let objects = ids.compactMap { try? scratch.existingObjectInOperation(with: $0) }
            return try scratch.derivationOwners(of: objects).map(\.objectID)
        }
    }

    /// Recomputes, inside a batch request's transaction, the derived attributes of the rows `changed` (as the batch
    /// left them) and of the rows whose derivations read them through relationships, and of `also`; writes the
    /// values that changed. Rows not in `written` (those the batch request did not write itself) get `Z_OPT` + 1,
    /// as a save's derived values do. Returns the rows whose derived values were written.
    func writeDerivedAttributes(changed: [ObjectID], also: [ObjectID] = [], written: Set<ObjectID>)
        throws(StoreError) -> [ObjectID]
    {
        guard modelHasDerivedAttributes, !changed.isEmpty || !also.isEmpty else { return [] }
        // A context of its own: the executing context's objects and unsaved changes stay out of it, and it reads
        // the rows as the transaction has them.
        let scratch = ManagedObjectContext(coordinator: coordinator)
        return try scratch.operation { () throws(StoreError) -> [ObjectID] in
            let load = { (ids: [ObjectID]) -> [ManagedObject] in
                ids.compactMap { try? scratch.existingObjectInOperation(with: $0) }
            }
            try scratch.deriveAttributes(of: load(changed), also: load(also))
            var ids: [ObjectID] = []
            for object in scratch.updatedList where object.isUpdated {
                let entity = object.entityRuntime
                let derived = entity.derivedAttributes.filter { entity.attributeColumns[$0.index] != nil }
                guard !derived.isEmpty else { continue }
                let bumps = !written.contains(object.objectID)
                let sql =
                    "UPDATE " + SQLQuoting.identifier(entity.tableName) + " SET "
                    + (derived.compactMap { entity.attributeColumns[$0.index] }.map {
                        SQLQuoting.identifier($0) + " = ?"
                    }
                    + (bumps ? [#""Z_OPT" = "Z_OPT" + 1"#] : [])).joined(separator: ", ") + #" WHERE "Z_PK" = ?"#
                let statement = try database.cachedStatement(sql)
                defer { statement.resetIgnoringErrors() }
                for (offset, attribute) in derived.enumerated() {
                    let value =
                        object.values.attributeIndices.contains(attribute.index)
                        ? object.values[attribute: attribute.index] : .null
                    try statement.bind(value, at: Int32(offset + 1))
                }
                try statement.bind(object.objectID.primaryKey, at: Int32(derived.count + 1))
                try statement.run()
                ids.append(object.objectID)
            }
            return ids
        }
    }
}
