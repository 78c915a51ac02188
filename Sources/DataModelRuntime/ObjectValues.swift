import Foundation

/// An object's attribute values and relationship values, in one allocation.
///
/// A fetched object used to carry two arrays (its attribute values and its relationship
/// values): two allocations and two deallocations per row on top of the object itself. Here
/// both live in one buffer, attributes first, relationships after them, each a tag byte and a
/// 16-byte payload (``ObjectValueStorage``).
///
/// Copy-on-write, like the arrays it replaces: a snapshot (``ManagedObject/snapshot``) or a
/// ``StoredRow`` shares the buffer until either side changes. Indices are the entity's attribute
/// and relationship indices; an index out of range traps, as an array's does. Empty values (a
/// fault's) need no buffer at all.
struct ObjectValues {
    private var storage: ObjectValueStorage?
    /// Where this object's values start in ``storage`` (its block; `nil` with no storage).
    private var block: UnsafeMutableRawPointer?

    /// No values: a fault's, until its row is read.
    init() {
        storage = nil
        block = nil
    }

    /// Values copied from lists (cold paths: defaults, merges, conflicts).
    init(attributes: [PrimitiveValue], relationships: [RelationshipValue]) {
        self.init(attributeCount: attributes.count, relationshipCount: relationships.count) { writer in
            for (index, value) in attributes.enumerated() { writer.initialize(attribute: index, to: value) }
            for (index, value) in relationships.enumerated() { writer.initialize(relationship: index, to: value) }
        }
    }

    /// Values built in place: `body` gets a writer for `attributeCount` attribute values, all
    /// `null` until it sets them, and `relationshipCount` relationship values, all `toOne(nil)`
    /// until it sets them (it is not called when both counts are 0). It sets each value at most
    /// once.
    @inline(__always)
    init(attributeCount: Int, relationshipCount: Int, initializingWith body: (ObjectValueWriter) -> Void) {
        guard attributeCount > 0 || relationshipCount > 0 else {
            storage = nil
            block = nil
            return
        }
        let (storage, block) = ObjectValueStorage.makeClaimingFirst(
            attributeCount: attributeCount, relationshipCount: relationshipCount)
        // `storage` is alive while `body` writes through the writer: it is used after it.
        body(storage.writer(block))
        self.storage = storage
        self.block = block
    }

    /// Values built in place in the next block of `arena` (see ``ObjectValueArena``), as
    /// ``init(attributeCount:relationshipCount:initializingWith:)`` builds them in a buffer of their own.
    @inline(__always)
    init(
        attributeCount: Int, relationshipCount: Int, in arena: inout ObjectValueArena,
        initializingWith body: (ObjectValueWriter) -> Void
    ) {
        guard attributeCount > 0 || relationshipCount > 0 else {
            storage = nil
            block = nil
            return
        }
        let (storage, block) = arena.claim(attributeCount: attributeCount, relationshipCount: relationshipCount)
        body(storage.writer(block))
        self.storage = storage
        self.block = block
    }

    /// A copy of these values in a buffer of its own (not shared with these).
    func uniqueCopy() -> ObjectValues {
        var copy = ObjectValues()
        guard let storage, let block else { return copy }
        let copied = storage.copy(block)
        copy.storage = copied.storage
        copy.block = copied.block
        return copy
    }

    /// How many attribute values there are (0 for a fault).
    var attributeCount: Int { storage?.attributeCount ?? 0 }
    /// How many relationship values there are (0 for a fault).
    var relationshipCount: Int { storage?.relationshipCount ?? 0 }
    /// The valid attribute indices.
    var attributeIndices: Range<Int> { 0..<attributeCount }
    /// The valid relationship indices.
    var relationshipIndices: Range<Int> { 0..<relationshipCount }
    /// Whether there are no values at all (a fault's).
    var isEmpty: Bool { storage == nil }

    /// The value of attribute `index`.
    subscript(attribute index: Int) -> PrimitiveValue {
        get {
            guard let storage, let block else { preconditionFailure("attribute index out of range") }
            return storage.attributeSlot(index, block).attribute
        }
        set {
            makeUnique()
            let slot = borrowedAttributeSlot(index)
            slot.deinitializeAttribute()
            slot.initialize(attribute: newValue)
        }
    }

