#!/usr/bin/env bash
# Tests the SwiftPM plugins through Examples/Company, from a clean copy in a temporary directory (the
# repository tree is never written to):
#   1. build plugin: `swift build` from scratch; a second build runs no generation; touching a model's
#      `contents` (or the config) regenerates that model only; a model error fails the build with
#      `path:line:column: error:` on the model file; the generated files equal `datamodelgen generate`'s;
#   2. `swift test` and `swift run` in the example;
#   3. command plugin: its output equals `datamodelgen generate`'s for the same options, `--check` passes on
#      fresh output and fails after a model edit.
# Prints the wall time of a no-change `swift build` and of one after touching the model.
# Run from anywhere: Scripts/test-plugins.sh
set -euo pipefail

repo="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/datamodelgen-plugins.XXXXXX")"
trap 'rm -rf "$work"' EXIT
example="$work/Company"
target="$example/Sources/CompanyData"
company_contents="$target/Company.xcdatamodeld/Company.xcdatamodel/contents"
generation_line="Generating Swift for"

step() { printf '\n== %s\n' "$*"; }
fail() {
    echo "FAIL: $*" >&2
    exit 1
}
now() { date +%s.%N; }
elapsed() { awk -v start="$1" -v end="$2" 'BEGIN { printf "%.2f", end - start }'; }

# A clean copy whose path dependency points back at this repository.
mkdir -p "$example"
(cd "$repo/Examples/Company" && tar --exclude=./.build --exclude=./.swiftpm -cf - .) | (cd "$example" && tar -xf -)
escaped_repo=$(printf '%s' "$repo" | sed 's/[&|\\]/\\&/g')
sed "s|path: \"../..\"|path: \"$escaped_repo\"|" "$repo/Examples/Company/Package.swift" >"$example/Package.swift"
grep -q "path: \"$repo\"" "$example/Package.swift" || fail "could not point the example at $repo"
cd "$example"

build() { swift build "$@" 2>&1 | tee "$work/build.log"; }

step "swift build (clean)"
start=$(now)
build >/dev/null || {
    cat "$work/build.log"
    fail "clean build failed"
}
clean_time=$(elapsed "$start" "$(now)")
grep -q "$generation_line Company.xcdatamodeld" "$work/build.log" || fail "clean build did not generate Company"
grep -q "$generation_line Records.xcdatamodeld" "$work/build.log" || fail "clean build did not generate Records"
if grep -q "unhandled" "$work/build.log"; then fail "SwiftPM warned about unhandled files"; fi
# A clean build of a package that depends on this one prints no error or warning (a user reads one as a failure).
if grep -E "(^|: )(error|warning):" "$work/build.log"; then fail "the clean build printed errors or warnings"; fi
# The target holds the user's own EmployeeEntity.swift beside the generated EmployeeEntity+DataModelClass.swift:
# generated file names never collide with the names people give their files (two EmployeeEntity.swift in one
# target would not build).
[ -f "$target/EmployeeEntity.swift" ] || fail "the example lost its own EmployeeEntity.swift"
echo "ok (${clean_time}s)"

step "the build plugin's files equal datamodelgen generate --no-schema"
outputs="$example/.build/plugins/outputs/company/CompanyData/destination/DataModelGenPlugin"
# The CLI as both plugins build it (the host-tool build of the `datamodelgen` product): comparing against it
# checks what the plugins add — file discovery, config, options, paths, the declared outputs.
# SwiftPM names it datamodelgen-tool, or plain datamodelgen when it is built for the host only.
tool="$example/.build/debug/datamodelgen-tool"
[ -x "$tool" ] || tool="$example/.build/debug/datamodelgen"
[ -x "$tool" ] || fail "no datamodelgen-tool or datamodelgen in the example's build directory"
for model in Company Records; do
    "$tool" generate "$target/$model.xcdatamodeld" --output "$work/cli-build/$model" --no-schema
    diff -r "$work/cli-build/$model" "$outputs/$model" || fail "build plugin output for $model differs"
done
echo ok

# The build plugin's predicted output names are checked against `generate` for every model in Models/ and the
# corpus by `swift test --filter PluginOutputTests`, which compiles the plugins' shared sources.

# SwiftPM builds a plugin's tool in a separate pass with its own build database, and the first build after a
# clean one relinks datamodelgen-tool once more (which, the tool being an input, re-runs the generator); from
# then on the build is stable. Settle that first.
step "settling build"
build >/dev/null
grep -q "Linking datamodelgen" "$work/build.log" && echo "(SwiftPM relinked datamodelgen once after the clean build)"

step "no-change swift build runs no generation"
start=$(now)
build >/dev/null
no_change_time=$(elapsed "$start" "$(now)")
if grep -q "$generation_line" "$work/build.log"; then
    cat "$work/build.log"
    fail "a no-change build ran the generator"
fi
echo "ok (${no_change_time}s)"

