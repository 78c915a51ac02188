import CLibXML2
import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One element of a parsed XML document: a view into an ``XMLTree``, with its position in the source.
struct XMLElementNode {
    fileprivate let tree: XMLTree
    fileprivate let index: Int

    /// The element's name.
    var name: String { tree.names[Int(tree.nodes[index].name)] }

    /// The element's name when it is one the parser knows.
    var kind: XMLName? { tree.kinds[Int(tree.nodes[index].name)] }

    /// The indices (into ``XMLTree/attributes``) of the element's attributes, in document order.
    var attributeIndices: Range<Int> {
        let node = tree.nodes[index]
        return Int(node.firstAttribute)..<Int(node.firstAttribute + node.attributeCount)
    }

    /// Where the element's `<` is.
    var location: SourceLocation {
        let node = tree.nodes[index]
        return SourceLocation(file: tree.file, line: Int(node.line), column: Int(node.column))
    }

    /// Attributes in document order.
    var attributes: AttributeSequence { AttributeSequence(tree: tree, indices: attributeIndices) }

    /// Child elements in document order.
    var children: ChildSequence { ChildSequence(tree: tree, next: Int(tree.nodes[index].firstChild)) }

    /// The number of child elements of this kind.
    func childCount(of kind: XMLName) -> Int {
        var count = 0
        for child in children where child.kind == kind { count += 1 }
        return count
    }

    /// The value of the attribute with this name.
    func attribute(_ name: String) -> String? {
        for position in attributeIndices where tree.attributeName(position) == name {
            return tree.attributeValue(position)
        }
        return nil
    }

    /// The value of the attribute with this known name.
    func attribute(_ kind: XMLName) -> String? {
        for position in attributeIndices where tree.attributeKind(position) == kind {
            return tree.attributeValue(position)
        }
        return nil
    }

    /// The attributes of an element, as strings.
    struct AttributeSequence: Sequence, IteratorProtocol {
        let tree: XMLTree
        var indices: Range<Int>

        mutating func next() -> (name: String, value: String)? {
            guard let position = indices.popFirst() else { return nil }
            return (tree.attributeName(position), tree.attributeValue(position))
        }
    }

    /// The child elements of an element.
    struct ChildSequence: Sequence, IteratorProtocol {
        let tree: XMLTree
        var position: Int

        init(tree: XMLTree, next: Int) {
            self.tree = tree
            self.position = next
        }

        mutating func next() -> XMLElementNode? {
            guard position >= 0 else { return nil }
            defer { position = Int(tree.nodes[position].nextSibling) }
            return XMLElementNode(tree: tree, index: position)
        }
    }
}

/// A parsed document as compact arrays, built from libxml2's SAX2 events (libxml2 builds no tree).
///
/// Attribute values are kept as bytes, in one buffer: a reader turns into a `String` only the values it
/// stores as text, and matches keywords (`YES`, `Integer 16`) on the bytes.
final class XMLTree {
    struct Node {
        var name: Int32
        var firstAttribute: Int32
        var attributeCount: Int32
        var firstChild: Int32 = -1
        var lastChild: Int32 = -1
        var nextSibling: Int32 = -1
        var line: Int32
        var column: Int32
    }

    /// An attribute: its name's id and where its value is in ``valueBytes``.
    struct Attribute {
        var name: Int32
        var valueStart: Int
        var valueEnd: Int
    }

    let file: String
    let nodes: [Node]
    let attributes: [Attribute]
    /// Every attribute value's UTF-8 bytes (as libxml2 reports them: entities and references replaced).
    let valueBytes: ByteBuffer
    /// Distinct element and attribute names; libxml2 interns names, so each converts to a String once.
    let names: [String]
    /// For each name, the known name it is, if any.
    let kinds: [XMLName?]

    fileprivate init(_ builder: XMLTreeBuilder, file: String) {
        self.file = file
        self.nodes = builder.nodes
        self.attributes = builder.attributes
        self.valueBytes = builder.valueBytes
        self.names = builder.names
        self.kinds = builder.kinds
    }

    /// The root element.
    func root() -> XMLElementNode? { nodes.isEmpty ? nil : XMLElementNode(tree: self, index: 0) }