    /// The value of relationship `index`.
    subscript(relationship index: Int) -> RelationshipValue {
        get {
            guard let storage, let block else { preconditionFailure("relationship index out of range") }
            return storage.relationshipSlot(index, block).relationship
        }
        set {
            makeUnique()
            let slot = borrowedRelationshipSlot(index)
            slot.deinitializeRelationship()
            slot.initialize(relationship: newValue)
        }
    }

    /// The slot of attribute `index`, read through the buffer this value holds (borrowed, not retained: the
    /// slot is valid only while this value holds the buffer unchanged): for writes after ``makeUnique()``, and
    /// for a save's binds, which read each value in place.
    @inline(__always)
    func borrowedAttributeSlot(_ index: Int) -> ObjectValueSlot {
        guard let storage, let block else { preconditionFailure("attribute index out of range") }
        return storage.attributeSlot(index, block)
    }

    /// The slot of relationship `index` (see ``borrowedAttributeSlot(_:)``).
    @inline(__always)
    func borrowedRelationshipSlot(_ index: Int) -> ObjectValueSlot {
        guard let storage, let block else { preconditionFailure("relationship index out of range") }
        return storage.relationshipSlot(index, block)
    }

    /// Whether attribute `index` has the same value here and in `other`, read in place: the same tag and payload
    /// bytes (a text or blob the same buffer) say so without building either value; other bytes are compared as
    /// values. Both must have the attribute.
    @inline(__always)
    func attributeEquals(_ index: Int, in other: ObjectValues) -> Bool {
        let mine = borrowedAttributeSlot(index)
        let theirs = other.borrowedAttributeSlot(index)
        if mine.holdsSameAttributeBytes(as: theirs) { return true }
        return mine.holdsEqualAttribute(to: theirs)
    }

    /// Whether relationship `index` has the same value here and in `other` (see ``attributeEquals(_:in:)``).
    @inline(__always)
    func relationshipEquals(_ index: Int, in other: ObjectValues) -> Bool {
        let mine = borrowedRelationshipSlot(index)
        let theirs = other.borrowedRelationshipSlot(index)
        if mine.holdsSameRelationshipBytes(as: theirs) { return true }
        return mine.holdsEqualRelationship(to: theirs)
    }

    /// The value of attribute `index`, or `.null` when there is no such attribute (a fault's
    /// empty values): one read of the buffer, without copying the buffer reference.
    @inline(__always)
    func attributeIfPresent(_ index: Int) -> PrimitiveValue {
        attributeSlotIfPresent(index)?.attribute ?? .null
    }

    /// The slot of attribute `index`, or `nil` when there is no such attribute (a fault's empty values); valid
    /// until the values change.
    @inline(__always)
    func attributeSlotIfPresent(_ index: Int) -> ObjectValueSlot? {
        guard let storage, let block else { return nil }
        return storage.attributeSlotIfPresent(index, block)
    }

    /// Whether relationship `index` holds a to-one value (with a destination or none), read in place.
    @inline(__always)
    func holdsToOne(_ index: Int) -> Bool {
        guard let storage, let block else { return false }
        return storage.relationshipSlot(index, block).tag.pointee <= 1
    }

    /// The destination of the to-one relationship `index`, read in place; `nil` when it has none (or
    /// holds a to-many).
    @inline(__always)
    func toOneID(_ index: Int) -> ObjectID? {
        guard let storage, let block else { return nil }
        let slot = storage.relationshipSlot(index, block)
        return slot.tag.pointee == 1 ? slot.payload.load(as: ObjectID.self) : nil
    }

    /// Sets relationship `index` to `.toOne(id)` in place: what `self[relationship: index] = .toOne(id)`
    /// does, without building the enum and copying it through the slot.
    @inline(__always)
    mutating func setToOne(_ index: Int, _ id: ObjectID?) {
        makeUnique()
        let slot = borrowedRelationshipSlot(index)
        slot.deinitializeRelationship()
        if let id {
            slot.payload.storeBytes(of: id, as: ObjectID.self)
            slot.tag.pointee = 1
        }
    }

