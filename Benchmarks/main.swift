import DataModel
import DataModelGenCLI
import Foundation

// datamodelgen-benchmarks [--quick] [--filter NAME[,NAME...]]
// datamodelgen-benchmarks --profile insert|fetch|traverse|update|predicate|raw-insert|raw-fetch|raw-traverse|raw-update|raw-predicate [EMPLOYEES] [--repeat N]
// datamodelgen-benchmarks --profile derived [MEMBERS] [--repeat N]
// datamodelgen-benchmarks --profile migrate-add|raw-migrate-add [ROWS] [--repeat N]
// datamodelgen-benchmarks --crash-writer PATH|URL | --postgres-counter URL setup|WORKER   (helpers of Scripts/*-test.sh)
//
// Each case runs its baseline and our code interleaved, several repetitions, and reports medians and
// the ratio ours/baseline. Every process-level case runs both sides as child processes, so process
// start-up is paid on both sides.

let arguments = Array(CommandLine.arguments.dropFirst())

// Child-process entry points: the benchmark re-runs itself to time our tool as a process.
if let first = arguments.first, first == "--tool" {
    // As the `datamodelgen` executable does.
    BatchProcess.prepare()
    let code = CommandLineTool().run(Array(arguments.dropFirst()))
    BatchProcess.exit(code)
}

// Memory probe: fetch every employee of a store in a fresh process and print the peak growth per object.
if let first = arguments.first, first == "--memory-probe", arguments.count == 3 {
    do {
        try MemoryProbe.run(side: arguments[1], path: arguments[2])
        exit(0)
    } catch {
        FileHandle.standardError.write(Data("memory probe failed: \(error)\n".utf8))
        exit(1)
    }
}

// Crash writer: saves into a store until killed (Scripts/kill-test.sh, Scripts/postgres-kill-test.sh).
if let first = arguments.first, first == "--crash-writer", arguments.count == 2 {
    do {
        try CrashWriter.run(path: arguments[1])
    } catch {
        FileHandle.standardError.write(Data("crash writer failed: \(error)\n".utf8))
        exit(1)
    }
}

// PostgreSQL counter: one of several processes on one store (Scripts/postgres-counter-test.sh).
if let first = arguments.first, first == "--postgres-counter", arguments.count == 3 {
    do {
        try PostgresCounterWriter.run(url: arguments[1], role: arguments[2])
    } catch {
        FileHandle.standardError.write(Data("postgres counter failed: \(error)\n".utf8))
        exit(1)
    }
}

// Profile: our side of one runtime case, once (see ProfileRunner).
if let first = arguments.first, first == "--profile", arguments.count >= 2,
    ["migrate-add", "raw-migrate-add"].contains(arguments[1])
{
    do {
        let repeatIndex = arguments.firstIndex(of: "--repeat")
        try MigrationBenchmarks.profile(
            raw: arguments[1] == "raw-migrate-add",
            rows: arguments.count > 2 ? Int(arguments[2]) ?? 100_000 : 100_000,
            repeats: repeatIndex.flatMap { $0 + 1 < arguments.count ? Int(arguments[$0 + 1]) : nil })
        exit(0)
    } catch {
        FileHandle.standardError.write(Data("profile failed: \(error)\n".utf8))
        exit(1)
    }
}
if let first = arguments.first, first == "--profile", arguments.count >= 2, arguments[1] == "derived" {
    do {
        let repeatIndex = arguments.firstIndex(of: "--repeat")
        try DerivedAttributeBenchmarks.profile(
            members: arguments.count > 2
                ? Int(arguments[2]) ?? DerivedAttributeBenchmarks.members
                : DerivedAttributeBenchmarks.members,
            repeats: repeatIndex.flatMap { $0 + 1 < arguments.count ? Int(arguments[$0 + 1]) : nil })
        exit(0)
    } catch {
        FileHandle.standardError.write(Data("profile failed: \(error)\n".utf8))
        exit(1)
    }
}
if let first = arguments.first, first == "--profile", arguments.count >= 2 {
    do {
        let repeatIndex = arguments.firstIndex(of: "--repeat")
        let positional = Array(arguments[..<(repeatIndex ?? arguments.endIndex)])
        try ProfileRunner.run(
            case: positional[1], employees: positional.count > 2 ? Int(positional[2]) ?? 20_000 : 20_000,
            repeats: repeatIndex.flatMap { $0 + 1 < arguments.count ? Int(arguments[$0 + 1]) : nil })
        exit(0)
    } catch {
        FileHandle.standardError.write(Data("profile failed: \(error)\n".utf8))
        exit(1)
    }
}

let quick = arguments.contains("--quick")
let filter = arguments.firstIndex(of: "--filter").flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil }
var suite = BenchmarkSuite(quick: quick, filter: filter)
do {
    try GeneratorBenchmarks.run(&suite)
    try RuntimeBenchmarks.run(&suite)
    try PostgresBenchmarks.run(&suite)
    try FetchedResultsBenchmarks.run(&suite)
    try DerivedAttributeBenchmarks.run(&suite)
    try MigrationBenchmarks.run(&suite)
} catch {
    FileHandle.standardError.write(Data("benchmark failed: \(error)\n".utf8))
    exit(1)
}
suite.printTable()
exit(suite.failures.isEmpty ? 0 : 1)
