#!/bin/bash
# Four processes on one PostgreSQL store: each increments a shared counter 100 times, each time in a save that also
# inserts a row of its own, retrying when another process saved the counter first (a MergeConflict). Then checks
# the database: the counter is 400 (no lost update), there are 401 rows with 401 distinct primary keys (no
# duplicate key) and every worker's rows are there.
#
#   Scripts/with-postgres.sh Scripts/postgres-counter-test.sh   (builds datamodelgen-benchmarks in release)
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${DATAMODELGEN_TEST_POSTGRES_URL:-}" ]; then
    echo "postgres-counter-test: DATAMODELGEN_TEST_POSTGRES_URL is not set; run it under Scripts/with-postgres.sh" >&2
    exit 1
fi
swift build -c release --product datamodelgen-benchmarks >/dev/null
bin=.build/release/datamodelgen-benchmarks
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
base=$DATAMODELGEN_TEST_POSTGRES_URL
database="counter_$$"
psql -q -X -v ON_ERROR_STOP=1 "$base" -c "CREATE DATABASE $database" >/dev/null
url="${base%/*}/$database"
fail() { echo "postgres-counter-test: $*" >&2; exit 1; }
query() { psql -q -X -t -A -v ON_ERROR_STOP=1 "$url" -c "$1"; }

"$bin" --postgres-counter "$url" setup >/dev/null
pids=()
for worker in 0 1 2 3; do
    "$bin" --postgres-counter "$url" "$worker" >"$work/out.$worker" 2>"$work/err.$worker" &
    pids+=($!)
done
for index in 0 1 2 3; do
    wait "${pids[$index]}" || fail "worker $index failed: $(cat "$work/err.$index")"
done
retries=$(cat "$work"/out.* | awk '{ total += $2 } END { print total }')
counter=$(query 'SELECT "ZAGE" FROM "ZEMPLOYEEENTITY" WHERE "ZNAME" = '"'counter'")
rows=$(query 'SELECT COUNT(*) FROM "ZEMPLOYEEENTITY"')
keys=$(query 'SELECT COUNT(DISTINCT "Z_PK") FROM "ZEMPLOYEEENTITY"')
names=$(query 'SELECT COUNT(DISTINCT "ZNAME") FROM "ZEMPLOYEEENTITY" WHERE "ZNAME" LIKE '"'w%'")
[ "$counter" = 400 ] || fail "the counter is $counter, not 400 (a lost update)"
[ "$rows" = 401 ] || fail "$rows rows, not 401"
[ "$keys" = 401 ] || fail "$keys distinct primary keys among $rows rows"
[ "$names" = 400 ] || fail "$names distinct worker rows, not 400"
psql -q -X "$base" -c "DROP DATABASE $database" >/dev/null 2>&1 || true
echo "postgres-counter-test: 4 processes × 100 increments: counter 400, 401 rows, 401 keys ($retries retries on conflicts)"