    /// The name of attribute `index`.
    func attributeName(_ index: Int) -> String { names[Int(attributes[index].name)] }

    /// The known name of attribute `index`, if it has one.
    func attributeKind(_ index: Int) -> XMLName? { kinds[Int(attributes[index].name)] }

    /// The value of attribute `index`.
    func attributeValue(_ index: Int) -> String {
        withValueBytes(index) { String(decoding: $0, as: UTF8.self) }
    }

    /// Calls `body` with the UTF-8 bytes of attribute `index`'s value.
    @inline(__always)
    func withValueBytes<Result>(_ index: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        let attribute = attributes[index]
        return body(valueBytes.bytes(attribute.valueStart..<attribute.valueEnd))
    }

    /// Parses `data` with libxml2's SAX2 interface into a tree.
    fileprivate static func build(_ data: Data, file: String, limits: XMLParsingLimits) -> Result<
        XMLTree, ModelLoadingError
    > {
        func failure(_ diagnostic: Diagnostic) -> Result<XMLTree, ModelLoadingError> {
            .failure(ModelLoadingError(diagnostic.isReported(for: .ioError) ? .io : .invalidModel, [diagnostic]))
        }
        return data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> Result<XMLTree, ModelLoadingError> in
            guard let base = raw.baseAddress?.assumingMemoryBound(to: CChar.self),
                let context = xmlCreateMemoryParserCtxt(base, Int32(clamping: raw.count))
            else {
                return failure(.error("cannot create an XML parser", rule: .ioError, at: SourceLocation(file: file)))
            }
            defer { xmlFreeParserCtxt(context) }
            let options =
                XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue
                | XML_PARSE_BIG_LINES.rawValue
            _ = xmlCtxtUseOptions(context, Int32(options))
            if let sax = context.pointee.sax {
                var handler = xmlSAXHandler()
                handler.initialized = XML_SAX2_MAGIC
                handler.startElementNs = saxStart
                handler.endElementNs = saxEnd
                handler.internalSubset = saxInternalSubset
                handler.serror = saxError
                sax.pointee = handler
            }
            // The builder reads the document's bytes in place: it lives only while they are borrowed here.
            var builder = XMLTreeBuilder(
                bytes: raw.assumingMemoryBound(to: UInt8.self), file: file, maximumDepth: limits.maximumDepth)
            withUnsafeMutablePointer(to: &builder) { pointer in
                context.pointee._private = UnsafeMutableRawPointer(pointer)
                _ = xmlParseDocument(context)
                context.pointee._private = nil
            }
            if let problem = builder.failure { return failure(problem) }
            if context.pointee.wellFormed == 0 { return failure(XMLTreeParser.lastError(context, file: file)) }
            return .success(XMLTree(builder, file: file))
        }
    }
}

/// The mutable state of a SAX parse; reached through a pointer, so appends carry no exclusivity checks.
private struct XMLTreeBuilder {
    /// The first problem met (the one libxml2 reports first, a DOCTYPE, or too deep a nesting).
    var failure: Diagnostic?
    let file: String
    let maximumDepth: Int
    var nodes: [XMLTree.Node] = []
    var attributes: [XMLTree.Attribute] = []
    let valueBytes: ByteBuffer
    var names: [String] = []
    var kinds: [XMLName?] = []
    private var nameIDs = PointerTable()
    private var stack: [Int32] = []
    /// The document's bytes, borrowed for the parse.
    private let bytes: UnsafeBufferPointer<UInt8>
    private let lineStarts: [Int]
    private var lineIndex = 0

    init(bytes: UnsafeBufferPointer<UInt8>, file: String, maximumDepth: Int) {
        self.file = file
        self.maximumDepth = maximumDepth
        self.bytes = bytes
        self.lineStarts = LineTable.lineStarts(bytes)
        nodes.reserveCapacity(bytes.count / 64)
        attributes.reserveCapacity(bytes.count / 24)
        valueBytes = ByteBuffer(capacity: bytes.count / 4)
    }

