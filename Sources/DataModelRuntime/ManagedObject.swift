import Foundation
import Observation
import Synchronization

/// What the runtime hands a ``ManagedObject`` initializer: the object's entity, ID and context.
///
/// Only the runtime creates seeds; subclasses inherit ``ManagedObject/init(_:)`` and never
/// declare initializers of their own.
public struct ObjectSeed {
    // Not retained: a seed lives only for the initializer call the runtime makes with it, while
    // the runtime holds the context and the entity. Held `Unmanaged` and read borrowed: loading an
    // `unowned(unsafe)` reference retains and releases it.
    let entityReference: Unmanaged<EntityRuntime>
    let objectID: ObjectID
    let contextReference: Unmanaged<ManagedObjectContext>
    let isFault: Bool
    /// Whether the object takes a copy of its entity's defaults of its own (an inserted object, which is set
    /// right away); otherwise it shares them until its first change, or its values are set by the caller.
    let copiesDefaults: Bool
    /// Whether the caller puts the object in its context's identity map at once, or lets it go before returning: the
    /// context then keeps what its objects share alive for it while it is in the map. Otherwise (a detached copy)
    /// the object keeps it alive itself from the start (``ManagedObject/sharesContext``).
    let isRegistered: Bool

    init(
        entity: EntityRuntime, objectID: ObjectID, context: ManagedObjectContext, isFault: Bool,
        copiesDefaults: Bool = false, isRegistered: Bool = false
    ) {
        entityReference = Unmanaged.passUnretained(entity)
        self.objectID = objectID
        contextReference = Unmanaged.passUnretained(context)
        self.isFault = isFault
        self.copiesDefaults = copiesDefaults
        self.isRegistered = isRegistered
    }
}

/// The base class of every generated model class: an object of one entity, registered in one
/// ``ManagedObjectContext``, whose properties read and write the context's copy of its row.
///
/// ```swift
/// let acme = BusinessEntity(context: context)
/// acme.name = "Acme"
/// acme.isInserted      // true until the context saves
/// ```
///
/// Objects are not `Sendable`: use them on their context's queue, and pass ``objectID`` to
/// other contexts. That includes `weak` and `unowned` references to them: the context lets go of
/// its objects when it goes, and an object only another thread could still reach then is freed.
/// Two objects are equal only when they are the same instance; a context holds exactly one
/// instance per row (its identity map).
///
/// Objects are `Observable`: reading a property inside `withObservationTracking` (or a SwiftUI
/// view) registers it, and every change to it notifies: a setter, a merge of another
/// context's save, ``ManagedObjectContext/rollback()``, or a refresh.
open class ManagedObject: Hashable, Identifiable, FetchRequestResult, CustomStringConvertible, Observable {
    // The flags first, next to each other, in four bytes, then the generated fields' null bits: eight bytes in all,
    // next to the reference counts, so that a context letting go of its objects (``ObjectTable/removeAll(sharing:)``)
    // reads one cache line of each, not two. The object's stored properties end at 72 bytes, where a generated
    // class's fields begin: an `EmployeeEntity` of the benchmarks (a string, a date, an integer and two to-ones)
    // ends at 120, and takes a 128-byte allocation, the largest the C allocator keeps on its fast lists.
    /// ``isDetached``, ``isObserved``, ``wasInsertedWhenDeleted``, ``isInvalid`` and ``sharesContext``, one bit each.
    @exclusivity(unchecked) private var rareFlags = FlagByte()
    /// Set while the object's values are the row a fetch read into the fields of its generated class
    /// (``readFields(from:)``) and not in ``values`` yet.
    @exclusivity(unchecked) var holdsFields = false
    /// Whether the object's values are not loaded yet; any access loads them.
    @exclusivity(unchecked) public internal(set) var isFault: Bool
    /// ``isInserted``, ``isUpdated`` and ``isDeleted``, one bit each.
    @exclusivity(unchecked) private var changeFlags = FlagByte()
    /// The generated fields (``readFields(from:)``) whose column was `NULL`, one bit each, numbered by the generated
    /// code: an integer, real or to-one field with a bit is a plain `Int64` or `Double`, 8 bytes where an optional
    /// takes 16. Set by ``setFieldNulls(_:)``: a stored property another module writes is checked for exclusive
    /// access at run time, at each write, whatever its attribute says.
    @exclusivity(unchecked) @usableFromInline final var fieldNulls: UInt32 = 0