    /// Whether relationship `index` is a to-many not loaded yet (read in place, no copy).
    func isToManyFault(_ index: Int) -> Bool {
        guard let storage, let block else { return false }
        return storage.relationshipSlot(index, block).tag.pointee == 2
    }

    /// Whether relationship `index` is a loaded to-many (read in place, no copy).
    func isLoadedToMany(_ index: Int) -> Bool {
        guard let storage, let block, index >= 0 && index < storage.relationshipCount else { return false }
        return storage.relationshipSlot(index, block).tag.pointee == 3
    }

    /// Whether the loaded to-many `index` holds `id`, read in place (no copy of the list);
    /// `nil` when relationship `index` holds no loaded list.
    func toManyContains(_ index: Int, _ id: ObjectID) -> Bool? {
        guard let storage, let block else { return nil }
        let slot = storage.relationshipSlot(index, block)
        guard slot.tag.pointee == 3 else { return nil }
        return slot.payload.assumingMemoryBound(to: ObjectIDList.self).pointee.contains(id)
    }

    /// Calls `body` with the loaded to-many list of relationship `index`, mutated in place (the
    /// list stays in the buffer, uniquely referenced, and is not copied). Returns `nil` without
    /// calling `body` when there is no loaded list.
    mutating func modifyToMany<Result>(_ index: Int, _ body: (inout ObjectIDList) -> Result) -> Result? {
        guard relationshipIndices.contains(index) else { return nil }
        makeUnique()
        // Borrowed, not retained: `self` holds the buffer, and `body` (a list mutation) cannot reach `self`, to
        // which this call has exclusive access.
        let slot = borrowedRelationshipSlot(index)
        guard slot.tag.pointee == 3 else { return nil }
        return body(&slot.payload.assumingMemoryBound(to: ObjectIDList.self).pointee)
    }

    /// The attribute values, as a list.
    var attributes: [PrimitiveValue] { attributeIndices.map { self[attribute: $0] } }
    /// The relationship values, as a list.
    var relationships: [RelationshipValue] { relationshipIndices.map { self[relationship: $0] } }

    /// Copies the values into a buffer of their own when another value shares theirs (a
    /// snapshot, or the other objects of a fetch: see ``ObjectValueArena``).
    private mutating func makeUnique() {
        guard !isKnownUniquelyReferenced(&storage), let shared = storage, let block else { return }
        let copy = shared.copy(block)
        storage = copy.storage
        self.block = copy.block
    }
}

/// The head of an ``ObjectValueStorage``: the value counts of each block, how many blocks it
/// has room for and how many are handed out. 32-bit, so the header takes 16 bytes.
struct ObjectValueCounts {
    let attributeCount: Int32
    let relationshipCount: Int32
    let blockCapacity: Int32
    var usedBlocks: Int32
}

/// Where one value of an ``ObjectValueStorage`` lives: its tag byte and its 16-byte payload.
///
/// Attribute tags: 0 `null`, 1 `integer` (an `Int64`), 2 `real` (a `Double`), 3 `text` (a
/// `String`), 4 `blob` (a `Data`). Relationship tags: 0 `toOne(nil)`, 1 `toOne(id)` (an
/// ``ObjectID``), 2 `toManyFault`, 3 `toMany` (an ``ObjectIDList``). Tag 0 needs no payload, so a
/// buffer whose tags are zeroed holds valid values (all `null` and `toOne(nil)`).
struct ObjectValueSlot {
    let tag: UnsafeMutablePointer<UInt8>
    let payload: UnsafeMutableRawPointer

    /// Whether `other`, another attribute's slot, holds the same tag and payload bytes: then both hold the same
    /// value (the same number, or the same text or blob representation).
    @inline(__always)
    func holdsSameAttributeBytes(as other: ObjectValueSlot) -> Bool {
        guard tag.pointee == other.tag.pointee else { return false }
        switch tag.pointee {
        case 0: return true
        case 1, 2: return payload.load(as: UInt64.self) == other.payload.load(as: UInt64.self)
        default: return payload.load(as: (UInt64, UInt64).self) == other.payload.load(as: (UInt64, UInt64).self)
        }
    }

    /// Whether `other`, another attribute's slot, holds an equal value (the comparison of values, out of line).
    @inline(never)
    func holdsEqualAttribute(to other: ObjectValueSlot) -> Bool { attribute == other.attribute }