    private mutating func nameID(_ pointer: UnsafePointer<xmlChar>) -> Int32 {
        let key = UnsafeRawPointer(pointer)
        if let id = nameIDs.value(for: key) { return id }
        let id = Int32(names.count)
        let name = String(cString: pointer)
        names.append(name)
        kinds.append(XMLName.byString[name])
        nameIDs.insert(id, for: key)
        return id
    }

    /// Handles a SAX2 start tag; `offset` is the parser's byte position inside the tag.
    mutating func start(
        name: UnsafePointer<xmlChar>, attributeCount: Int,
        attributes raw: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?,
        offset: Int, fallbackLine: Int
    ) {
        let index = Int32(nodes.count)
        let first = Int32(attributes.count)
        if let raw {
            for position in 0..<attributeCount {
                let base = position * 5
                guard let localName = raw[base], let start = raw[base + 3], let end = raw[base + 4] else { continue }
                let valueStart = valueBytes.count
                valueBytes.append(start, count: max(0, end - start))
                attributes.append(
                    XMLTree.Attribute(name: nameID(localName), valueStart: valueStart, valueEnd: valueBytes.count))
            }
        }
        let (line, column) = position(ofTagAt: offset, fallbackLine: fallbackLine)
        if stack.count >= maximumDepth, failure == nil {
            failure = .error(
                "elements nest deeper than \(maximumDepth) levels", rule: .xmlTooDeep,
                at: SourceLocation(file: file, line: Int(line), column: Int(column)))
        }
        nodes.append(
            XMLTree.Node(
                name: nameID(name), firstAttribute: first, attributeCount: Int32(attributes.count) - first, line: line,
                column: column))
        if let parent = stack.last {
            let parentIndex = Int(parent)
            if nodes[parentIndex].lastChild >= 0 {
                nodes[Int(nodes[parentIndex].lastChild)].nextSibling = index
            } else {
                nodes[parentIndex].firstChild = index
            }
            nodes[parentIndex].lastChild = index
        }
        stack.append(index)
    }

    mutating func end() { _ = stack.popLast() }

    /// Line and column of the `<` that opens the tag containing byte `offset` (tags are met in order).
    private mutating func position(ofTagAt offset: Int, fallbackLine: Int) -> (Int32, Int32) {
        guard offset > 0, offset <= bytes.count else { return (Int32(clamping: fallbackLine), 0) }
        var start = offset - 1
        while start > 0 && bytes[start] != 0x3C { start -= 1 }
        if lineIndex >= lineStarts.count || lineStarts[lineIndex] > start { lineIndex = 0 }
        while lineIndex + 1 < lineStarts.count && lineStarts[lineIndex + 1] <= start { lineIndex += 1 }
        return (Int32(clamping: lineIndex + 1), Int32(clamping: start - lineStarts[lineIndex] + 1))
    }
}

/// A growable byte buffer that appends with one `memcpy` (the attribute values of a document).
final class ByteBuffer {
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// The number of bytes appended.
    private(set) var count = 0

    init(capacity: Int) {
        self.capacity = max(capacity, 64)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    /// Appends `count` bytes from `bytes`.
    func append(_ bytes: UnsafePointer<UInt8>, count added: Int) {
        if count + added > capacity {
            let grown = max(capacity * 2, count + added)
            let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
            bigger.update(from: base, count: count)
            base.deallocate()
            base = bigger
            capacity = grown
        }
        (base + count).update(from: bytes, count: added)
        count += added
    }

    /// The bytes in `range`, valid while the buffer lives; `range` must lie within `0..<count`.
    func bytes(_ range: Range<Int>) -> UnsafeBufferPointer<UInt8> {
        precondition(range.lowerBound >= 0 && range.upperBound <= count, "byte range out of bounds")
        return UnsafeBufferPointer(start: base + range.lowerBound, count: range.count)
    }
}

/// A small open-addressing hash table from libxml2's interned name pointers to name ids.
private struct PointerTable {
    private var keys = [UnsafeRawPointer?](repeating: nil, count: 256)
    private var values = [Int32](repeating: 0, count: 256)
    private var count = 0

    private func slot(_ key: UnsafeRawPointer, mask: Int) -> Int {
        Int(truncatingIfNeeded: (UInt(bitPattern: Int(bitPattern: key)) >> 3) &* 0x9E37_79B9_7F4A_7C15 >> 20) & mask
    }

