import Foundation

#if !canImport(UIKit) && !canImport(AppKit)
    /// The table and collection view spellings of a two-index path that UIKit and AppKit add to `IndexPath`, for
    /// the platforms without them, so code that addresses a ``FetchedResultsController``'s results as
    /// `IndexPath(row: row, section: 0)` and reads `indexPath.row` ports unchanged.
    extension IndexPath {
        /// The path to `row` in `section`.
        public init(row: Int, section: Int) {
            self.init(indexes: [section, row])
        }

        /// The path to `item` in `section`.
        public init(item: Int, section: Int) {
            self.init(indexes: [section, item])
        }

        /// The section: the first index. The path must have two indexes.
        public var section: Int {
            get { self[0] }
            set { self[0] = newValue }
        }

        /// The row in the section: the second index. The path must have two indexes.
        public var row: Int {
            get { self[1] }
            set { self[1] = newValue }
        }

        /// The item in the section: the second index (``row``'s collection view spelling).
        public var item: Int {
            get { self[1] }
            set { self[1] = newValue }
        }
    }
#endif
