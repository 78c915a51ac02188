import Foundation

/// One measured case: medians of ours and of the baseline, in seconds.
struct BenchmarkResult {
    var name: String
    var ours: Double
    var baseline: Double?
    var target: String
    var note: String

    var ratio: Double? { baseline.map { ours / $0 } }
}

/// Collects results, prints a JSON line per case as it finishes and a table at the end.
struct BenchmarkSuite {
    var quick: Bool
    var filter: String?
    var results: [BenchmarkResult] = []
    var failures: [String] = []

    /// The fewest repetitions of a case.
    var repetitions: Int { quick ? 3 : 7 }
    /// A quick case repeats more, up to this many times within ``repetitionBudget`` seconds, so that its median
    /// does not hang on a few runs disturbed by the rest of the machine.
    var maximumRepetitions: Int { quick ? 9 : 31 }
    var repetitionBudget: Double { quick ? 0.3 : 1.5 }
    /// How many times the last measured case ran, for its JSON line.
    var lastRepetitions = 0

    /// Whether case `name` runs: every case without `--filter`, else the cases whose name contains one of the
    /// filter's comma-separated parts (`--filter insert,fetch`).
    func wants(_ name: String) -> Bool {
        guard let filter else { return true }
        return filter.split(separator: ",").contains { name.contains($0) }
    }

    mutating func record(_ result: BenchmarkResult) {
        defer { lastRepetitions = 0 }
        results.append(result)
        var json: [String: Any] = [
            "case": result.name, "ours_ms": round(result.ours * 1e6) / 1e3, "target": result.target,
            "repetitions": lastRepetitions > 0 ? lastRepetitions : repetitions,
        ]
        if let baseline = result.baseline { json["baseline_ms"] = round(baseline * 1e6) / 1e3 }
        if let ratio = result.ratio { json["ratio"] = round(ratio * 1000) / 1000 }
        if !result.note.isEmpty { json["note"] = result.note }
        if let data = try? JSONSerialization.data(withJSONObject: json, options: [.sortedKeys]) {
            print(String(decoding: data, as: UTF8.self))
        }
    }

    mutating func fail(_ message: String) {
        failures.append(message)
        FileHandle.standardError.write(Data("FAILED: \(message)\n".utf8))
    }

    func printTable() {
        print("")
        print(pad("case", 34) + pad("ours (ms)", 12) + pad("baseline (ms)", 15) + pad("ratio", 8) + "target")
        for result in results {
            let baseline = result.baseline.map { String(format: "%.1f", $0 * 1000) } ?? "-"
            let ratio = result.ratio.map { String(format: "%.2f", $0) } ?? "-"
            print(
                pad(result.name, 34) + pad(String(format: "%.1f", result.ours * 1000), 12) + pad(baseline, 15)
                    + pad(ratio, 8) + result.target + (result.note.isEmpty ? "" : "  (\(result.note))"))
        }
        if !failures.isEmpty { print("\n\(failures.count) correctness check(s) failed") }
    }

    private func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
    }

    /// Runs `baseline` and `ours` interleaved and returns their medians; `prepare` runs, untimed, before each
    /// run of either side (to lay out a fresh input, say).
    mutating func compare(
        prepare: () throws -> Void = {}, baseline: () throws -> Void, ours: () throws -> Void
    ) rethrows -> (ours: Double, baseline: Double) {
        var oursTimes: [Double] = []
        var baselineTimes: [Double] = []
        try prepare()
        try baseline()  // warm caches for both sides
        try prepare()
        try ours()
        var spent = 0.0
        while oursTimes.count < repetitions || (oursTimes.count < maximumRepetitions && spent < repetitionBudget) {
            try prepare()
            baselineTimes.append(try time(baseline))
            try prepare()
            oursTimes.append(try time(ours))
            spent += (baselineTimes.last ?? 0) + (oursTimes.last ?? 0)
        }
        lastRepetitions = oursTimes.count
        return (median(oursTimes), median(baselineTimes))
    }

    /// The median time of `body` over the repetitions.
    mutating func measure(_ body: () throws -> Void) rethrows -> Double {
        try body()
        var times: [Double] = []
        var spent = 0.0
        while times.count < repetitions || (times.count < maximumRepetitions && spent < repetitionBudget) {
            times.append(try time(body))
            spent += times.last ?? 0
        }
        lastRepetitions = times.count
        return median(times)
    }
}

func time(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return 0 }
    return sorted.count % 2 == 1
        ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

/// Runs a program and waits; throws when it fails.
@discardableResult
///
/// Spawned with `posix_spawn` and reaped with `waitpid`: Foundation's `Process.waitUntilExit()`
/// polls a run loop every 50 ms on Linux, which would round every timing up to a multiple of it.
func runProcess(_ executable: String, _ arguments: [String]) throws -> Int32 {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    var pid: pid_t = 0
    let spawned = posix_spawn(&pid, executable, &actions, nil, argv, environ)
    guard spawned == 0 else {
        throw GeneratorBenchmarks.SetupError(
            description: "cannot start \(executable): \(String(cString: strerror(spawned)))")
    }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) == -1 {
        guard errno == EINTR else {
            throw GeneratorBenchmarks.SetupError(description: "waitpid failed for \(executable)")
        }
    }
    // Exited normally: the exit code; killed by a signal: 128 + the signal, as shells report it.
    let signal = status & 0x7f
    return signal == 0 ? (status >> 8) & 0xff : 128 + signal
}

/// The full path of a program on PATH.
func which(_ name: String) -> String? {
    for directory in ProcessInfo.processInfo.environment["PATH", default: "/usr/bin:/bin"].split(separator: ":") {
        let path = "\(directory)/\(name)"
        if FileManager.default.isExecutableFile(atPath: path) { return path }
    }
    return nil
}

extension BenchmarkSuite {
    /// Where the benchmarks put their files (models, generated output, stores): `TMPDIR` when it is set;
    /// otherwise a memory-backed directory (`/dev/shm`) when there is a writable one with room for them (every
    /// timed run writes a new output directory: over a gigabyte in full mode, so 3 GB free is asked; 512 MB in
    /// quick mode), else the system's temporary directory.
    ///
    /// `xmllint --noout` writes nothing, while `generate` creates thousands of files: on a slow disk (this
    /// project's virtual machines take 0.1 to 1 ms to create a file) the comparison would time the disk rather
    /// than the generator. Set `TMPDIR` to measure a particular file system.
    func workRoot() -> URL {
        if let directory = ProcessInfo.processInfo.environment["TMPDIR"], !directory.isEmpty {
            return URL(fileURLWithPath: directory)
        }
        let memory = "/dev/shm"
        var info = statvfs()
        let needed: UInt64 = quick ? 1 << 29 : 3 << 30
        if access(memory, W_OK) == 0, statvfs(memory, &info) == 0,
            UInt64(info.f_bavail) * UInt64(info.f_frsize) >= needed
        {
            return URL(fileURLWithPath: memory)
        }
        return FileManager.default.temporaryDirectory
    }
}