    func value(for key: UnsafeRawPointer) -> Int32? {
        let mask = keys.count - 1
        var index = slot(key, mask: mask)
        while let stored = keys[index] {
            if stored == key { return values[index] }
            index = (index + 1) & mask
        }
        return nil
    }

    mutating func insert(_ value: Int32, for key: UnsafeRawPointer) {
        if (count + 1) * 2 > keys.count { grow() }
        let mask = keys.count - 1
        var index = slot(key, mask: mask)
        while keys[index] != nil { index = (index + 1) & mask }
        keys[index] = key
        values[index] = value
        count += 1
    }

    private mutating func grow() {
        let oldKeys = keys
        let oldValues = values
        keys = [UnsafeRawPointer?](repeating: nil, count: oldKeys.count * 2)
        values = [Int32](repeating: 0, count: oldKeys.count * 2)
        count = 0
        for (index, key) in oldKeys.enumerated() {
            if let key { insert(oldValues[index], for: key) }
        }
    }
}

/// Every element and attribute name the parser knows.
enum XMLName: Int, CaseIterable {
    // Elements
    case model, entity, attribute, relationship, fetchedProperty, fetchRequest, userInfo, entry
    case uniquenessConstraints, uniquenessConstraint, constraint, fetchIndex, fetchIndexElement, compoundIndexes
    case compoundIndex, index, configuration, memberEntity, composite, elements, element
    // Attributes
    case name, representedClassName, parentEntity, isAbstract, codeGenerationType, syncable, elementID
    case renamingIdentifier, versionHashModifier, attributeType, `optional`, transient, derived
    case derivationExpression, defaultValueString, defaultValue, defaultDateTimeInterval, minValueString
    case maxValueString, minDateTimeInterval, maxDateTimeInterval, regularExpressionString, usesScalarValueType
    case allowsExternalBinaryDataStorage, preserveAfterDeletion, allowsCloudEncryption, spotlightIndexingEnabled
    case indexedBySpotlight, storedInTruthFile, indexed, valueTransformerName, customClassName
    case destinationEntity, inverseName, inverseEntity, toMany, ordered, deletionRule, minCount, maxCount
    case key, value, property, type, order, expression, expressionType, usedWithCloudKit

    /// XML name → known name.
    static let byString: [String: XMLName] = {
        var table: [String: XMLName] = [:]
        for name in allCases { table[name.xmlString] = name }
        return table
    }()

    /// The name as written in XML.
    var xmlString: String { Self.strings[rawValue] }