    /// Set when the object left its context (see ``context``).
    var isDetached: Bool {
        @inline(__always) get { rareFlags[8] }
        @inline(__always) set { rareFlags[8] = newValue }
    }
    /// Set when the object has an observation registrar (in ``ContextShared/observations``).
    var isObserved: Bool {
        @inline(__always) get { rareFlags[16] }
        @inline(__always) set { rareFlags[16] = newValue }
    }
    /// Set when an inserted object is deleted before it was ever saved.
    var wasInsertedWhenDeleted: Bool {
        @inline(__always) get { rareFlags[1] }
        @inline(__always) set { rareFlags[1] = newValue }
    }
    /// Set once the object is no longer registered (its insertion was rolled back, its deletion saved).
    var isInvalid: Bool {
        @inline(__always) get { rareFlags[2] }
        @inline(__always) set { rareFlags[2] = newValue }
    }
    /// Set once the object keeps ``sharedReference``'s object alive itself (counted in ``ContextShared/addSharers(_:)``, uncounted when
    /// it goes): it was made outside the identity map, left it, or was still referenced when its context went.
    /// Objects that live and go inside their context's identity map never set it.
    var sharesContext: Bool {
        @inline(__always) get { rareFlags[4] }
        @inline(__always) set { rareFlags[4] = newValue }
    }

    /// Whether the object was inserted and not saved yet.
    public internal(set) var isInserted: Bool {
        @inline(__always) get { changeFlags[1] }
        @inline(__always) set { changeFlags[1] = newValue }
    }
    /// Whether the object has unsaved changes to a saved row.
    public internal(set) var isUpdated: Bool {
        @inline(__always) get { changeFlags[2] }
        @inline(__always) set { changeFlags[2] = newValue }
    }
    /// Whether the object was deleted and the deletion not saved yet.
    public internal(set) var isDeleted: Bool {
        @inline(__always) get { changeFlags[4] }
        @inline(__always) set { changeFlags[4] = newValue }
    }

    /// Not retained: ``sharedReference``'s object holds the ``ModelRuntime`` that owns every entity's runtime, so
    /// the entity lives at least as long as the object, and creating or destroying an object
    /// costs no reference counting on its entity (two atomic operations per fetched row).
    // safe: `shared.runtime` owns this entity runtime for the object's whole life.
    let entityReference: Unmanaged<EntityRuntime>
    /// The object's entity, prepared for the runtime.
    @inline(__always)
    var entityRuntime: EntityRuntime { entityReference.takeUnretainedValue() }

    /// Whether the object's entity is `entity`, compared without retaining either (a save's loops over runs of
    /// objects of one entity ask this per object).
    @inline(__always)
    final func hasEntityRuntime(_ entity: EntityRuntime?) -> Bool {
        guard let entity else { return false }
        return entityReference.toOpaque() == Unmanaged.passUnretained(entity).toOpaque()
    }
    /// What every object of the context shares (its inbox, observation probe, the model and the
    /// context itself). Not retained per object: the context holds it while the object is in its identity map, and
    /// an object that outlives that (``sharesContext``) is counted by it instead (``ContextShared/addSharers(_:)``),
    /// so that making or dropping an object costs no reference counting on it.
    /// Held `Unmanaged` and read borrowed (``withShared(_:)``): loading an `unowned(unsafe)` reference retains and
    /// releases it.
    // safe: `shared` lives while the context does, and after it while any object counted in it does.
    let sharedReference: Unmanaged<ContextShared>

    /// Calls `body` with what the object's context shares, borrowed: no reference counting.
    @inline(__always)
    final func withShared<Result>(_ body: (ContextShared) -> Result) -> Result {
        sharedReference._withUnsafeGuaranteedRef(body)
    }
    /// The object's identity: store, entity and primary key. Permanent from insertion on.
    public let objectID: ObjectID
    /// The context the object lives in; `nil` once that context is gone or the object left it.
    ///
    /// Not stored per object: the context is ``ContextShared/context`` (cleared once when the
    /// context goes away, instead of in every object), and ``isDetached`` is set when the object
    /// leaves it (``ManagedObjectContext/unregister(_:)``). Setting it to a context is setting it
    /// back to the one the object was created in (undo re-registers it).
    public internal(set) var context: ManagedObjectContext? {
        get { isDetached ? nil : withShared { $0.context } }
        set {
            precondition(
                newValue == nil || newValue === withShared({ $0.context }),
                "an object stays in the context it was made in")
            isDetached = newValue == nil
        }
    }
    /// The context the object lives in: Core Data's spelling of ``context``.
    public var managedObjectContext: ManagedObjectContext? { context }