    /// Whether `other`, another relationship's slot, holds an equal value (the comparison of values, out of line).
    @inline(never)
    func holdsEqualRelationship(to other: ObjectValueSlot) -> Bool { relationship == other.relationship }

    /// Whether `other`, another relationship's slot, holds the same tag and payload bytes (see
    /// ``holdsSameAttributeBytes(as:)``): the same destination ID, or the same list buffer.
    @inline(__always)
    func holdsSameRelationshipBytes(as other: ObjectValueSlot) -> Bool {
        guard tag.pointee == other.tag.pointee else { return false }
        switch tag.pointee {
        case 1: return payload.load(as: (UInt64, UInt64).self) == other.payload.load(as: (UInt64, UInt64).self)
        case 3: return payload.load(as: UInt.self) == other.payload.load(as: UInt.self)
        default: return true
        }
    }

    /// The attribute value held here.
    @inline(__always)
    var attribute: PrimitiveValue {
        switch tag.pointee {
        case 1: .integer(payload.load(as: Int64.self))
        case 2: .real(payload.load(as: Double.self))
        case 3: .text(payload.assumingMemoryBound(to: String.self).pointee)
        case 4: .blob(payload.assumingMemoryBound(to: Data.self).pointee)
        default: .null
        }
    }

    /// Stores `value` into an empty slot (tag 0, or one just deinitialized).
    @inline(__always)
    func initialize(attribute value: consuming PrimitiveValue) {
        // Consumed: a text or blob moves into the slot (no retain here and release by the caller).
        switch consume value {
        case .null:
            tag.pointee = 0
        case .integer(let integer):
            payload.storeBytes(of: integer, as: Int64.self)
            tag.pointee = 1
        case .real(let real):
            payload.storeBytes(of: real, as: Double.self)
            tag.pointee = 2
        case .text(let text):
            payload.initializeMemory(as: String.self, to: text)
            tag.pointee = 3
        case .blob(let data):
            payload.initializeMemory(as: Data.self, to: data)
            tag.pointee = 4
        }
    }

    /// Releases the attribute value held here; the slot is empty (tag 0) after.
    @inline(__always)
    func deinitializeAttribute() {
        switch tag.pointee {
        case 3: payload.assumingMemoryBound(to: String.self).deinitialize(count: 1)
        case 4: payload.assumingMemoryBound(to: Data.self).deinitialize(count: 1)
        default: break
        }
        tag.pointee = 0
    }

    /// The relationship value held here.
    @inline(__always)
    var relationship: RelationshipValue {
        switch tag.pointee {
        case 1: .toOne(payload.load(as: ObjectID.self))
        case 2: .toManyFault
        case 3: .toMany(payload.assumingMemoryBound(to: ObjectIDList.self).pointee)
        default: .toOne(nil)
        }
    }

    /// Stores `value` into an empty slot.
    @inline(__always)
    func initialize(relationship value: consuming RelationshipValue) {
        switch consume value {
        case .toOne(nil):
            tag.pointee = 0
        case .toOne(let id?):
            payload.storeBytes(of: id, as: ObjectID.self)
            tag.pointee = 1
        case .toManyFault:
            tag.pointee = 2
        case .toMany(let list):
            payload.initializeMemory(as: ObjectIDList.self, to: list)
            tag.pointee = 3
        }
    }

    /// Releases the relationship value held here; the slot is empty (tag 0) after.
    @inline(__always)
    func deinitializeRelationship() {
        if tag.pointee == 3 { payload.assumingMemoryBound(to: ObjectIDList.self).deinitialize(count: 1) }
        tag.pointee = 0
    }
}

/// Writes the values of a new ``ObjectValues`` in place (see
/// ``ObjectValues/init(attributeCount:relationshipCount:initializingWith:)``): valid only inside
/// that initializer's body, while the buffer it writes is alive.
struct ObjectValueWriter {
    fileprivate let tags: UnsafeMutablePointer<UInt8>
    fileprivate let payloads: UnsafeMutableRawPointer
    fileprivate let attributeCount: Int
    fileprivate let relationshipCount: Int

