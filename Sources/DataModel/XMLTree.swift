import CLibXML2
import Foundation

/// One element of a parsed XML document, with its position in the source.
struct XMLElementNode: Sendable {
    /// The element's name.
    var name: String
    /// Attributes in document order.
    var attributes: [(name: String, value: String)]
    /// Child elements in document order (text, comments and processing instructions are dropped).
    var children: [XMLElementNode]
    /// Where the element's `<` is.
    var location: SourceLocation

    /// The value of the attribute with this name.
    func attribute(_ name: String) -> String? {
        for attribute in attributes where attribute.name == name { return attribute.value }
        return nil
    }
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

    /// Parses `data`, reporting problems against `file`.
    static func parse(_ data: Data, file: String, limits: XMLParsingLimits = .default) -> Result<
        XMLElementNode, ModelLoadingError
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
                            rule: "file-too-large", at: start)
                    ]))
        }
        if data.isEmpty {
            return .failure(ModelLoadingError(.invalidModel, [.error("file is empty", rule: "xml-empty", at: start)]))
        }
        return data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> Result<XMLElementNode, ModelLoadingError> in
            let bytes = raw.bindMemory(to: UInt8.self)
            let lines = LineTable(bytes)
            if let doctype = PrologScanner.doctypeOffset(bytes) {
                let location = lines.location(ofOffset: doctype, file: file)
                return .failure(
                    ModelLoadingError(
                        .invalidModel,
                        [
                            .error(
                                "document declares a DOCTYPE; model files never contain one, and DTDs and entity declarations are refused",
                                rule: "xml-doctype", at: location)
                        ]))
            }
            return parseDocument(bytes, lines: lines, file: file, limits: limits)
        }
    }

    private static func parseDocument(
        _ bytes: UnsafeBufferPointer<UInt8>, lines: LineTable, file: String, limits: XMLParsingLimits
    ) -> Result<XMLElementNode, ModelLoadingError> {
        guard let base = bytes.baseAddress, let context = xmlNewParserCtxt() else {
            return .failure(
                ModelLoadingError(
                    .io, [.error("cannot create an XML parser", rule: "io-error", at: SourceLocation(file: file))]))
        }
        defer { xmlFreeParserCtxt(context) }
        let options = Int32(
            XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue
                | XML_PARSE_BIG_LINES.rawValue | XML_PARSE_NOBLANKS.rawValue)
        let document = base.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
            xmlCtxtReadMemory(context, $0, Int32(clamping: bytes.count), nil, nil, options)
        }
        guard let document, context.pointee.wellFormed != 0 else {
            if let document { xmlFreeDoc(document) }
            return .failure(ModelLoadingError(.invalidModel, [lastError(context, file: file)]))
        }
        defer { xmlFreeDoc(document) }
        guard let root = xmlDocGetRootElement(document) else {
            return .failure(
                ModelLoadingError(
                    .invalidModel,
                    [.error("document has no root element", rule: "xml-malformed", at: SourceLocation(file: file))]))
        }
        var builder = TreeBuilder(lines: lines, file: file, maximumDepth: limits.maximumDepth)
        guard let tree = builder.build(root, depth: 1) else {
            return .failure(
                ModelLoadingError(
                    .invalidModel,
                    [
                        .error(
                            "elements nest deeper than \(limits.maximumDepth) levels", rule: "xml-too-deep",
                            at: builder.tooDeepLocation ?? SourceLocation(file: file))
                    ]))
        }
        return .success(tree)
    }

    private static func lastError(_ context: xmlParserCtxtPtr, file: String) -> Diagnostic {
        guard let error = xmlCtxtGetLastError(context) else {
            return .error("malformed XML", rule: "xml-malformed", at: SourceLocation(file: file))
        }
        let message = error.pointee.message.map { String(cString: $0) } ?? "malformed XML"
        let trimmed = message.split(whereSeparator: \.isNewline).joined(separator: " ").trimmingCharacters(in: .whitespaces)
        let location = SourceLocation(
            file: file, line: Int(max(error.pointee.line, 0)), column: Int(max(error.pointee.int2, 0)))
        let rule: String
        switch Int(error.pointee.code) {
        case Int(XML_ERR_INVALID_CHAR.rawValue), Int(XML_ERR_INVALID_ENCODING.rawValue),
            Int(XML_ERR_UNSUPPORTED_ENCODING.rawValue):
            rule = "xml-encoding"
        case Int(XML_ERR_INTERNAL_ERROR.rawValue) where trimmed.contains("depth"):
            rule = "xml-too-deep"
        default:
            rule = trimmed.contains("Excessive depth") ? "xml-too-deep" : "xml-malformed"
        }
        return .error("malformed XML: \(trimmed)", rule: rule, at: location)
    }
}

/// Converts a libxml2 tree into ``XMLElementNode`` values, computing each element's column.
private struct TreeBuilder {
    let lines: LineTable
    let file: String
    let maximumDepth: Int
    var cursor = 0
    var tooDeepLocation: SourceLocation?

    init(lines: LineTable, file: String, maximumDepth: Int) {
        self.lines = lines
        self.file = file
        self.maximumDepth = maximumDepth
    }

    mutating func build(_ node: xmlNodePtr, depth: Int) -> XMLElementNode? {
        let name = node.pointee.name.map { String(cString: $0) } ?? ""
        let location = locate(name: name, line: Int(xmlGetLineNo(node)))
        if depth > maximumDepth {
            tooDeepLocation = location
            return nil
        }
        var attributes: [(name: String, value: String)] = []
        var property = node.pointee.properties
        while let attribute = property {
            let attributeName = attribute.pointee.name.map { String(cString: $0) } ?? ""
            attributes.append((attributeName, Self.value(of: attribute)))
            property = attribute.pointee.next
        }
        var children: [XMLElementNode] = []
        var child = node.pointee.children
        while let current = child {
            if current.pointee.type == XML_ELEMENT_NODE {
                guard let built = build(current, depth: depth + 1) else { return nil }
                children.append(built)
            }
            child = current.pointee.next
        }
        return XMLElementNode(name: name, attributes: attributes, children: children, location: location)
    }

    private static func value(of attribute: xmlAttrPtr) -> String {
        if let text = attribute.pointee.children, text.pointee.next == nil, let content = text.pointee.content {
            return String(cString: content)
        }
        guard let joined = xmlNodeListGetString(attribute.pointee.doc, attribute.pointee.children, 1) else {
            return ""
        }
        defer { datamodelgen_xml_free(joined) }
        return String(cString: joined)
    }

    /// Finds `<name` on `line` at or after the previous element's position (document order).
    private mutating func locate(name: String, line: Int) -> SourceLocation {
        guard line > 0, let range = lines.range(ofLine: line) else {
            return SourceLocation(file: file, line: max(line, 0), column: 0)
        }
        let start = max(range.lowerBound, cursor)
        if let offset = lines.find(tag: name, in: start..<range.upperBound) {
            cursor = offset + 1
            return SourceLocation(file: file, line: line, column: offset - range.lowerBound + 1)
        }
        return SourceLocation(file: file, line: line, column: 1)
    }
}

/// Byte offsets of line starts, for turning offsets into line and column.
struct LineTable {
    let bytes: UnsafeBufferPointer<UInt8>
    private(set) var starts: [Int] = [0]

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        for (offset, byte) in bytes.enumerated() where byte == 0x0A { starts.append(offset + 1) }
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
        let needle = Array(("<" + tag).utf8)
        guard !needle.isEmpty, range.count >= needle.count else { return nil }
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