    // Hot stored properties skip dynamic exclusivity checks: objects are confined to their
    // context's isolation domain and no accessor holds an access across a call that could
    // touch the same property.
    /// The attribute and relationship values; empty while the object is a fault, or while it holds its fetched row in
    /// the fields of its generated class (``holdsFields``), which the first use of ``values`` turns into values.
    @inline(__always)
    var values: ObjectValues {
        _read {
            if holdsFields { writeFieldsToValues() }
            yield valueBlock
        }
        _modify {
            if holdsFields { writeFieldsToValues() }
            yield &valueBlock
        }
        set {
            holdsFields = false
            valueBlock = newValue
        }
    }
    /// What ``values`` reads: only up to date while ``holdsFields`` is not set. Kept in ``state``; empty without one.
    var valueBlock: ObjectValues {
        // One `yield` each: a coroutine with two is not inlined (every read of the values would then copy them).
        @inline(__always) _read { yield readableState.pointee.values }
        @inline(__always) _modify { yield &writableState.pointee.values }
        @inline(__always) set {
            if newValue.isEmpty, state == nil { return }
            writableState.pointee.values = newValue
        }
    }
    /// The committed values, taken before the first change: for rollback, for writing only
    /// the changed columns, and for join table differences. Shares ``values``' buffer until
    /// the first change copies it. Kept in ``state``.
    var snapshot: ObjectValues? {
        @inline(__always) _read { yield readableState.pointee.snapshot }
        @inline(__always) _modify { yield &writableState.pointee.snapshot }
        @inline(__always) set {
            if newValue == nil, state == nil { return }
            writableState.pointee.snapshot = newValue
        }
    }
    /// `Z_OPT` as last read or written.
    @exclusivity(unchecked) var version: Int64 = 0
    /// The fetch batch this fault belongs to (``FetchRequest/fetchBatchSize``). Kept in ``state``.
    var faultBatch: FaultBatch? {
        @inline(__always) get { state?.pointee.faultBatch }
        @inline(__always) set {
            if newValue == nil, state == nil { return }
            writableState.pointee.faultBatch = newValue
        }
    }
    /// ``valueBlock``, ``snapshot`` and ``faultBatch``, allocated when the first of them is set and freed with the
    /// object: a fetched object that holds its row in fields (``holdsFields``) and a fault need none of them, and go
    /// without their 40 bytes. A pointer, not a class reference: reading the values through it costs no reference
    /// counting.
    @exclusivity(unchecked) private var state: UnsafeMutablePointer<ObjectState>?
    /// Whether the object has a ``state`` (for tests).
    var hasState: Bool { state != nil }
    /// ``state``, or the empty state when there is none.
    private var readableState: UnsafeMutablePointer<ObjectState> {
        @inline(__always) get { state ?? ObjectState.none }
    }
    /// ``state``, allocated first if there is none.
    private var writableState: UnsafeMutablePointer<ObjectState> {
        @inline(__always) get {
            if let state { return state }
            let address = withShared { $0.states.withLock { $0.take() } }
            guard let made = UnsafeMutablePointer<ObjectState>(bitPattern: address) else {
                preconditionFailure("the state pool handed out a null address")
            }
            made.initialize(to: ObjectState())
            state = made
            return made
        }
    }
    /// Creates an object from a runtime seed. Use ``init(context:)``.
    public required init(_ seed: ObjectSeed) {
        entityReference = seed.entityReference
        sharedReference = seed.contextReference._withUnsafeGuaranteedRef { Unmanaged.passUnretained($0.shared) }
        objectID = seed.objectID
        isFault = seed.isFault
        // An inserted object gets its own copy of the defaults at once: its first change would copy them anyway
        // (every generated object is set right after it is made), after retaining the shared defaults here and
        // failing the uniqueness check there. Objects whose values the caller sets next share them.
        if seed.isFault {
            // No values: no state (``valueBlock`` reads empty).
        } else if seed.copiesDefaults {
            valueBlock = seed.entityReference._withUnsafeGuaranteedRef { $0.insertedValues.uniqueCopy() }
        } else {
            valueBlock = seed.entityReference._withUnsafeGuaranteedRef { $0.insertedValues }
        }
        if !seed.isRegistered {
            sharesContext = true
            withShared { $0.addSharers(1) }
        }
    }

    deinit {
        if let state {
            // Moved out and dropped, not `deinitialize(count:)`: that destroys through the type's value witness.
            _ = state.move()
            let address = UInt(bitPattern: state)
            withShared { $0.states.withLock { $0.give(address: address) } }
        }
        if isObserved { withShared { $0.observations[ObjectIdentifier(self)] = nil } }
        // Last, and not borrowed: what the context shares may go with this object.
        if sharesContext { ContextShared.removeSharers(1, from: sharedReference) }
    }

