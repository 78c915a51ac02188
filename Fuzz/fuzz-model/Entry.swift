// The executable's entry point as SwiftPM names it (it renames an executable module's `main` to
// `<module>_main` and links `main` to that): hand the command line to libFuzzer's driver with this target's
// input function. (libFuzzer's own `main` is then never linked in.)
@_silgen_name("LLVMFuzzerRunDriver")
private func runDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ test: @convention(c) (UnsafeRawPointer?, Int) -> CInt
) -> CInt

@_cdecl("fuzz_model_main")
public func fuzzerMain(
    _ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> CInt {
    var count = argc
    var arguments = argv
    return runDriver(&count, &arguments) { start, size in testOneInput(start, size) }
}
