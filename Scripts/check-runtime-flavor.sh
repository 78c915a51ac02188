#!/bin/bash
# Type-checks the runtime flavor generated for every model in Models/ and ../shared/corpus/models
# against DataModelRuntime, and prints how many pass. First checks that the generated code the
# runtime tests use (Tests/DataModelRuntimeTests/Generated/<Model>) is up to date; regenerate with
#   datamodelgen generate Models/<Model>.xcdatamodeld --output Tests/DataModelRuntimeTests/Generated/<Model> --no-schema --include-manual
#
#   Scripts/check-runtime-flavor.sh [--scratch-path DIR] [--verbose] [--xcode-compatible] [MODEL …]
#
# --xcode-compatible checks the runtime flavor generated with that option (Xcode's shapes and file names) instead.
#
# Each model is generated with --include-manual. Entities with `category` codegen get a stub
# class (`open class X: ManagedObject {}`), standing in for the class the app would own; custom
# transformable types the app would define (`cannot find type 'X'`) get a `Codable` stub struct
# and the model is checked again (counted as "passed with stubs"). A model that fails to generate fails the
# check, and so does a run that checked no model.
set -u
cd "$(dirname "$0")/.."
. Scripts/lib/model-checks.sh
scratch=.build
verbose=0
xcode=()
models=()
while [ $# -gt 0 ]; do
    case "$1" in
        --scratch-path) scratch="$2"; shift 2 ;;
        --verbose) verbose=1; shift ;;
        --xcode-compatible) xcode=(--xcode-compatible); shift ;;
        *) models+=("$1"); shift ;;
    esac
done
swift build --scratch-path "$scratch" --product datamodelgen >/dev/null || exit 2
swift build --scratch-path "$scratch" --target DataModelRuntime >/dev/null || exit 2
bin="$scratch/debug"
stale=0
for generated in Tests/DataModelRuntimeTests/Generated/*/ Tests/GeneratedModels/*/; do
    name=$(basename "$generated")
    if ! "$bin/datamodelgen" generate "Models/$name.xcdatamodeld" --output "$generated" --no-schema --include-manual --check; then
        echo "STALE $generated: regenerate with Scripts/update-golden.sh"
        stale=1
    fi
done
for generated in Tests/DataModelRuntimeTests/XcodeCompatible/*/; do
    [ -d "$generated" ] || continue
    name=$(basename "$generated")
    if ! "$bin/datamodelgen" generate "Models/$name.xcdatamodeld" --output "$generated" --no-schema --include-manual \
        --xcode-compatible --check; then
        echo "STALE $generated: regenerate with Scripts/update-golden.sh"
        stale=1
    fi
done
for model in Tests/TutorialPortTests/Models/*.xcdatamodeld; do
    name=$(basename "$model" .xcdatamodeld)
    if ! "$bin/datamodelgen" generate "$model" --output "Tests/TutorialPortTests/Generated/$name" --no-schema \
        --include-manual --xcode-compatible --check; then
        echo "STALE Tests/TutorialPortTests/Generated/$name: regenerate with Scripts/update-golden.sh"
        stale=1
    fi
done
[ ${#models[@]} -gt 0 ] || while IFS= read -r model; do models+=("$model"); done < <(default_models)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Adds Codable stubs for the types swiftc cannot find and checks again, up to 5 rounds.
stub_app_types() {
    for _ in 1 2 3 4 5; do
        missing=$(grep -o "cannot find type '[A-Za-z_][A-Za-z0-9_]*' in scope" "$1.errors" | cut -d"'" -f2 | sort -u)
        [ -n "$missing" ] || return 1
        for type in $missing; do printf 'public struct %s: Codable, Hashable, Sendable {}\n' "$type"; done >>"$1/AppTypes.swift"
        typecheck "$1" && return 0
    done
    return 1
}
# DataModelRuntime uses PostgresKit, which imports libpq's headers through the CLibPQ module map.
libpq_flags=(-Xcc -fmodule-map-file=Sources/CLibPQ/module.modulemap -Xcc -ISources/CLibPQ)
for directory in $(pkg-config --cflags-only-I libpq 2>/dev/null | sed 's/-I//g' || true) /usr/include/postgresql; do
    libpq_flags+=(-Xcc "-I$directory")
done
typecheck() {
    swiftc -typecheck -swift-version 6 -module-name GeneratedModel -parse-as-library \
        -I "$bin/Modules" -Xcc -fmodule-map-file=Sources/CSQLite/module.modulemap -Xcc -ISources/CSQLite "${libpq_flags[@]}" \
        "$1"/*.swift >"$1.errors" 2>&1
}
# One model, for run_model_checks: generate, prepare, type-check (Scripts/lib/model-checks.sh records the outcome).
check_model() {
    local model=$1 out=$2 properties class suffix
    if ! "$bin/datamodelgen" generate "$model" --output "$out" --include-manual --no-schema ${xcode[@]+"${xcode[@]}"} \
        >"$out.log" 2>&1; then
        generation_failed "$model" "$out"
        return
    fi
    # The app's own class file is named like the class (`X.swift`), as people name theirs: the generated
    # names (`X+DataModelClass.swift`) must not collide with it.
    for properties in "$out"/*+DataModelProperties.swift "$out"/*+CoreDataProperties.swift; do
        [ -e "$properties" ] || continue
        class="${properties%+*Properties.swift}"
        suffix="${properties##*+}"
        [ -e "$class+${suffix%Properties.swift}Class.swift" ] ||
            printf 'import DataModelRuntime\nopen class %s: ManagedObject {}\n' "$(basename "$class")" >"$class.swift"
    done
    typecheck_and_record "$model" "$out"
}
run_model_checks "$work" "${models[@]}"
echo "runtime flavor${xcode[@]+ (${xcode[*]})} type-checks: $pass passed, $stubbed passed with app-type stubs, $fail failed," \
    "$skipped not generated (of ${#models[@]} models)"
# Every model must generate and type-check; a run that checked nothing proves nothing.
[ $fail -eq 0 ] && [ $skipped -eq 0 ] && [ $stale -eq 0 ] && [ $((pass + stubbed)) -gt 0 ]
