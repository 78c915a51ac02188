/// Line-based unified diffs (Myers' O(ND) algorithm), for `generate --check`.
public enum UnifiedDiff {
    private enum Edit: Equatable {
        case keep(Int, Int)
        case delete(Int)
        case insert(Int)
    }

    /// A unified diff from `old` to `new` with `context` lines around changes; empty when equal.
    public static func diff(old: String, new: String, oldName: String, newName: String, context: Int = 3) -> String {
        if old == new { return "" }
        let a = lines(old)
        let b = lines(new)
        let edits = editScript(a, b)
        var output = "--- \(oldName)\n+++ \(newName)\n"
        var index = 0
        while index < edits.count {
            guard let firstChange = edits[index...].firstIndex(where: { if case .keep = $0 { false } else { true } })
            else { break }
            let start = max(index, firstChange - context)
            var end = firstChange
            var keepRun = 0
            var cursor = firstChange
            while cursor < edits.count {
                if case .keep = edits[cursor] {
                    keepRun += 1
                    if keepRun > context * 2 { break }
                } else {
                    keepRun = 0
                    end = cursor
                }
                cursor += 1
            }
            let stop = min(edits.count, end + context + 1)
            output += hunk(edits[start..<stop], a, b)
            index = stop
        }
        return output
    }

    private static func hunk(_ edits: ArraySlice<Edit>, _ a: [Substring], _ b: [Substring]) -> String {
        var oldStart = -1
        var newStart = -1
        var oldCount = 0
        var newCount = 0
        var body = ""
        var nextOld = 0
        var nextNew = 0
        for edit in edits {
            switch edit {
            case .keep(let i, let j):
                if oldStart < 0 { oldStart = i }
                if newStart < 0 { newStart = j }
                oldCount += 1
                newCount += 1
                nextOld = i + 1
                nextNew = j + 1
                body += " \(a[i])\n"
            case .delete(let i):
                if oldStart < 0 { oldStart = i }
                oldCount += 1
                nextOld = i + 1
                body += "-\(a[i])\n"
            case .insert(let j):
                if newStart < 0 { newStart = j }
                newCount += 1
                nextNew = j + 1
                body += "+\(b[j])\n"
            }
        }
        if oldStart < 0 { oldStart = nextOld }
        if newStart < 0 { newStart = nextNew }
        let oldHeader = oldCount == 0 ? "\(oldStart),0" : "\(oldStart + 1),\(oldCount)"
        let newHeader = newCount == 0 ? "\(newStart),0" : "\(newStart + 1),\(newCount)"
        return "@@ -\(oldHeader) +\(newHeader) @@\n" + body
    }

    private static func lines(_ text: String) -> [Substring] {
        var result = text.split(separator: "\n", omittingEmptySubsequences: false)
        if result.last == "" { result.removeLast() }
        return result
    }

    /// The shortest edit script from `a` to `b`.
    private static func editScript(_ a: [Substring], _ b: [Substring]) -> [Edit] {
        let n = a.count
        let m = b.count
        let maxD = n + m
        let offset = maxD
        var v = [Int](repeating: 0, count: 2 * maxD + 2)
        var trace: [[Int]] = []
        var finalD = 0
        outer: for d in 0...maxD {
            trace.append(v)
            var k = -d
            while k <= d {
                var x: Int
                if k == -d || (k != d && v[offset + k - 1] < v[offset + k + 1]) {
                    x = v[offset + k + 1]
                } else {
                    x = v[offset + k - 1] + 1
                }
                var y = x - k
                while x < n, y < m, a[x] == b[y] {
                    x += 1
                    y += 1
                }
                v[offset + k] = x
                if x >= n, y >= m {
                    finalD = d
                    trace.append(v)
                    break outer
                }
                k += 2
            }
        }
        var edits: [Edit] = []
        var x = n
        var y = m
        var d = finalD
        while d > 0 || x > 0 || y > 0 {
            let vPrev = trace[d]
            let k = x - y
            if d == 0 {
                while x > 0, y > 0 {
                    x -= 1
                    y -= 1
                    edits.append(.keep(x, y))
                }
                break
            }
            let prevK: Int
            if k == -d || (k != d && vPrev[offset + k - 1] < vPrev[offset + k + 1]) {
                prevK = k + 1
            } else {
                prevK = k - 1
            }
            let prevX = vPrev[offset + prevK]
            let prevY = prevX - prevK
            while x > prevX, y > prevY {
                x -= 1
                y -= 1
                edits.append(.keep(x, y))
            }
            if x == prevX {
                y -= 1
                edits.append(.insert(y))
            } else {
                x -= 1
                edits.append(.delete(x))
            }
            d -= 1
        }
        return edits.reversed()
    }
}