    /// Makes the object keep ``sharedReference``'s object alive itself, as it leaves its context's identity map (see ``sharesContext``).
    @inline(__always)
    final func sharesContextFromNowOn() {
        guard !sharesContext else { return }
        sharesContext = true
        withShared { $0.addSharers(1) }
    }

    /// Creates an object of the class's entity and inserts it into `context`.
    ///
    /// The entity is the one whose `objectType` is this class. Attributes start at their model
    /// defaults.
    public convenience init(context: ManagedObjectContext) {
        // Borrowed, not retained for each object: the model runtime holds every entity runtime.
        guard let entity = context.entityReference(for: Self.self) else {
            preconditionFailure(
                "\(Self.self) is not the class of any entity of model '\(context.runtime.model.name)'"
                    + (Self.self == ManagedObject.self
                        ? "; for an entity without a class of its own use insertNewObject(forEntityName:)" : ""))
        }
        self.init(entity._withUnsafeGuaranteedRef { context.makeInsertionSeed(for: $0) })
        context.register(inserted: self)
        if entity._withUnsafeGuaranteedRef({ $0.callsLifecycleMethods }) { awakeFromInsert() }
    }

    // MARK: Fields (see ManagedObject+Fields.swift)

    /// The fields the class keeps a fetched row in, or `nil` for none (the default). Generated classes override it.
    open class var fieldLayout: FieldLayout? { nil }

    /// Reads the current row of a fetch into the class's fields. Generated classes override it; the runtime calls it
    /// only when ``fieldLayout`` fits the entity (``EntityRuntime/fieldColumns``).
    open func readFields(from row: FieldReader) {}

    /// Writes the class's fields into the object's values. Generated classes override it.
    open func writeFields(to writer: FieldWriter) {}

    // MARK: Lifecycle (see ManagedObject+Lifecycle.swift)

    /// Called once when the object is created in a context, after its model defaults are set: set values no
    /// model default can give here (they are the object's initial values). Does nothing by default.
    open func awakeFromInsert() {}

    /// Called each time the object's values are read from the store, once the read has finished. Changes made
    /// here leave the object unchanged (not saved, not undoable): fill transient values and caches. Does nothing by
    /// default.
    open func awakeFromFetch() {}

    /// Called on each inserted, updated or deleted object when its context saves, before validation; changes made
    /// here are saved with the rest. Does nothing by default.
    open func willSave() {}

    /// Called on each object a save wrote (inserted, updated or deleted), after the save succeeded. Does nothing
    /// by default.
    open func didSave() {}

    /// Called when the object is deleted (``ManagedObjectContext/delete(_:)``), before the delete rules apply: its
    /// relationships still hold their objects. Does nothing by default.
    open func prepareForDeletion() {}

    /// Called before the object's values are let go (it turns into a fault, or leaves its context). Does nothing by
    /// default.
    open func willTurnIntoFault() {}

    /// Called after the object's values were let go: release caches here. Does nothing by default.
    open func didTurnIntoFault() {}

    /// Called during a save for an inserted object, after the model's rules: throw to fail the save (a
    /// ``ValidationError``, e.g. ``ValidationError/init(object:property:message:)``, or any error). The model's own
    /// rules are checked by the context whatever an override does; the base implementation does nothing.
    open func validateForInsert() throws {}

    /// Called during a save for an updated object; see ``validateForInsert()``.
    open func validateForUpdate() throws {}

    /// Called during a save for a deleted object; see ``validateForInsert()``.
    open func validateForDelete() throws {}

    /// The entity's description.
    public var entity: EntityDescription { entityRuntime.description }

    /// Whether the object is inserted, updated or deleted and not saved yet.
    public var hasChanges: Bool { changeFlags.bits != 0 }

    // `Identifiable` comes with the standard library's default for classes (`ObjectIdentifier(self)`), as
    // `NSManagedObject`'s does: an entity's own `id` attribute is then an ordinary generated property, named `id`.

    /// Identity: an object equals only itself.
    public static func == (lhs: ManagedObject, rhs: ManagedObject) -> Bool { lhs === rhs }

