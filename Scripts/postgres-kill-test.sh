#!/bin/bash
# Kills a process saving into a PostgreSQL store with SIGKILL at random moments, many times, and checks the database
# after every kill: every save was all or nothing (employees come in whole batches of 100, each batch's ages agree,
# and every batch but a writer's last carries the age the next save gave it: a save that inserted its batch also
# re-aged the previous one), every save the writer reported before it was killed is there, no primary key is used
# twice, no employee names a missing department, and Z_MAX is past every key. Each round's writer must die by the
# SIGKILL (a writer that exits by itself, for example because it cannot open the store, fails the test).
#
#   Scripts/with-postgres.sh Scripts/postgres-kill-test.sh [ROUNDS]   (default 10; builds datamodelgen-benchmarks
#                                                                      in release)
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-10}
if [ -z "${DATAMODELGEN_TEST_POSTGRES_URL:-}" ]; then
    echo "postgres-kill-test: DATAMODELGEN_TEST_POSTGRES_URL is not set; run it under Scripts/with-postgres.sh" >&2
    exit 1
fi
swift build -c release --product datamodelgen-benchmarks >/dev/null
bin=.build/release/datamodelgen-benchmarks
work=$(mktemp -d)
base=$DATAMODELGEN_TEST_POSTGRES_URL
database="kill_$$"
psql -q -X -v ON_ERROR_STOP=1 "$base" -c "CREATE DATABASE $database" >/dev/null
trap 'rm -rf "$work"; psql -q -X "$base" -c "DROP DATABASE IF EXISTS $database WITH (FORCE)" >/dev/null 2>&1 || true' EXIT
url="${base%/*}/$database"
fail() { echo "postgres-kill-test: $*" >&2; exit 1; }
query() { psql -q -X -t -A -v ON_ERROR_STOP=1 "$url" -c "$1"; }
employees() { query 'SELECT COUNT(*) FROM "ZEMPLOYEEENTITY"' 2>/dev/null || echo 0; }
# Batches that are not whole, or whose ages say a save was applied in part.
torn='WITH b AS (SELECT split_part("ZNAME", '"' #'"', 1) AS batch, MIN("ZAGE") AS age, COUNT(*) AS n,
    COUNT(DISTINCT "ZAGE") AS ages FROM "ZEMPLOYEEENTITY" GROUP BY 1),
  p AS (SELECT batch, split_part(batch, '"'-'"', 1) AS writer, split_part(batch, '"'-'"', 2)::int AS round, age, n, ages
    FROM b)
  SELECT COUNT(*) FROM p WHERE n <> 100 OR ages <> 1 OR age <> CASE WHEN EXISTS (SELECT 1 FROM p AS q
    WHERE q.writer = p.writer AND q.round = p.round + 1) THEN p.round + 1 ELSE p.round END'
duplicates='SELECT COUNT(*) - COUNT(DISTINCT "Z_PK") FROM "ZEMPLOYEEENTITY"'
dangling='SELECT COUNT(*) FROM "ZEMPLOYEEENTITY" WHERE "ZDEPARTMENT" NOT IN (SELECT "Z_PK" FROM "ZDEPARTMENTENTITY")'
behind='SELECT COUNT(*) FROM "Z_PRIMARYKEY" WHERE "Z_NAME" = '"'EmployeeEntity'"' AND "Z_MAX" <
    (SELECT COALESCE(MAX("Z_PK"), 0) FROM "ZEMPLOYEEENTITY")'
before=0
grew=0
for round in $(seq 1 "$rounds"); do
    "$bin" --crash-writer "$url" >"$work/saves" 2>"$work/errors" &
    pid=$!
    # 100–599 ms: the connection and the schema, then saves in flight.
    sleep "0.$(printf '%03d' $(( (RANDOM % 500) + 100 )))"
    kill -9 "$pid" 2>/dev/null || true
    status=0
    wait "$pid" 2>/dev/null || status=$?
    [ "$status" -eq 137 ] || fail "round $round: the writer exited with status $status, not by SIGKILL: $(cat "$work/errors")"
    saves=$(grep -c '^saved$' "$work/saves" || true)
    after=$(employees)
    [ "$after" -ge $(( before + 100 * saves )) ] \
        || fail "round $round: $saves saves reported, but the employees went from $before to $after"
    if [ "$after" -gt 0 ]; then
        # One round trip: torn batches, duplicate keys, dangling departments, Z_MAX behind.
        found=$(query "SELECT ($torn) || '|' || ($duplicates) || '|' || ($dangling) || '|' || ($behind)")
        [ "$found" = "0|0|0|0" ] || fail "round $round: torn batches|duplicate keys|dangling departments|Z_MAX behind = $found"
    fi
    [ "$after" -gt "$before" ] && grew=$((grew + 1))
    before=$after
done
echo "postgres-kill-test: kill -9 x$rounds: $before employees, grew in $grew rounds; no batch torn, no duplicate key, no dangling department, Z_MAX ahead"
[ "$before" -gt 0 ] && [ "$grew" -gt 0 ]