    /// Sets attribute `index` (every value starts `null`).
    @inline(__always)
    func initialize(attribute index: Int, to value: consuming PrimitiveValue) {
        precondition(index >= 0 && index < attributeCount, "attribute index out of range")
        ObjectValueSlot(tag: tags + index, payload: payloads + 16 * index).initialize(attribute: consume value)
    }

    /// Sets attribute `index` to `integer(value)`, without building a ``PrimitiveValue`` first.
    @inline(__always)
    func initialize(attribute index: Int, integer value: Int64) {
        precondition(index >= 0 && index < attributeCount, "attribute index out of range")
        (payloads + 16 * index).storeBytes(of: value, as: Int64.self)
        tags[index] = 1
    }

    /// Sets attribute `index` to `real(value)`.
    @inline(__always)
    func initialize(attribute index: Int, real value: Double) {
        precondition(index >= 0 && index < attributeCount, "attribute index out of range")
        (payloads + 16 * index).storeBytes(of: value, as: Double.self)
        tags[index] = 2
    }

    /// Sets attribute `index` to `text(value)`.
    @inline(__always)
    func initialize(attribute index: Int, text value: consuming String) {
        precondition(index >= 0 && index < attributeCount, "attribute index out of range")
        (payloads + 16 * index).initializeMemory(as: String.self, to: value)
        tags[index] = 3
    }

    /// Sets attribute `index` to `blob(value)`.
    @inline(__always)
    func initialize(attribute index: Int, blob value: consuming Data) {
        precondition(index >= 0 && index < attributeCount, "attribute index out of range")
        (payloads + 16 * index).initializeMemory(as: Data.self, to: value)
        tags[index] = 4
    }

    /// Sets relationship `index` (every value starts `toOne(nil)`).
    @inline(__always)
    func initialize(relationship index: Int, to value: consuming RelationshipValue) {
        precondition(index >= 0 && index < relationshipCount, "relationship index out of range")
        let position = attributeCount + index
        ObjectValueSlot(tag: tags + position, payload: payloads + 16 * position).initialize(relationship: consume value)
    }
}

/// The buffer of ``ObjectValues``: a header with the counts, then one or more blocks of the
/// same shape, each the values of one object: one tag byte per value (attributes, then
/// relationships; rounded up to whole words), then a 16-byte payload per value.
///
/// A value is a tag and 16 bytes instead of a ``PrimitiveValue`` (17 bytes, a 24-byte stride)
/// or a ``RelationshipValue`` (likewise): an `EmployeeEntity`'s three attributes and two to-ones
/// take an 88-byte block instead of 152 bytes. Payloads are bound to their value's type
/// (`String`, `Data`, ``ObjectIDList``) when a value is stored, and read through the tag;
/// trivial ones (`Int64`, `Double`, ``ObjectID``) are stored as bytes. Only
/// ``attributeSlot(_:_:)`` and ``relationshipSlot(_:_:)`` hand out pointers, each bounds-checked.
///
/// An inserted or changed object's values have a buffer of one block; a fetch puts the values
/// of many objects in one buffer (``ObjectValueArena``): one allocation and one deallocation
/// for many rows instead of one per row.
final class ObjectValueStorage: ManagedBuffer<ObjectValueCounts, UInt64> {
    /// The number of words of tag bytes for `count` values.
    @inline(__always)
    fileprivate static func tagWords(_ count: Int) -> Int { (count &+ 7) &>> 3 }

    /// The number of words of one block of `count` values.
    @inline(__always)
    fileprivate static func blockWords(_ count: Int) -> Int { tagWords(count) &+ 2 &* count }

    /// A buffer with room for `blocks` blocks of the counts given; none handed out yet.
    static func make(attributeCount: Int, relationshipCount: Int, blocks: Int = 1) -> ObjectValueStorage {
        precondition(attributeCount + relationshipCount < Int(Int32.max), "too many properties")
        precondition(blocks > 0 && blocks < Int(Int32.max), "block count out of range")
        let buffer = create(minimumCapacity: blockWords(attributeCount + relationshipCount) * blocks) { _ in
            ObjectValueCounts(
                attributeCount: Int32(truncatingIfNeeded: attributeCount),
                relationshipCount: Int32(truncatingIfNeeded: relationshipCount),
                blockCapacity: Int32(truncatingIfNeeded: blocks), usedBlocks: 0)
        }
        // safe: `create` called on this subclass makes an instance of it.
        return unsafeDowncast(buffer, to: ObjectValueStorage.self)
    }