    /// Hashes the object's identity.
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }

    /// The hash `Set` and `Dictionary` place an object by: its address, mixed with the collection's seed.
    ///
    /// `_rawHashValue(seed:)` is the requirement of `Hashable` that the standard library's hashed collections call
    /// (its default runs `hash(into:)` through a SipHash `Hasher`: about 150 instructions of the 290 it took to put
    /// an object in a `Set`; a to-many accessor builds one per read). It is underscored, but a stable part of the
    /// ABI (`Int` and the other standard types implement it). Safe here because it only has to agree with `==`,
    /// which is identity: equal objects are the same instance, so they have the same address and the same hash
    /// for any seed. The address is mixed with the seed by SplitMix64's finalizer, so the low bits a collection
    /// masks its buckets with depend on every bit of both (addresses are 16-byte aligned, and a collection of
    /// another size, hence another seed, orders its elements differently, as with `Hasher`). Unlike `Hasher` the
    /// mix is not keyed per process, which is no weakness for addresses that no outside input chooses.
    /// `hash(into:)` is unchanged for everything that hashes an object as part of a larger value; each path
    /// agrees with `==` on its own.
    public final func _rawHashValue(seed: Int) -> Int {
        var mixed = UInt64(UInt(bitPattern: ObjectIdentifier(self))) ^ UInt64(UInt(bitPattern: seed))
        mixed = (mixed ^ (mixed &>> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed &>> 27)) &* 0x94D0_49BB_1331_11EB
        return Int(truncatingIfNeeded: mixed ^ (mixed &>> 31))
    }

    /// `<Entity x-datamodel://…/Entity/p1>` and the state.
    open var description: String {
        var flags: [String] = []
        if isFault { flags.append("fault") }
        if isInserted { flags.append("inserted") }
        if isUpdated { flags.append("updated") }
        if isDeleted { flags.append("deleted") }
        return "<\(entityRuntime.name) \(objectID)\(flags.isEmpty ? "" : " " + flags.joined(separator: ", "))>"
    }

    // MARK: State changes

    /// Loads the object's row if it is a fault.
    final func fireFaultIfNeeded() {
        guard isFault else { return }
        if let context {
            context.fulfillFault(self)
        } else {
            values = ObjectValues(
                attributes: entityRuntime.attributes.map { _ in .null },
                relationships: entityRuntime.relationships.map { $0.isToMany ? .toManyFault : .toOne(nil) })
            isFault = false
        }
    }

    // MARK: Observation

    /// Registers an access to property `index` (attributes first, then relationships) with
    /// the tracking in progress, and merges other contexts' waiting changes first.
    @inline(__always)
    final func willAccess(property index: Int) {
        if withShared({ $0.inbox.hasPending }) { context?.mergeWaitingChangesIfIdle() }
        if isObserved, let box = observation {
            box.registrar.access(self, keyPath: entityRuntime.observationKeyPaths[index])
            return
        }
        // Borrowed: `shared` holds the probe for the object's whole life (no retain and release per read).
        guard withShared({ Unmanaged.passUnretained($0.probe) })._withUnsafeGuaranteedRef({ $0.isTracking(self) })
        else { return }
        let box = ObservationBox()
        withShared { $0.observations[ObjectIdentifier(self)] = box }
        isObserved = true
        box.registrar.access(self, keyPath: entityRuntime.observationKeyPaths[index])
    }

    /// The object's observation registrar, created on the first property access inside an
    /// observation tracking: objects nobody observes cost nothing (a flag, no field). Boxed: the
    /// registrar's layout is resilient, so checking an inline optional would copy it through
    /// its value witnesses on every access.
    @inline(__always)
    private var observation: ObservationBox? {
        isObserved ? withShared { $0.observations[ObjectIdentifier(self)] } : nil
    }

    /// Tells observers of property `index` that it is about to change.
    @inline(__always)
    final func willChangeObserved(property index: Int) {
        guard let box = observation else { return }
        box.registrar.willSet(self, keyPath: entityRuntime.observationKeyPaths[index])
    }

    /// Tells observers of property `index` that it changed.
    @inline(__always)
    final func didChangeObserved(property index: Int) {
        guard let box = observation else { return }
        box.registrar.didSet(self, keyPath: entityRuntime.observationKeyPaths[index])
    }

    final func willChangeObserved(relationship index: Int) {
        willChangeObserved(property: entityRuntime.attributes.count + index)
    }

    final func didChangeObserved(relationship index: Int) {
        didChangeObserved(property: entityRuntime.attributes.count + index)
    }

    final func willChangeAllObserved() {
        guard observation != nil else { return }
        for index in entityRuntime.observationKeyPaths.indices { willChangeObserved(property: index) }
    }

    final func didChangeAllObserved() {
        guard observation != nil else { return }
        for index in entityRuntime.observationKeyPaths.indices { didChangeObserved(property: index) }
    }

    /// Replaces every value, notifying observers of the properties whose values differ.
    final func replaceObserved(_ newValues: ObjectValues) {
        guard observation != nil, !isFault else {
            values = newValues
            isFault = false
            return
        }
        let attributeCount = entityRuntime.attributes.count
        var changed: [Int] = []
        for index in newValues.attributeIndices
        where !values.attributeIndices.contains(index) || values[attribute: index] != newValues[attribute: index] {
            changed.append(index)
        }
        for index in newValues.relationshipIndices
        where !values.relationshipIndices.contains(index)
            || values[relationship: index] != newValues[relationship: index]
        {
            changed.append(attributeCount + index)
        }
        for index in changed { willChangeObserved(property: index) }
        values = newValues
        for index in changed { didChangeObserved(property: index) }
    }

    /// Sets relationship `index`'s value, notifying observers.
    @inline(__always)
    final func setRelationshipValue(_ value: RelationshipValue, at index: Int) {
        willChangeObserved(relationship: index)
        values[relationship: index] = value
        didChangeObserved(relationship: index)
    }

    /// A stand-in for each property in the observation registrar's key paths.
    public final subscript(observedProperty index: Int) -> Int { index }

    /// The stand-in property of a context's observation probe.
    final subscript(observationProbe token: ObservationProbe.Token) -> Int { 0 }

    /// Called before any change: loads the row, remembers the committed state, and marks the
    /// object updated.
    final func willChange() {
        if isFault { fireFaultIfNeeded() }
        // In `awakeFromFetch()`: values are set, nothing is recorded.
        if withShared({ $0.suspendsChangeProcessing }) { return }
        // The flag first: the context is loaded (and retained) only when it records undo.
        if withShared({ $0.recordsUndo }), let context { context.noteUndoableChange(self) }
        if isInserted || isDeleted || isInvalid { return }
        if snapshot == nil { snapshot = values }
        if !isUpdated {
            isUpdated = true
            context?.register(updated: self)
        }
    }
}

