import FuzzSupport

@_cdecl("fuzz_migration_main")
public func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv) { start, size in testOneInput(start, size) }
}