    /// Each case's name as written in XML, in case order: spelled out, because deriving them from the cases
    /// (`"\(name)"`) goes through reflection, whose first use cost more than parsing a small model.
    /// `XMLNameTests` checks that they are the case names.
    static let strings: [String] = [
        "model", "entity", "attribute", "relationship", "fetchedProperty", "fetchRequest", "userInfo", "entry",
        "uniquenessConstraints", "uniquenessConstraint", "constraint", "fetchIndex", "fetchIndexElement",
        "compoundIndexes", "compoundIndex", "index", "configuration", "memberEntity", "composite", "elements",
        "element", "name", "representedClassName", "parentEntity", "isAbstract", "codeGenerationType", "syncable",
        "elementID", "renamingIdentifier", "versionHashModifier", "attributeType", "optional", "transient",
        "derived", "derivationExpression", "defaultValueString", "defaultValue", "defaultDateTimeInterval",
        "minValueString", "maxValueString", "minDateTimeInterval", "maxDateTimeInterval", "regularExpressionString",
        "usesScalarValueType", "allowsExternalBinaryDataStorage", "preserveAfterDeletion", "allowsCloudEncryption",
        "spotlightIndexingEnabled", "indexedBySpotlight", "storedInTruthFile", "indexed", "valueTransformerName",
        "customClassName", "destinationEntity", "inverseName", "inverseEntity", "toMany", "ordered", "deletionRule",
        "minCount", "maxCount", "key", "value", "property", "type", "order", "expression", "expressionType",
        "usedWithCloudKit",
    ]
}

private let saxStart: startElementNsSAX2Func = { context, localName, _, _, _, _, attributeCount, _, attributes in
    guard let context, let localName else { return }
    let parser = context.assumingMemoryBound(to: xmlParserCtxt.self)
    guard let opaque = parser.pointee._private else { return }
    let tree = opaque.assumingMemoryBound(to: XMLTreeBuilder.self)
    var offset = -1
    var line = 0
    if let input = parser.pointee.input, let cur = input.pointee.cur, let base = input.pointee.base {
        // Start the backward search for `<` as close to it as possible: at the first attribute's value when
        // that value lies in the input buffer (it does unless libxml2 had to decode it).
        var anchor = cur
        if attributeCount > 0, let attributes, let value = attributes[3], value >= base, value < cur { anchor = value }
        offset = Int(input.pointee.consumed) + (anchor - base)
        line = Int(input.pointee.line)
    }
    tree.pointee.start(
        name: localName, attributeCount: Int(attributeCount), attributes: attributes, offset: offset, fallbackLine: line
    )
}

/// Stops the parse at a DOCTYPE: model files never have one, and refusing it rules out entity expansion
/// whatever the document's encoding.
private let saxInternalSubset: internalSubsetSAXFunc = { context, _, _, _ in
    guard let context else { return }
    let parser = context.assumingMemoryBound(to: xmlParserCtxt.self)
    guard let opaque = parser.pointee._private else { return }
    let builder = opaque.assumingMemoryBound(to: XMLTreeBuilder.self)
    if builder.pointee.failure == nil {
        let line = Int(parser.pointee.input?.pointee.line ?? 0)
        builder.pointee.failure = .error(
            "document declares a DOCTYPE; model files never contain one, and DTDs and entity declarations are refused",
            rule: .xmlDoctype, at: SourceLocation(file: builder.pointee.file, line: line, column: 1))
    }
    xmlStopParser(parser)
}

/// Keeps libxml2's first error, which points at the real problem (later ones are often consequences).
private let saxError: xmlStructuredErrorFunc = { context, error in
    guard let context, let error else { return }
    let parser = context.assumingMemoryBound(to: xmlParserCtxt.self)
    guard let opaque = parser.pointee._private else { return }
    let builder = opaque.assumingMemoryBound(to: XMLTreeBuilder.self)
    guard error.pointee.level.rawValue >= XML_ERR_ERROR.rawValue, builder.pointee.failure == nil else { return }
    builder.pointee.failure = XMLTreeParser.diagnostic(for: error, file: builder.pointee.file)
}

private let saxEnd: endElementNsSAX2Func = { context, _, _, _ in
    guard let context else { return }
    let parser = context.assumingMemoryBound(to: xmlParserCtxt.self)
    guard let opaque = parser.pointee._private else { return }
    opaque.assumingMemoryBound(to: XMLTreeBuilder.self).pointee.end()
}

/// Limits that keep hostile input from using much time or memory.
public struct XMLParsingLimits: Sendable {
    /// The largest file accepted, in bytes.
    public var maximumBytes: Int
    /// The deepest element nesting accepted.
    public var maximumDepth: Int

    /// 256 MiB and 64 levels (a real model nests 4 deep).
    public static let `default` = XMLParsingLimits(maximumBytes: 256 << 20, maximumDepth: 64)

    /// Creates limits.
    public init(maximumBytes: Int, maximumDepth: Int) {
        self.maximumBytes = maximumBytes
        self.maximumDepth = maximumDepth
    }
}

/// Parses XML bytes into ``XMLElementNode`` values with libxml2, securely.
///
/// No network, no DTD loading, no entity substitution, and any `<!DOCTYPE` is refused before libxml2
/// sees the document (Xcode never writes one), which also rules out entity-expansion attacks.
enum XMLTreeParser {
    private static let initialized: Bool = {
        xmlInitParser()
        return true
    }()