@available(*, unavailable, message: "A ManagedObject belongs to its context's queue; pass its objectID instead.")
extension ManagedObject: @unchecked Sendable {}

// MARK: - Attribute accessors

extension ManagedObject {
    /// The value of the attribute `key` (model spelling), or `nil` when it has none.
    ///
    /// Generated properties call this: `get { value(for: "name") }`.
    @inlinable
    public final func value<T: StorableValue>(for key: String) -> T? {
        T.storedValue(of: self, for: key)
    }

    /// The value of the non-optional attribute `key`; ``StorableValue/emptyValue`` while unset.
    @inlinable
    public final func value<T: StorableValue>(for key: String) -> T {
        (value(for: key) as T?) ?? T.emptyValue
    }

    /// Sets the attribute `key` (model spelling); `nil` clears it.
    @inlinable
    public final func setValue<T: StorableValue>(_ value: T?, for key: String) {
        setPrimitiveValue(value?.primitiveValue ?? .null, for: key)
    }

    /// Sets the non-optional attribute `key`.
    @inlinable
    public final func setValue<T: StorableValue>(_ value: T, for key: String) {
        setPrimitiveValue(value.primitiveValue, for: key)
    }

    /// The stored form of attribute `key`.
    public final func primitiveValue(for key: String) -> PrimitiveValue {
        guard let slot = accessedAttributeSlot(key) else { return .null }
        return slot.attribute
    }

    /// Attribute `key` as text, read in place: what `String(primitiveValue: primitiveValue(for: key))` gives,
    /// without building the ``PrimitiveValue`` for text (the generated `String` properties read through this).
    public final func textValue(for key: String) -> String? {
        guard let slot = accessedAttributeSlot(key) else { return nil }
        if slot.tag.pointee == 3 { return slot.payload.assumingMemoryBound(to: String.self).pointee }
        return String(primitiveValue: slot.attribute)
    }

    /// Attribute `key` as an integer, read in place: what `primitiveValue(for: key)`'s integer reading gives
    /// (numbers and numeric text), for the generated integer and `Bool` properties.
    public final func integerValue(for key: String) -> Int64? {
        guard let slot = accessedAttributeSlot(key) else { return nil }
        if slot.tag.pointee == 1 { return slot.payload.load(as: Int64.self) }
        return slot.attribute.integer
    }

