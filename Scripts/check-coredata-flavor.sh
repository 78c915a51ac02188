#!/bin/bash
# Type-checks the Core Data flavor (what Xcode's codegen writes) generated for every model in Models/ and, when it
# is there, the shared corpus beside the repository, against a stand-in CoreData module
# (Scripts/coredata-stand-in/CoreData.swift: NSManagedObject, NSFetchRequest, … with Apple's signatures). Linux has
# no Objective-C runtime, so the `@objc(…)` selector lines are removed first and nothing else is changed.
#
#   Scripts/check-coredata-flavor.sh [--verbose] [MODEL …]
#
# Entities with `category` codegen get the class the app would own (`public class X: NSManagedObject {}`); custom
# transformable classes the app would define get an `NSObject` stub (counted as "passed with stubs"). A model
# that fails to generate fails the check, and so does a run that checked no model.
set -u
cd "$(dirname "$0")/.."
. Scripts/lib/model-checks.sh
verbose=0
models=()
while [ $# -gt 0 ]; do
    case "$1" in
        --verbose) verbose=1; shift ;;
        *) models+=("$1"); shift ;;
    esac
done
swift build --product datamodelgen >/dev/null || exit 2
tool="$(swift build --show-bin-path)/datamodelgen"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
swiftc -emit-module -module-name CoreData -parse-as-library -swift-version 5 \
    Scripts/coredata-stand-in/CoreData.swift -o "$work/CoreData.swiftmodule" || exit 2
[ ${#models[@]} -gt 0 ] || while IFS= read -r model; do models+=("$model"); done < <(default_models)
typecheck() {
    swiftc -typecheck -swift-version 5 -module-name GeneratedModel -I "$work" "$1"/*.swift >"$1.errors" 2>&1
}
stub_app_types() {
    for _ in 1 2 3 4 5; do
        missing=$(grep -o "cannot find type '[A-Za-z_][A-Za-z0-9_]*' in scope" "$1.errors" | cut -d"'" -f2 | sort -u)
        # `Module.Type` custom classes: the module's stub gets the type as a member.
        members=$(grep -o "'[A-Za-z_][A-Za-z0-9_]*' is not a member type of class 'GeneratedModel\.[A-Za-z_][A-Za-z0-9_]*'" \
            "$1.errors" | sed "s/'\([^']*\)' is not a member type of class 'GeneratedModel\.\([^']*\)'/\2 \1/" | sort -u)
        [ -n "$missing$members" ] || return 1
        for type in $missing; do printf 'import Foundation\npublic class %s: NSObject {}\n' "$type"; done >>"$1/AppTypes.swift"
        printf '%s\n' "$members" | while read -r owner member; do
            [ -n "$owner" ] && printf 'extension %s { public class %s: NSObject {} }\n' "$owner" "$member"
        done >>"$1/AppTypes.swift"
        typecheck "$1" && return 0
    done
    return 1
}
# One model, for run_model_checks: generate, prepare, type-check (Scripts/lib/model-checks.sh records the outcome).
check_model() {
    local model=$1 out=$2 properties class
    if ! "$tool" generate "$model" --output "$out" --flavor coredata --include-manual --no-schema --no-cache \
        >"$out.log" 2>&1; then
        generation_failed "$model" "$out"
        return
    fi
    ls "$out"/*.swift >/dev/null 2>&1 || { echo pass >"$out.result"; return; }  # a model without entities
    sed -i '/^[[:space:]]*@objc(.*)[[:space:]]*$/d' "$out"/*.swift
    for properties in "$out"/*+CoreDataProperties.swift; do
        [ -e "$properties" ] || continue
        class="${properties%+CoreDataProperties.swift}+CoreDataClass.swift"
        [ -e "$class" ] || printf 'import CoreData\npublic class %s: NSManagedObject {}\n' \
            "$(sed -n 's/^extension \([A-Za-z0-9_]*\) {$/\1/p' "$properties" | head -1)" >"$class"
    done
    typecheck_and_record "$model" "$out"
}
run_model_checks "$work" "${models[@]}"
echo "coredata flavor type-checks: $pass passed, $stubbed passed with app-type stubs, $fail failed," \
    "$skipped not generated (of ${#models[@]} models)"
[ $fail -eq 0 ] && [ $skipped -eq 0 ] && [ $((pass + stubbed)) -gt 0 ]