    /// `data` as UTF-8: a UTF-16 document (by byte-order mark or by its first bytes) is transcoded, and its
    /// declaration's encoding rewritten, so byte offsets, columns and the DOCTYPE check work on one encoding.
    static func utf8(_ data: Data) -> Data {
        guard data.count >= 2 else { return data }
        let first = data[data.startIndex]
        let second = data[data.startIndex + 1]
        let encoding: String.Encoding
        switch (first, second) {
        case (0xFE, 0xFF), (0x00, 0x3C): encoding = .utf16BigEndian
        case (0xFF, 0xFE), (0x3C, 0x00): encoding = .utf16LittleEndian
        default: return data
        }
        var body = data
        if (first == 0xFE && second == 0xFF) || (first == 0xFF && second == 0xFE) { body = data.dropFirst(2) }
        guard var text = String(data: body, encoding: encoding) else { return data }
        if text.hasPrefix("<?xml"), let end = text.firstRange(of: "?>") {
            let declaration = text[..<end.lowerBound]
            let rewritten = declaration.replacing(#/encoding\s*=\s*["'][^"']*["']/#, with: #"encoding="UTF-8""#)
            text.replaceSubrange(..<end.lowerBound, with: rewritten)
        }
        return Data(text.utf8)
    }

    /// Parses `data`, reporting problems against `file`.
    static func parse(_ data: Data, file: String, limits: XMLParsingLimits = .default) -> Result<
        XMLTree, ModelLoadingError
    > {
        _ = initialized
        let start = SourceLocation(file: file, line: 1, column: 1)
        if data.count > limits.maximumBytes {
            return .failure(
                ModelLoadingError(
                    .invalidModel,
                    [
                        .error(
                            "file is \(data.count) bytes, larger than the limit of \(limits.maximumBytes) bytes",
                            rule: .fileTooLarge, at: start)
                    ]))
        }
        if data.isEmpty {
            return .failure(ModelLoadingError(.invalidModel, [.error("file is empty", rule: .xmlEmpty, at: start)]))
        }
        let data = utf8(data)
        let doctype = data.withUnsafeBytes { raw in PrologScanner.doctypeOffset(raw.bindMemory(to: UInt8.self)) }
        if let doctype {
            do {
                let location = LineTable(data).location(ofOffset: doctype, file: file)
                return .failure(
                    ModelLoadingError(
                        .invalidModel,
                        [
                            .error(
                                "document declares a DOCTYPE; model files never contain one, and DTDs and entity declarations are refused",
                                rule: .xmlDoctype, at: location)
                        ]))
            }
        }
        return parseDocument(data, file: file, limits: limits)
    }

    private static func parseDocument(_ data: Data, file: String, limits: XMLParsingLimits) -> Result<
        XMLTree, ModelLoadingError
    > {
        switch XMLTree.build(data, file: file, limits: limits) {
        case .failure(let error): return .failure(error)
        case .success(let tree):
            guard tree.root() != nil else {
                return .failure(
                    ModelLoadingError(
                        .invalidModel,
                        [.error("document has no root element", rule: .xmlMalformed, at: SourceLocation(file: file))])
                )
            }
            return .success(tree)
        }
    }

    static func lastError(_ context: xmlParserCtxtPtr, file: String) -> Diagnostic {
        guard let error = xmlCtxtGetLastError(context) else {
            return .error("malformed XML", rule: .xmlMalformed, at: SourceLocation(file: file))
        }
        return diagnostic(for: error, file: file)
    }

    /// The diagnostic for one libxml2 error.
    static func diagnostic(for error: UnsafePointer<xmlError>, file: String) -> Diagnostic {
        let message = error.pointee.message.map { String(cString: $0) } ?? "malformed XML"
        let trimmed = Validator.trimmingWhitespace(message.split(whereSeparator: \.isNewline).joined(separator: " "))
        let location = SourceLocation(
            file: file, line: Int(max(error.pointee.line, 0)), column: Int(max(error.pointee.int2, 0)))
        let rule: RuleID
        switch Int(error.pointee.code) {
        case Int(XML_ERR_INVALID_CHAR.rawValue), Int(XML_ERR_INVALID_ENCODING.rawValue),
            Int(XML_ERR_UNSUPPORTED_ENCODING.rawValue):
            rule = .xmlEncoding
        case Int(XML_ERR_INTERNAL_ERROR.rawValue) where trimmed.contains("depth"):
            rule = .xmlTooDeep
        default:
            rule = trimmed.contains("Excessive depth") ? .xmlTooDeep : .xmlMalformed
        }
        return .error("malformed XML: \(trimmed)", rule: rule, at: location)
    }
}

/// Byte offsets of line starts, for turning offsets into line and column.
struct LineTable {
    let bytes: [UInt8]
    private(set) var starts: [Int] = [0]

