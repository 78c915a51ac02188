#!/usr/bin/env bash
# Coverage-guided fuzzing with libFuzzer, one target per parser that takes outside input.
#
#   Scripts/fuzz.sh --list            the target names, one a line
#   Scripts/fuzz.sh TARGET SECONDS    build TARGET with -sanitize=fuzzer,address and run it for SECONDS
#
# FUZZ_TIMEOUT (seconds, default 10) is the time one input may take before it counts as a hang; raise it on a loaded
# machine for the slow targets (fuzz-predicate-translator, fuzz-migration).
#
# Each run starts from a seed corpus drawn from the repository (Models/, the test fixtures, the templates), copied
# into a temporary directory together with what earlier runs found (.build/fuzz-corpus/TARGET, kept between runs),
# and uses the target's dictionary of the format's tokens (Fuzz/Dictionaries/TARGET.dict, when the target has one:
# fuzz-migration and fuzz-predicate-translator read their input as a stream of choices, not as text, and are seeded
# with slices of repository files, any bytes being a valid input). A finding (crash, hang,
# sanitizer report, leak) stops the run with a non-zero exit; libFuzzer writes the input that caused it to
# .build/fuzz-findings/TARGET/ and prints how to reproduce it (`.build/fuzz/release/TARGET FILE`). Fix it and add the
# input as a regression test (Tests/DataModelGenCLITests/FuzzRegressionTests.swift holds those of the model loader).
set -euo pipefail
cd "$(dirname "$0")/.."

targets=(fuzz-model fuzz-current-version fuzz-mustache fuzz-predicate-format fuzz-predicate-translator fuzz-migration)

if [ "${1:-}" = "--list" ]; then
    printf '%s\n' "${targets[@]}"
    exit 0
fi
if [ "$#" -ne 2 ] || ! [[ "$2" =~ ^[0-9]+$ ]]; then
    echo "usage: Scripts/fuzz.sh --list | TARGET SECONDS" >&2
    exit 2
fi
target=$1
seconds=$2
known=0
for name in "${targets[@]}"; do [ "$name" = "$target" ] && known=1; done
if [ "$known" -ne 1 ]; then
    echo "fuzz: unknown target '$target'; targets: ${targets[*]}" >&2
    exit 2
fi

DATAMODELGEN_FUZZ=1 swift build -c release --scratch-path .build/fuzz --product "$target" \
    -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library 2>&1 | grep -v "Cannot export local symbol" || true
binary=".build/fuzz/release/$target"
if [ ! -x "$binary" ]; then
    echo "fuzz: building $target failed" >&2
    exit 1
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
corpus="$work/corpus"
mkdir -p "$corpus" ".build/fuzz-corpus/$target" ".build/fuzz-findings/$target"
seed() {
    # Copies each existing file given into the corpus, named by its checksum (duplicates collapse).
    local file
    for file in "$@"; do
        [ -f "$file" ] || continue
        cp "$file" "$corpus/$(cksum <"$file" | cut -d' ' -f1)"
    done
}
case "$target" in
fuzz-model)
    while IFS= read -r -d '' file; do seed "$file"; done < <(find Models Tests Examples -name contents -type f -print0)
    ;;
fuzz-current-version)
    while IFS= read -r -d '' file; do seed "$file"; done < <(find Models Tests Examples -name .xccurrentversion -type f -print0)
    ;;
fuzz-mustache)
    while IFS= read -r -d '' file; do seed "$file"; done < <(find Templates Examples Tests -name '*.mustache' -type f -print0)
    ;;
fuzz-predicate-format)
    # The format strings of the parser's tests, one a file.
    grep -hoE '"([^"\\]|\\.)*"' Tests/PredicateFormatTests/*.swift | sed 's/^"//; s/"$//' | sort -u |
        while IFS= read -r line; do printf '%s' "$line" >"$corpus/$(printf '%s' "$line" | cksum | cut -d' ' -f1)"; done
    ;;
fuzz-predicate-translator | fuzz-migration)
    # Choices, not text: slices of the models and of the runtime tests, each a different length.
    length=40
    while IFS= read -r -d '' file; do
        length=$((length % 600 + 37))
        head -c "$length" "$file" >"$work/slice"
        seed "$work/slice"
    done < <(find Models Tests/DataModelRuntimeTests/Predicates -type f -print0 | sort -z)
    ;;
esac
cp -R ".build/fuzz-corpus/$target/." "$corpus/" 2>/dev/null || true
echo "fuzz: $target for ${seconds}s from $(ls "$corpus" | wc -l) inputs"

dictionary=()
[ -f "Fuzz/Dictionaries/$target.dict" ] && dictionary=(-dict="Fuzz/Dictionaries/$target.dict")
status=0
# SWIFT_BACKTRACE=enable=no: libFuzzer prints the stack of a crash; Swift's own backtracer, reading another
# thread's stack, would add a sanitizer report of its own.
SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0} "$binary" "$corpus" \
    "${dictionary[@]}" -max_total_time="$seconds" -timeout="${FUZZ_TIMEOUT:-10}" -rss_limit_mb=2048 \
    -max_len=65536 -print_final_stats=1 -artifact_prefix=".build/fuzz-findings/$target/" \
    >"$work/log" 2>&1 || status=$?
# Keep what the run found for the next one.
cp -R "$corpus/." ".build/fuzz-corpus/$target/" 2>/dev/null || true
grep -E '^(stat::number_of_executed_runs|stat::new_units_added|#[0-9]+ *DONE)|cov: ' "$work/log" | tail -3 || true
if [ "$status" -ne 0 ]; then
    echo "fuzz: $target found a problem (exit $status):" >&2
    grep -v "Cannot export local symbol" "$work/log" | tail -60 >&2
    exit 1
fi
echo "fuzz: $target: no finding in ${seconds}s"