    /// Attribute `key` as a double, read in place (numbers and numeric text), for the generated `Double`,
    /// `Float` and `Date` properties.
    public final func realValue(for key: String) -> Double? {
        guard let slot = accessedAttributeSlot(key) else { return nil }
        if slot.tag.pointee == 2 { return slot.payload.load(as: Double.self) }
        return slot.attribute.real
    }

    /// The slot of attribute `key` after registering the access and firing the fault: to be read at once (no
    /// change of the object in between); `nil` when the entity has no such attribute or the object has no values.
    @inline(__always)
    private func accessedAttributeSlot(_ key: String) -> ObjectValueSlot? {
        // The entity borrowed, not retained: `shared` keeps it alive.
        guard let index = entityReference._withUnsafeGuaranteedRef({ $0.attributeIndex(key) }) else { return nil }
        willAccess(property: index)
        if isFault { fireFaultIfNeeded() }
        // One bounds check, in place.
        return values.attributeSlotIfPresent(index)
    }

    /// Sets the stored form of attribute `key`.
    public final func setPrimitiveValue(_ value: PrimitiveValue, for key: String) {
        // The entity borrowed, not retained: `shared` keeps it alive.
        guard let index = entityReference._withUnsafeGuaranteedRef({ $0.attributeIndex(key) }) else { return }
        if withShared({ $0.inbox.hasPending }) { context?.mergeWaitingChangesIfIdle() }
        willChange()
        guard values.attributeIndices.contains(index) else { return }
        willChangeObserved(property: index)
        values[attribute: index] = value
        didChangeObserved(property: index)
    }

    /// The `Codable` value of the transformable attribute `key`, or `nil`.
    ///
    /// Reads both stored forms: the runtime's JSON, and the `NSKeyedArchiver` archive Core Data's default
    /// transformer (`NSSecureUnarchiveFromData`) writes, for values of Foundation's types (see
    /// ``archivedValue(for:)``): an archived `NSArray` of strings reads as `[String]`, a dictionary as a `Codable`
    /// struct with those keys.
    public final func transformableValue<T: Codable>(for key: String) -> T? {
        decodedValue(T.self, for: key)
    }

    private func decodedValue<T: Codable>(_ type: T.Type, for key: String) -> T? {
        guard case .blob(let data) = primitiveValue(for: key) else { return nil }
        if KeyedArchive.isArchive(data) {
            return KeyedArchive.decode(data).flatMap { KeyedArchive.cast($0, to: T.self) }
        }
        return try? JSONDecoder().decode(T.self, from: data)
    }

    /// Sets the transformable attribute `key` to `value` encoded as JSON; `nil` clears it.
    ///
    /// A value equal to what the attribute holds (same JSON) changes nothing: an archive Core Data wrote stays
    /// byte for byte when its value is written back unchanged. (To write an archive, see
    /// ``setArchivedValue(_:for:)``.)
    public final func setTransformableValue<T: Codable>(_ value: T?, for key: String) {
        guard let value else {
            setPrimitiveValue(.null, for: key)
            return
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = (try? encoder.encode(value)) ?? Data()
        if case .blob(let stored) = primitiveValue(for: key) {
            if KeyedArchive.isArchive(stored), let current = decodedValue(T.self, for: key),
                (try? encoder.encode(current)) == data
            {
                return
            }
        }
        setPrimitiveValue(.blob(data), for: key)
    }
}

/// What a context's objects share, behind the one reference each holds.
final class ContextShared {
    /// The model's runtime, which owns every entity runtime: held here so that objects can keep
    /// their ``ManagedObject/entityRuntime`` without retaining it.
    let runtime: ModelRuntime
    /// The context's inbox: checked on property access, so changes other contexts saved are
    /// merged before a value is read.
    let inbox = ChangeInbox()
    /// The context's observation probe: tells whether a property access happens inside an
    /// observation tracking.
    let probe = ObservationProbe()
    /// The context, not retained (it owns its objects): set when it is made, cleared when it
    /// goes away, so that no object needs a reference of its own.
    @exclusivity(unchecked) unowned(unsafe) var context: ManagedObjectContext? {
        didSet { hasContext = context != nil }
    }
    /// Whether ``context`` is set: tested without loading the context (even a `nil` test of an `unowned(unsafe)`
    /// reference retains and releases it).
    @exclusivity(unchecked) private(set) var hasContext = false
    /// Whether the context has an undo manager (``ManagedObjectContext/undoManager``): read by every change of
    /// every object, without loading (and retaining) the context.
    @exclusivity(unchecked) var recordsUndo = false
    /// Set while objects run `awakeFromFetch()`: their changes are not recorded (``ManagedObject/willChange()``).
    @exclusivity(unchecked) var suspendsChangeProcessing = false
    /// Where objects of the context put their values when they turn their fields into values
    /// (``ManagedObject/writeFieldsToValues()``): blocks of shared buffers, as a fetch's, so that the first change of
    /// each of many fetched objects costs one allocation (its own copy), not two.
    @exclusivity(unchecked) var fieldArena = ObjectValueArena()
    /// Where the context's objects keep their ``ObjectState``: taken at an object's first change (or insertion),
    /// given back when it goes, on whatever thread that is (objects that outlive their context keep this alive).
    let states = Mutex(ObjectStatePool())
    /// The registrars of the objects observed so far (``ManagedObject/isObserved``), removed when
    /// an object goes away.
    @exclusivity(unchecked) var observations: [ObjectIdentifier: ObservationBox] = [:]

