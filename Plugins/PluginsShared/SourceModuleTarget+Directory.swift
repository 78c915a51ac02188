import Foundation
import PackagePlugin

extension SourceModuleTarget {
    /// The target's directory.
    ///
    /// `Target.directoryURL` needs tools version 6.1 and the package declares 6.0, where only the `Path` API
    /// exists; a `Path` describes itself as its path string.
    var directoryURLCompatible: URL { URL(fileURLWithPath: String(describing: directory), isDirectory: true) }
}
