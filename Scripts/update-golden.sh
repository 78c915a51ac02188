#!/usr/bin/env bash
# Regenerates everything generated that is committed: the golden files of the generator tests from the models in
# Models/, the runtime flavor the runtime tests and benchmarks compile, and the embedded templates.
# Run from anywhere: Scripts/update-golden.sh   (then review `git diff Tests/DataModelCodegenTests/Golden`)
set -euo pipefail
cd "$(dirname "$0")/.."
# The tool renders with the templates compiled into it: embed the current Templates/*.mustache first.
Scripts/embed-templates.sh
swift build --product datamodelgen
tool=".build/debug/datamodelgen"
golden="Tests/DataModelCodegenTests/Golden"
for model in Models/*.xcdatamodeld; do
    name=$(basename "$model" .xcdatamodeld)
    "$tool" generate "$model" --output "$golden/$name/coredata" --flavor coredata --include-manual --no-schema --no-cache
    # The runtime flavor of the other models is committed as the runtime tests' generated code.
    if [ "$name" = ReservedNames ]; then
        "$tool" generate "$model" --output "$golden/$name/runtime" --flavor runtime --include-manual --no-schema --no-cache
    fi
    "$tool" schema "$model" --output "$golden/$name/$name.sql"
    "$tool" schema "$model" --dialect postgres --foreign-keys --output "$golden/$name/$name.postgres.sql"
    "$tool" dump "$model" > "$golden/$name/$name.ir.json"
done
# The migration plans of the store-layout tests (steps and SQL of each case).
UPDATE_GOLDEN=1 swift test --filter 'MigrationPlanTests|corpusDiffsAreGolden|mergedHierarchiesDiffIsGolden' >/dev/null
# The runtime flavor committed for the runtime tests and the benchmarks.
for generated in Tests/DataModelRuntimeTests/Generated/*/ Tests/GeneratedModels/*/; do
    name=$(basename "$generated")
    "$tool" generate "Models/$name.xcdatamodeld" --output "$generated" --no-schema --include-manual --no-cache
done
# The runtime flavor with --xcode-compatible, committed for the runtime tests (XcodeCompatibleTests).
for generated in Tests/DataModelRuntimeTests/XcodeCompatible/*/; do
    name=$(basename "$generated")
    "$tool" generate "Models/$name.xcdatamodeld" --output "$generated" --no-schema --include-manual --xcode-compatible \
        --no-cache
done
# The tutorial models under their own names (links to Models/), with --xcode-compatible, for TutorialPortTests.
for model in Tests/TutorialPortTests/Models/*.xcdatamodeld; do
    name=$(basename "$model" .xcdatamodeld)
    "$tool" generate "$model" --output "Tests/TutorialPortTests/Generated/$name" --no-schema --include-manual \
        --xcode-compatible --no-cache
done
echo "Golden files updated in $golden; committed generated code in Tests/DataModelRuntimeTests/Generated and Tests/GeneratedModels"

