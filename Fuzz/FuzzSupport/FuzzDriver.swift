// The command line of a fuzz target, handed to libFuzzer's driver.
//
// SwiftPM renames an executable module's `main` to `<module>_main` and links `main` to that, so each target
// defines `<module>_main` (three lines) and calls `runFuzzer` with its input function; libFuzzer's own `main` is
// then never linked in.
@_silgen_name("LLVMFuzzerRunDriver")
private func runDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ test: @convention(c) (UnsafeRawPointer?, Int) -> CInt
) -> CInt

/// Runs libFuzzer with the program's arguments and `test` as the input function.
public func runFuzzer(
    _ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
    _ test: @convention(c) (UnsafeRawPointer?, Int) -> CInt
) -> CInt {
    var count = argc
    var arguments = argv
    return runDriver(&count, &arguments, test)
}