    /// The counts, read through a pointer (the `header` property would check exclusivity at run time).
    var counts: ObjectValueCounts {
        withUnsafeMutablePointerToHeader { $0.pointee }
    }

    /// How many attribute values a block has.
    var attributeCount: Int { Int(counts.attributeCount) }
    /// How many relationship values a block has.
    var relationshipCount: Int { Int(counts.relationshipCount) }

    /// A new buffer with room for `blocks` blocks, and its first block handed out (see ``claimBlock()``).
    static func makeClaimingFirst(
        attributeCount: Int, relationshipCount: Int, blocks: Int = 1
    ) -> (storage: ObjectValueStorage, block: UnsafeMutableRawPointer) {
        let storage = make(attributeCount: attributeCount, relationshipCount: relationshipCount, blocks: blocks)
        return (storage, storage.claimFirstBlock())
    }

    /// The first block of a buffer none of whose blocks is handed out yet (``make`` makes room for at least one).
    @inline(__always)
    private func claimFirstBlock() -> UnsafeMutableRawPointer {
        withUnsafeMutablePointers { header, elements in
            precondition(header.pointee.usedBlocks == 0 && header.pointee.blockCapacity > 0, "first block taken")
            header.pointee.usedBlocks = 1
            let total = Int(header.pointee.attributeCount) &+ Int(header.pointee.relationshipCount)
            Self.zeroTags(of: elements, total: total)
            return UnsafeMutableRawPointer(elements)
        }
    }

    /// Zeroes the tags of the block at `block`: every value is `null` / `toOne(nil)`, which needs no payload. A
    /// word or two: stored one by one, not through `memset`. The first word is stored outright: a loop from the
    /// first word was compiled into a call to `memset` for every block claimed (0.45 M of a 20,000-row fetch).
    @inline(__always)
    private static func zeroTags(of block: UnsafeMutablePointer<UInt64>, total: Int) {
        let words = tagWords(total)
        guard words > 0 else { return }
        block.initialize(to: 0)
        var word = 1
        while word < words {
            (block + word).initialize(to: 0)
            word &+= 1
        }
    }

    /// The next unused block, its values all `null` / `toOne(nil)`; `nil` when every block is handed out.
    @inline(__always)
    func claimBlock() -> UnsafeMutableRawPointer? {
        withUnsafeMutablePointers { header, elements in
            let used = Int(header.pointee.usedBlocks)
            guard used < Int(header.pointee.blockCapacity) else { return nil }
            header.pointee.usedBlocks = Int32(truncatingIfNeeded: used &+ 1)
            let total = Int(header.pointee.attributeCount) &+ Int(header.pointee.relationshipCount)
            let block = elements + used &* Self.blockWords(total)
            Self.zeroTags(of: block, total: total)
            return UnsafeMutableRawPointer(block)
        }
    }

    /// The slot of value `position` (attributes first, then relationships) of `block`, unchecked.
    @inline(__always)
    private static func slot(_ position: Int, total: Int, _ block: UnsafeMutableRawPointer) -> ObjectValueSlot {
        ObjectValueSlot(
            tag: block.assumingMemoryBound(to: UInt8.self) + position,
            payload: block + (8 &* tagWords(total) &+ 16 &* position))
    }

    /// A writer of the values of `block` (see ``ObjectValueWriter``).
    @inline(__always)
    func writer(_ block: UnsafeMutableRawPointer) -> ObjectValueWriter {
        let counts = counts
        let attributes = Int(counts.attributeCount)
        let relationships = Int(counts.relationshipCount)
        let first = Self.slot(0, total: attributes + relationships, block)
        return ObjectValueWriter(
            tags: first.tag, payloads: first.payload, attributeCount: attributes, relationshipCount: relationships)
    }

    /// The slot of attribute `index` of `block`; traps when there is no such attribute.
    @inline(__always)
    func attributeSlot(_ index: Int, _ block: UnsafeMutableRawPointer) -> ObjectValueSlot {
        let counts = counts
        precondition(index >= 0 && index < Int(counts.attributeCount), "attribute index out of range")
        return Self.slot(index, total: Int(counts.attributeCount) + Int(counts.relationshipCount), block)
    }

