import DataModelNaming

/// A file the generator produces: a path relative to the output directory and its text.
public struct OutputFile: Sendable, Equatable {
    /// The path relative to the output directory.
    public var path: String
    /// The file's bytes: its text in UTF-8, as written.
    public var utf8: [UInt8]
    /// Whether the file is the user's to edit (a Manual/None entity's, "This file is yours to edit"): a writer
    /// creates it when it does not exist and otherwise leaves it alone (``ModelNaming/OutputFile/isUserOwned``).
    public var isUserOwned: Bool = false

    /// The file's full text.
    public var contents: String {
        get { String(decoding: utf8, as: UTF8.self) }
        set { utf8 = Array(newValue.utf8) }
    }

    /// Creates an output file.
    public init(path: String, contents: String) {
        self.path = path
        self.utf8 = Array(contents.utf8)
    }

    /// Creates an output file from its UTF-8 bytes; `isUserOwned` when it is the user's to edit.
    public init(path: String, utf8: [UInt8], isUserOwned: Bool = false) {
        self.path = path
        self.utf8 = utf8
        self.isUserOwned = isUserOwned
    }
}

/// Recognises files the generator wrote earlier, by their header, so stale ones can be removed safely.
public enum GeneratedFileRecognizer {
    /// The marker of runtime-flavor Swift files and schema files: `generated from <model> by datamodelgen`.
    public static func marker(modelFileName: String) -> String { "generated from \(modelFileName) by datamodelgen" }

    /// The line Xcode's own codegen writes (and the Core Data flavor reproduces).
    public static let xcodeMarker = "//  This file was automatically generated and should not be edited."

    /// Whether `contents` (the start of an existing file named `fileName`) was generated from `modelFileName`.
    ///
    /// Runtime-flavor and SQL files name their model in the header. Core Data–flavor files carry Xcode's header,
    /// which names no model, so they are recognised by that header and their `+CoreData…` file name.
    public static func isGenerated(fileName: String, contents: Substring, modelFileName: String) -> Bool {
        let head = contents.prefix(600)
        if head.contains(marker(modelFileName: modelFileName)) { return true }
        // Schema files name the version too: `generated from Company.xcdatamodeld (version Company) by datamodelgen`.
        if let firstLine = head.split(separator: "\n", maxSplits: 1).first,
            firstLine.contains("generated from \(modelFileName) (version "), firstLine.contains(") by datamodelgen")
        {
            return true
        }
        if ModelNaming.isCoreDataFileName(fileName) {
            return head.contains(xcodeMarker)
        }
        return false
    }

    /// Whether `contents` (the start of an existing file) is a user-owned file made from `modelFileName`: a
    /// Manual/None entity's file, whose header says "created from <model> by datamodelgen. This file is yours to
    /// edit." (either flavor).
    public static func isUserOwned(contents: Substring, modelFileName: String) -> Bool {
        contents.prefix(600).contains("reated from \(modelFileName) by datamodelgen. This file is yours to edit.")
    }

    /// Whether the start of an existing file, as bytes, is a user-owned file made from `modelFileName`.
    public static func isUserOwned(contents: some Collection<UInt8>, modelFileName: String) -> Bool {
        isUserOwned(contents: String(decoding: contents.prefix(600), as: UTF8.self)[...], modelFileName: modelFileName)
    }
}