step "touching Company's contents regenerates Company only"
touch "$company_contents"
start=$(now)
build >/dev/null
touched_time=$(elapsed "$start" "$(now)")
grep -q "$generation_line Company.xcdatamodeld" "$work/build.log" || fail "touching the model did not regenerate it"
if grep -q "$generation_line Records.xcdatamodeld" "$work/build.log"; then fail "Records was regenerated too"; fi
echo "ok (${touched_time}s)"

step "editing Company's contents regenerates and recompiles"
cp "$company_contents" "$work/contents.saved"
sed 's|<attribute name="name" optional="YES" attributeType="String"/>|&<attribute name="motto" optional="YES" attributeType="String"/>|' \
    "$work/contents.saved" >"$company_contents"
start=$(now)
build >/dev/null
edited_time=$(elapsed "$start" "$(now)")
grep -q "$generation_line Company.xcdatamodeld" "$work/build.log" || fail "editing the model did not regenerate it"
grep -q "Compiling CompanyData" "$work/build.log" || fail "editing the model did not recompile the target"
grep -q "public var motto: String?" "$outputs/Company/EmployeeEntity+DataModelProperties.swift" || fail "the edit is not in the output"
cp "$work/contents.saved" "$company_contents"
build >/dev/null
echo "ok (${edited_time}s)"

step "touching datamodelgen.json regenerates both models"
touch "$target/datamodelgen.json"
build >/dev/null
grep -q "$generation_line Company.xcdatamodeld" "$work/build.log" || fail "config change did not regenerate Company"
grep -q "$generation_line Records.xcdatamodeld" "$work/build.log" || fail "config change did not regenerate Records"
echo ok

step "a model error fails the build, pointing at the model file and line"
sed 's/destinationEntity="DepartmentEntity" inverseName="businesses"/destinationEntity="Nowhere" inverseName="businesses"/' \
    "$work/contents.saved" >"$company_contents"
if build >/dev/null; then fail "the build succeeded with a broken model"; fi
grep -E "^$company_contents:[0-9]+:[0-9]+: error: .*'Nowhere'.* \[missing-destination\]$" "$work/build.log" ||
    fail "no 'path:line:column: error:' diagnostic on the model in the build log"
cp "$work/contents.saved" "$company_contents"
build >/dev/null || fail "the build did not recover after fixing the model"
echo ok

step "swift test"
swift test 2>&1 | tee "$work/test.log" | grep -E "^(✔|✘|error:)" || true
grep -q "Test run with .* passed" "$work/test.log" || fail "swift test failed"

step "swift run"
swift run 2>"$work/run.err" | tee "$work/run.log" || {
    cat "$work/run.err"
    fail "swift run failed"
}
grep -q "2 employees, 2 departments" "$work/run.log" || fail "swift run printed an unexpected report"
# PersistentContainer(name:) finds the generated models in an executable, not only in a test bundle.
grep -q "Models found by name: Company, Records" "$work/run.log" || fail "swift run did not find the generated models by name"

step "command plugin output equals datamodelgen generate, for two flavors"
plugin() { swift package --allow-writing-to-package-directory generate-data-models "$@"; }
for flavor in runtime coredata; do
    plugin --target CompanyData --flavor "$flavor" >"$work/plugin.log" 2>&1 || {
        cat "$work/plugin.log"
        fail "generate-data-models --flavor $flavor failed"
    }
    for model in Company Records; do
        "$tool" generate "$target/$model.xcdatamodeld" --output "$work/cli-$flavor/$model" --flavor "$flavor" --no-schema
        diff -r "$work/cli-$flavor/$model" "$target/Generated/$model" ||
            fail "generate-data-models --flavor $flavor differs from datamodelgen generate for $model"
    done
done
echo ok

step "generate-data-models --check: passes when fresh, fails after a model edit"
plugin --flavor coredata --check >"$work/check.log" 2>&1 || {
    cat "$work/check.log"
    fail "--check failed on fresh output"
}
sed 's|<attribute name="name" optional="YES" attributeType="String"/>|&<attribute name="motto" optional="YES" attributeType="String"/>|' \
    "$work/contents.saved" >"$company_contents"
if plugin --flavor coredata --check >"$work/check.log" 2>&1; then fail "--check passed after a model edit"; fi
grep -q "generated files are stale for Company.xcdatamodeld" "$work/check.log" || {
    cat "$work/check.log"
    fail "--check did not name the stale model"
}
grep -q "+    @NSManaged public var motto: String?" "$work/check.log" || fail "--check printed no diff"
echo ok

printf '\nPlugin timings (wall, swift build in Examples/Company): clean %ss; no change %ss; model touched %ss\n' \
    "$clean_time" "$no_change_time" "$touched_time"
printf '(touched: regenerated, same bytes, nothing recompiled); model edited %ss (regenerated and recompiled)\n' \
    "$edited_time"
echo "All plugin checks passed."