    /// The slot of relationship `index` of `block`; traps when there is no such relationship.
    @inline(__always)
    func relationshipSlot(_ index: Int, _ block: UnsafeMutableRawPointer) -> ObjectValueSlot {
        let counts = counts
        precondition(index >= 0 && index < Int(counts.relationshipCount), "relationship index out of range")
        let attributes = Int(counts.attributeCount)
        return Self.slot(attributes + index, total: attributes + Int(counts.relationshipCount), block)
    }

    /// The slot of attribute `index` of `block`, or `nil` when there is no such attribute.
    @inline(__always)
    func attributeSlotIfPresent(_ index: Int, _ block: UnsafeMutableRawPointer) -> ObjectValueSlot? {
        let counts = counts
        guard index >= 0 && index < Int(counts.attributeCount) else { return nil }
        return Self.slot(index, total: Int(counts.attributeCount) + Int(counts.relationshipCount), block)
    }

    /// A buffer of one block holding copies of the values of `block`.
    ///
    /// Tags are copied as words and plain payloads as bytes; only text, blobs and loaded to-manys are copied as
    /// values (retaining what they hold). Every inserted object copies its entity's defaults this way.
    func copy(_ block: UnsafeMutableRawPointer) -> (storage: ObjectValueStorage, block: UnsafeMutableRawPointer) {
        let counts = counts
        let attributes = Int(counts.attributeCount)
        let total = attributes + Int(counts.relationshipCount)
        let (copy, copiedBlock) = Self.makeClaimingFirst(
            attributeCount: attributes, relationshipCount: Int(counts.relationshipCount))
        guard total > 0 else { return (copy, copiedBlock) }
        let source = Self.slot(0, total: total, block)
        let target = Self.slot(0, total: total, copiedBlock)
        // Values that hold no references (no text, blob or loaded list: the defaults most entities' inserted objects
        // copy, numbers and empty to-ones): the block copied as words, tags and payloads, without a look at each
        // value (a word loop: a few words, where a call to `memcpy` costs more than the copy).
        guard Self.holdsReferences(source.tag, total: total) else {
            let from = UnsafeRawPointer(block).assumingMemoryBound(to: UInt64.self)
            let to = copiedBlock.assumingMemoryBound(to: UInt64.self)
            for word in 0..<Self.blockWords(total) { to[word] = from[word] }
            return (copy, copiedBlock)
        }
        UnsafeMutableRawPointer(target.tag).copyMemory(from: source.tag, byteCount: 8 * Self.tagWords(total))
        for position in 0..<total {
            let from = source.payload + 16 * position
            let to = target.payload + 16 * position
            switch (source.tag[position], position < attributes) {
            case (0, _), (2, false): continue  // no payload: `null`, `toOne(nil)`, a to-many fault
            case (3, true): to.initializeMemory(as: String.self, to: from.assumingMemoryBound(to: String.self).pointee)
            case (4, true): to.initializeMemory(as: Data.self, to: from.assumingMemoryBound(to: Data.self).pointee)
            case (3, false):
                to.initializeMemory(as: ObjectIDList.self, to: from.assumingMemoryBound(to: ObjectIDList.self).pointee)
            default: to.copyMemory(from: from, byteCount: 16)
            }
        }
        return (copy, copiedBlock)
    }

    /// Whether any of the `total` tags at `tags` is 3 or 4 (text, blob, loaded to-many: a payload holding a
    /// reference), read a word at a time: tags are 0 to 4 and the tag words' spare bytes 0 (see
    /// ``zeroTags(of:total:)``), so adding 0x7D to each byte carries into no other byte and sets its high bit
    /// exactly when the tag is 3 or more. A to-many fault (2) and a to-one (0, 1) hold no reference.
    @inline(__always)
    private static func holdsReferences(_ tags: UnsafeMutablePointer<UInt8>, total: Int) -> Bool {
        let words = UnsafeRawPointer(tags)
        var bits: UInt64 = 0
        for word in 0..<tagWords(total) {
            bits |= words.load(fromByteOffset: 8 &* word, as: UInt64.self) &+ 0x7D7D_7D7D_7D7D_7D7D
        }
        return bits & 0x8080_8080_8080_8080 != 0
    }

