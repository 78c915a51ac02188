import Foundation

// template-embedder OUTPUT TEMPLATE...
//
// Writes a Swift file that holds the text of each template file (`<name>.mustache`) as a string literal, so
// that the default templates are built into every binary that links `DataModelTemplates`. Run by
// `Scripts/embed-templates.sh`, which writes `Sources/DataModelTemplates/EmbeddedTemplates.swift`; the file is committed, and a test
// fails with that command when it no longer matches the templates.

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count >= 2 else {
    FileHandle.standardError.write(Data("usage: template-embedder OUTPUT TEMPLATE...\n".utf8))
    exit(2)
}

/// `text` as the body of a one-line Swift string literal: the same characters once compiled.
func literalBody(_ text: String) -> String {
    var body = ""
    body.reserveCapacity(text.utf8.count + text.utf8.count / 8)
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\\": body += "\\\\"
        case "\"": body += "\\\""
        case "\n": body += "\\n"
        case "\r": body += "\\r"
        case "\t": body += "\\t"
        default:
            if scalar.value < 0x20 || scalar.value == 0x7F {
                body += "\\u{" + String(scalar.value, radix: 16) + "}"
            } else {
                body.unicodeScalars.append(scalar)
            }
        }
    }
    return body
}

let output = URL(fileURLWithPath: arguments[0])
var templates: [(name: String, text: String)] = []
for path in arguments.dropFirst() {
    let url = URL(fileURLWithPath: path)
    guard url.pathExtension == "mustache" else { continue }
    guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
        FileHandle.standardError.write(Data("\(path):1:1: error: cannot read the template as UTF-8\n".utf8))
        exit(1)
    }
    templates.append((url.deletingPathExtension().lastPathComponent, text))
}
templates.sort { $0.name < $1.name }

var source = """
    // Generated from Templates/*.mustache by Scripts/embed-templates.sh. Do not edit.

    extension DefaultTemplates {
        /// The text of each default template, by name, built into the binary.
        static let embeddedSources: [String: String] = [

    """
for template in templates {
    source += "        \"\(literalBody(template.name))\": \"\(literalBody(template.text))\",\n"
}
source += "    ]\n}\n"

let bytes = Data(source.utf8)
if FileManager.default.contents(atPath: output.path) != bytes {
    do {
        try FileManager.default.createDirectory(
            at: output.deletingLastPathComponent(), withIntermediateDirectories: true)
        try bytes.write(to: output, options: .atomic)
    } catch {
        FileHandle.standardError.write(
            Data("\(output.path): error: cannot write: \(error.localizedDescription)\n".utf8))
        exit(1)
    }
}
