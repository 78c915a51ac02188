import DataModel
import Foundation

/// Generator cases on synthetic models (``SyntheticModel``).
enum GeneratorBenchmarks {
    struct SetupError: Error, CustomStringConvertible {
        var description: String
    }

    static func run(_ suite: inout BenchmarkSuite) throws {
        guard let xmllint = which("xmllint") else {
            throw SetupError(description: "xmllint not found (apt-get install libxml2-utils)")
        }
        let tool = generatorCommand()
        FileHandle.standardError.write(Data("generator cases run \(tool.joined(separator: " "))\n".utf8))
        let work = suite.workRoot().appendingPathComponent("datamodelgen-bench-\(getpid())")
        FileHandle.standardError.write(Data("benchmark files go to \(work.deletingLastPathComponent().path)\n".utf8))
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }

        let sizes = suite.quick ? [100, 2000] : [100, 2000, 10000]
        var perEntity: [(Int, Double)] = []
        for size in sizes {
            let bundle = work.appendingPathComponent("Big\(size).xcdatamodeld")
            let contents = try SyntheticModel(entityCount: size).writeBundle(at: bundle)
            let baseline = { () throws in
                guard try runProcess(xmllint, ["--noout", contents]) == 0 else {
                    throw SetupError(description: "xmllint failed on \(contents)")
                }
            }
            if suite.wants("validate") {
                let times = try suite.compare(baseline: baseline) {
                    guard try runProcess(tool[0], Array(tool.dropFirst()) + ["validate", bundle.path]) == 0 else {
                        throw SetupError(description: "validate failed on \(bundle.path)")
                    }
                }
                suite.record(
                    BenchmarkResult(
                        name: "load+validate \(size) entities", ours: times.ours, baseline: times.baseline,
                        target: "<= 2x xmllint --noout", note: ""))
                perEntity.append((size, times.ours / Double(size)))
            }
            if suite.wants("generate") {
                // Every full run writes into a fresh directory (never timing a deletion) and skips the cache.
                var runNumber = 0
                var output = ""
                let generate = { () throws in
                    runNumber += 1
                    output = work.appendingPathComponent("out\(size)-\(runNumber)").path
                    guard
                        try runProcess(
                            tool[0],
                            Array(tool.dropFirst()) + [
                                "generate", bundle.path, "--output", output, "--flavor", "coredata,runtime",
                                "--no-cache",
                            ])
                            == 0
                    else { throw SetupError(description: "generate failed on \(bundle.path)") }
                }
                let times = try suite.compare(baseline: baseline, ours: generate)
                suite.record(
                    BenchmarkResult(
                        name: "generate both flavors \(size)", ours: times.ours, baseline: times.baseline,
                        target: "<= 3x xmllint --noout", note: "one process: coredata + runtime flavors + SQL"))
                if size == 2000 {
                    try generate()
                    let before = try modificationDates(output)
                    let rerun = try suite.measure {
                        guard
                            try runProcess(
                                tool[0],
                                Array(tool.dropFirst()) + [
                                    "generate", bundle.path, "--output", output, "--flavor", "coredata,runtime",
                                ])
                                == 0
                        else { throw SetupError(description: "re-run failed") }
                    }
                    if try modificationDates(output) != before { suite.fail("no-change re-run rewrote files") }
                    suite.record(
                        BenchmarkResult(
                            name: "no-change re-run 2000", ours: rerun, baseline: nil,
                            target: "< 50 ms, nothing rewritten",
                            note: "both flavors"))
                }
            }
        }
        // Growth between the two largest sizes, where per-entity work dominates process start-up: only in full
        // mode, whose sizes reach 10,000 entities (in quick mode start-up dominates and the ratio says nothing).
        if !suite.quick && perEntity.count >= 2 {
            let first = perEntity[perEntity.count - 2]
            let last = perEntity[perEntity.count - 1]
            let slope = (last.1 - first.1) / first.1
            suite.record(
                BenchmarkResult(
                    name: "validate time/entity growth", ours: last.1, baseline: first.1,
                    target: "flat (ratio ~1 or below)",
                    note: String(format: "%d→%d entities, per-entity change %+.0f%%", first.0, last.0, slope * 100)))
        }
    }

    /// How to run the generator: `datamodelgen-benchmark-tool` (the tool as its release is built, which the
    /// package builds with this benchmark) next to this binary; failing that, this binary's `--tool` mode.
    static func generatorCommand() -> [String] {
        let me = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        let tool = me.deletingLastPathComponent().appendingPathComponent("datamodelgen-benchmark-tool").path
        return FileManager.default.isExecutableFile(atPath: tool) ? [tool] : [me.path, "--tool"]
    }

    static func modificationDates(_ directory: String) throws -> [String: Date] {
        var dates: [String: Date] = [:]
        let enumerator = FileManager.default.enumerator(atPath: directory)
        while let name = enumerator?.nextObject() as? String {
            let attributes = try FileManager.default.attributesOfItem(atPath: directory + "/" + name)
            dates[name] = attributes[.modificationDate] as? Date
        }
        return dates
    }

    static func repositoryRoot() -> URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    }
}