    deinit {
        withUnsafeMutablePointers { header, elements in
            let attributes = Int(header.pointee.attributeCount)
            let total = attributes + Int(header.pointee.relationshipCount)
            guard total > 0 else { return }
            let words = Self.blockWords(total)
            let tagWords = Self.tagWords(total)
            for blockIndex in 0..<Int(header.pointee.usedBlocks) {
                let block = elements + blockIndex &* words
                let payloads = UnsafeMutableRawPointer(block + tagWords)
                // Only payloads that hold references need anything: text, blobs and loaded to-manys, the tags of 3
                // or more. They are found a word of tags at a time (as in ``holdsReferences(_:total:)``: the high bit
                // of each such tag's byte), and only they are visited: a test per value cost an employee's block
                // about 74 instructions, 1.5 M of a 20,000-row fetch's teardown.
                for word in 0..<tagWords {
                    // Byte `i` of the word is tag `8 * word + i` on any host.
                    let tags = UInt64(littleEndian: block[word])
                    var marks = (tags &+ 0x7D7D_7D7D_7D7D_7D7D) & 0x8080_8080_8080_8080
                    while marks != 0 {
                        let byte = marks.trailingZeroBitCount &>> 3
                        marks &= marks &- 1
                        let position = word &* 8 &+ byte
                        let tag = UInt8(truncatingIfNeeded: tags &>> UInt64(byte &* 8))
                        let payload = payloads + 16 &* position
                        if position < attributes {
                            if tag == 3 {
                                payload.assumingMemoryBound(to: String.self).deinitialize(count: 1)
                            } else if tag == 4 {
                                payload.assumingMemoryBound(to: Data.self).deinitialize(count: 1)
                            }
                        } else if tag == 3 {
                            payload.assumingMemoryBound(to: ObjectIDList.self).deinitialize(count: 1)
                        }
                    }
                }
            }
        }
    }
}

/// Where a fetch puts the values of the objects it reads: buffers of many blocks
/// (``ObjectValueStorage``), handed out one block per row.
///
/// One allocation serves many rows, and the objects of a fetch release their buffers' last
/// reference together, so a fetch of many rows costs a few allocations and deallocations instead
/// of one of each per row. A buffer lives as long as any object whose values it holds (a fetch of
/// many rows of which one object is kept keeps that object's buffer: at most
/// ``maximumBlocks`` blocks); an object that changes copies its values out first, as any
/// shared values are copied (copy-on-write).
struct ObjectValueArena {
    /// The buffers being filled, one per shape (a fetch of an entity and its sub-entities has several).
    private var buffers: [ObjectValueStorage] = []
    /// The block count of the next buffer of each shape: small for fetches of a few rows, growing to ``maximumBlocks``.
    private var nextBlocks: [Int] = []

    /// The most blocks one buffer holds.
    static let maximumBlocks = 256

    init() {}

    /// A block for values of the counts given, and the buffer holding it.
    @inline(__always)
    mutating func claim(attributeCount: Int, relationshipCount: Int) -> (ObjectValueStorage, UnsafeMutableRawPointer) {
        for index in buffers.indices {
            let counts = buffers[index].counts
            guard Int(counts.attributeCount) == attributeCount && Int(counts.relationshipCount) == relationshipCount
            else { continue }
            if let block = buffers[index].claimBlock() { return (buffers[index], block) }
            let blocks = nextBlocks[index]
            nextBlocks[index] = min(blocks * 4, Self.maximumBlocks)
            let (storage, block) = ObjectValueStorage.makeClaimingFirst(
                attributeCount: attributeCount, relationshipCount: relationshipCount, blocks: blocks)
            buffers[index] = storage
            return (storage, block)
        }
        // The first row of a shape gets a buffer of its own, as a fetch of one row does.
        let (storage, block) = ObjectValueStorage.makeClaimingFirst(
            attributeCount: attributeCount, relationshipCount: relationshipCount)
        buffers.append(storage)
        nextBlocks.append(4)
        return (storage, block)
    }
}
