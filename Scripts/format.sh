#!/bin/bash
# Formats (or, with --lint, checks) every Swift file the project writes by hand with the
# toolchain's `swift format` and the committed .swift-format. Generated code is left as the
# generator writes: Tests/*/Golden, Tests/*/Generated, Tests/GeneratedModels, Tests/DataModelRuntimeTests/XcodeCompatible
# and the embedded templates. Symlinks (Plugins/PluginsShared/ModelNaming.swift) are skipped: the files they point
# at are formatted where they live.
#
#   Scripts/format.sh [--lint]
set -euo pipefail
cd "$(dirname "$0")/.."
files=()
while IFS= read -r file; do files+=("$file"); done < <(
    find Sources Tests Benchmarks Plugins Examples Fuzz -type f -name '*.swift' \
        -not -path '*/Golden/*' -not -path '*/Generated/*' -not -path 'Tests/GeneratedModels/*' \
        -not -path 'Tests/DataModelRuntimeTests/XcodeCompatible/*' \
        -not -path '*/.build/*' -not -path 'Tests/ConcurrencyMisuse/*' \
        -not -path 'Sources/DataModelTemplates/EmbeddedTemplates.swift' | sort)
if [ "${1:-}" = "--lint" ]; then
    swift format lint --strict "${files[@]}"
else
    swift format --in-place "${files[@]}"
fi
