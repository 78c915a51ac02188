#!/bin/bash
# Compiles (to SIL, where Swift checks sending and isolation regions) each snippet of Tests/ConcurrencyMisuse against DataModelRuntime: `// expect: ok`
# snippets must compile; the others must fail with their `// expect-error:` text. Exit 1 when one
# does not behave.
#
#   Scripts/check-concurrency-misuse.sh [--scratch-path DIR]
set -u
cd "$(dirname "$0")/.."
scratch=.build
[ "${1:-}" = "--scratch-path" ] && scratch="$2"
swift build --scratch-path "$scratch" --target DataModelRuntime >/dev/null || exit 2
# DataModelRuntime uses PostgresKit, which imports libpq's headers through the CLibPQ module map.
libpq_flags=(-Xcc -fmodule-map-file=Sources/CLibPQ/module.modulemap -Xcc -ISources/CLibPQ)
for directory in $(pkg-config --cflags-only-I libpq 2>/dev/null | sed 's/-I//g' || true) /usr/include/postgresql; do
    libpq_flags+=(-Xcc "-I$directory")
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
for snippet in Tests/ConcurrencyMisuse/*.swift; do
    first=$(head -n 1 "$snippet")
    swiftc -emit-sil -o /dev/null -swift-version 6 -parse-as-library -module-name Snippet -I "$scratch/debug/Modules" \
        -Xcc -fmodule-map-file=Sources/CSQLite/module.modulemap -Xcc -ISources/CSQLite "${libpq_flags[@]}" \
        "$snippet" >"$work/out" 2>&1
    status=$?
    case "$first" in
        "// expect: ok")
            if [ $status -ne 0 ]; then
                echo "FAIL $snippet: should compile"; cat "$work/out"; failures=$((failures + 1))
            else
                echo "ok   $snippet compiles"
            fi ;;
        "// expect-error: "*)
            expected=${first#"// expect-error: "}
            if [ $status -eq 0 ]; then
                echo "FAIL $snippet: compiled, expected an error containing '$expected'"; failures=$((failures + 1))
            elif ! grep -qF "$expected" "$work/out"; then
                echo "FAIL $snippet: error without '$expected'"; cat "$work/out"; failures=$((failures + 1))
            else
                echo "ok   $snippet is refused ($expected)"
            fi ;;
        *) echo "FAIL $snippet: first line must be '// expect: ok' or '// expect-error: …'"; failures=$((failures + 1)) ;;
    esac
done
[ $failures -eq 0 ]
