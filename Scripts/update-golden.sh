#!/usr/bin/env bash
# Regenerates the golden files of the generator tests from the models in Models/.
# Run from anywhere: Scripts/update-golden.sh   (then review `git diff Tests/DataModelCodegenTests/Golden`)
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --product datamodelgen
tool=".build/debug/datamodelgen"
golden="Tests/DataModelCodegenTests/Golden"
for model in Models/*.xcdatamodeld; do
    name=$(basename "$model" .xcdatamodeld)
    for flavor in coredata runtime; do
        "$tool" generate "$model" --output "$golden/$name/$flavor" --flavor "$flavor" --include-manual --no-schema
    done
    "$tool" schema "$model" --output "$golden/$name/$name.sql"
    "$tool" dump "$model" > "$golden/$name/$name.ir.json"
done
echo "Golden files updated in $golden"

# Committed runtime-flavor code compiled by the runtime tests and the benchmarks.
for target in Tests/DataModelRuntimeTests/Generated Benchmarks/Generated; do
    for directory in "$target"/*/; do
        [ -d "$directory" ] || continue
        name=$(basename "$directory")
        "$tool" generate "Models/$name.xcdatamodeld" --output "$target/$name" --no-schema --include-manual
    done
done
echo "Committed generated code updated in Tests/DataModelRuntimeTests/Generated and Benchmarks/Generated"
