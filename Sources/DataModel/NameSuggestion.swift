/// "Did you mean …?" for a name that is not one of a known set: the model parser's attribute types, the command
/// line's commands and options, the configuration file's keys. One rule for all of them.
public enum NameSuggestion {
    /// The known name closest to `name` by ``distance(_:_:)`` when it is close enough to be a likely typo (at most one
    /// edit in three characters of `name`, and at least one), the first such in `candidates`' order on a tie (so the
    /// answer does not depend on a set's order); `nil` when none is that close ("Blob" is three edits from "Float",
    /// which is no suggestion).
    public static func closest(to name: String, among candidates: [String]) -> String? {
        let limit = max(1, name.count / 3)
        var best: (name: String, distance: Int)?
        for candidate in candidates {
            let distance = distance(name, candidate)
            if distance <= limit && distance < (best?.distance ?? .max) { best = (candidate, distance) }
        }
        return best?.name
    }

    /// The edit distance between two strings, in characters: insertions, deletions, substitutions and swaps of two
    /// neighbours each count one ("dmup" is one edit from "dump"; optimal string alignment).
    public static func distance(_ lhs: String, _ rhs: String) -> Int {
        let a = Array(lhs)
        let b = Array(rhs)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var beforePrevious = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], beforePrevious[j - 2] + 1)
                }
            }
            (beforePrevious, previous, current) = (previous, current, beforePrevious)
        }
        return previous[b.count]
    }
}