    /// How many objects keep this alive themselves (``ManagedObject/sharesContext``); while any does, this holds one
    /// reference to itself for them all. An object in its context's identity map is not counted: the context holds
    /// this, and the map the object. So the objects a fetch makes and drops cost no reference counting on this, and
    /// the objects that outlive their context cost one atomic operation each, when they go.
    private let sharers = Atomic<Int>(0)

    /// `count` more objects keep this alive. Called by the context (on its queue) while it still holds this.
    func addSharers(_ count: Int) {
        guard count > 0 else { return }
        if sharers.add(count, ordering: .acquiringAndReleasing).oldValue == 0 {
            _ = Unmanaged.passUnretained(self).retain()
        }
    }

    /// How many objects keep this alive now (for tests).
    var sharerCount: Int { sharers.load(ordering: .acquiring) }

    /// `count` objects counted by ``addSharers(_:)`` went (an object's `deinit`, on any thread), or were counted ahead
    /// and did not become sharers (the context, as it goes). Static, on an unretained reference: the call may free
    /// what it is given.
    static func removeSharers(_ count: Int, from shared: Unmanaged<ContextShared>) {
        guard count > 0 else { return }
        let isLast = shared._withUnsafeGuaranteedRef {
            $0.sharers.subtract(count, ordering: .acquiringAndReleasing).newValue == 0
        }
        if isLast { shared.release() }
    }

    init(runtime: ModelRuntime) { self.runtime = runtime }
}

/// An object's observation registrar, behind one reference.
final class ObservationBox {
    let registrar = ObservationRegistrar()
}

/// Eight flags in a byte, each read and written by its bit (``ManagedObject``'s rare and change flags).
struct FlagByte {
    var bits: UInt8 = 0

    @inline(__always)
    subscript(bit: UInt8) -> Bool {
        get { bits & bit != 0 }
        set { bits = newValue ? bits | bit : bits & ~bit }
    }
}

/// Tells, per context, whether a property access happens inside `withObservationTracking` (or
/// any other observation tracking) without giving the object a registrar of its own.
///
/// The probe's registrar is told about an access to a key path whose subscript argument is a
/// ``Token``. A tracking in progress records that key path in a set, hashing it, and hashing
/// the token sets ``hit``; outside any tracking nothing is recorded. The probe belongs to one
/// context, used from one isolation domain, like the objects that call it.
final class ObservationProbe {
    /// The key path's argument: hashing it marks the probe.
    struct Token: Hashable {
        unowned let probe: ObservationProbe

        static func == (lhs: Token, rhs: Token) -> Bool { lhs.probe === rhs.probe }

        func hash(into hasher: inout Hasher) {
            probe.hit = true
            hasher.combine(ObjectIdentifier(probe))
        }
    }

    private let registrar = ObservationRegistrar()
    fileprivate var hit = false
    private var keyPath: KeyPath<ManagedObject, Int>?
    /// ``keyPath``, borrowed for each read without reference counting (``keyPath`` holds it).
    private var keyPathReference: Unmanaged<KeyPath<ManagedObject, Int>>?

    /// Whether `object`'s property is being read inside an observation tracking.
    @inline(__always)
    func isTracking(_ object: ManagedObject) -> Bool {
        hit = false
        if let reference = keyPathReference {
            // Borrowed, not copied: no reference counting on the key path per property read.
            reference._withUnsafeGuaranteedRef { registrar.access(object, keyPath: $0) }
        } else {
            let keyPath = \ManagedObject.[observationProbe: Token(probe: self)]
            self.keyPath = keyPath
            keyPathReference = Unmanaged.passUnretained(keyPath)
            registrar.access(object, keyPath: keyPath)
        }
        return hit
    }
}