    init(_ data: Data) {
        self.bytes = [UInt8](data)
        self.starts = Self.lineStarts(bytes)
    }

    /// The offsets at which lines start (the first is 0).
    static func lineStarts(_ bytes: [UInt8]) -> [Int] {
        bytes.withUnsafeBufferPointer { lineStarts($0) }
    }

    /// The offsets at which lines start in `bytes` (the first is 0).
    static func lineStarts(_ bytes: UnsafeBufferPointer<UInt8>) -> [Int] {
        var starts = [0]
        guard let base = bytes.baseAddress else { return starts }
        let count = bytes.count
        var offset = 0
        while offset < count {
            guard let found = memchr(base + offset, 0x0A, count - offset) else { break }
            let position = UnsafeRawPointer(found) - UnsafeRawPointer(base)
            starts.append(position + 1)
            offset = position + 1
        }
        return starts
    }

    /// The byte range of a 1-based line, without its newline.
    func range(ofLine line: Int) -> Range<Int>? {
        guard line >= 1, line <= starts.count else { return nil }
        let lower = starts[line - 1]
        let upper = line < starts.count ? starts[line] - 1 : bytes.count
        return lower..<max(lower, upper)
    }

    /// The location of a byte offset (columns count bytes, 1-based).
    func location(ofOffset offset: Int, file: String) -> SourceLocation {
        var low = 0
        var high = starts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if starts[middle] <= offset { low = middle } else { high = middle - 1 }
        }
        return SourceLocation(file: file, line: low + 1, column: offset - starts[low] + 1)
    }

    /// The offset of `<tag` followed by a non-name byte within `range`.
    func find(tag: String, in range: Range<Int>) -> Int? {
        var needle: [UInt8] = [0x3C]
        needle.append(contentsOf: tag.utf8)
        guard range.count >= needle.count else { return nil }
        var offset = range.lowerBound
        while offset + needle.count <= range.upperBound {
            if bytes[offset] == 0x3C {
                var matches = true
                for index in 1..<needle.count where bytes[offset + index] != needle[index] {
                    matches = false
                    break
                }
                if matches {
                    let next = offset + needle.count
                    if next >= bytes.count || !Self.isNameByte(bytes[next]) { return offset }
                }
            }
            offset += 1
        }
        return nil
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
            || byte == 0x2D || byte == 0x5F || byte == 0x2E || byte == 0x3A || byte >= 0x80
    }
}

/// Looks at the prolog of an XML document (before the root element) for a DOCTYPE.
enum PrologScanner {
    /// The byte offset of `<!DOCTYPE` in the prolog, if there is one.
    static func doctypeOffset(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var offset = 0
        let count = bytes.count
        if count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { offset = 3 }
        while offset < count {
            let byte = bytes[offset]
            if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D {
                offset += 1
                continue
            }
            guard byte == 0x3C else { return nil }
            if starts(bytes, at: offset, with: "<?") {
                guard let end = find(bytes, "?>", from: offset + 2) else { return nil }
                offset = end + 2
            } else if starts(bytes, at: offset, with: "<!--") {
                guard let end = find(bytes, "-->", from: offset + 4) else { return nil }
                offset = end + 3
            } else if starts(bytes, at: offset, with: "<!") {
                return offset
            } else {
                return nil
            }
        }
        return nil
    }

    private static func starts(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int, with text: String) -> Bool {
        let needle = Array(text.utf8)
        guard offset + needle.count <= bytes.count else { return false }
        for index in 0..<needle.count where bytes[offset + index] != needle[index] { return false }
        return true
    }

    private static func find(_ bytes: UnsafeBufferPointer<UInt8>, _ text: String, from start: Int) -> Int? {
        var offset = start
        while offset < bytes.count {
            if starts(bytes, at: offset, with: text) { return offset }
            offset += 1
        }
        return nil
    }
}
