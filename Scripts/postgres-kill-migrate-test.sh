#!/bin/bash
# Kills `datamodelgen migrate` with SIGKILL at random moments while it migrates a PostgreSQL store of 200,000 rows (a
# rename and a removed attribute: a full table rebuild), many times. After each kill the database must hold the store
# whole in one of the two versions (every row and value, no table moved aside left over), and the next `migrate` must
# finish the migration with every row and value kept. The store's tables are the first version's schema command DDL
# (`datamodelgen schema --dialect postgres`), filled by SQL, copied for each round from a template database.
#
#   Scripts/with-postgres.sh Scripts/postgres-kill-migrate-test.sh [ROUNDS]   (default 10)
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-10}
rows=200000
if [ -z "${DATAMODELGEN_TEST_POSTGRES_URL:-}" ]; then
    echo "postgres-kill-migrate-test: DATAMODELGEN_TEST_POSTGRES_URL is not set; run it under Scripts/with-postgres.sh" >&2
    exit 1
fi
swift build --product datamodelgen >/dev/null
swift build --product datamodelgen-postgres >/dev/null
tool="$(swift build --show-bin-path)/datamodelgen"
work=$(mktemp -d)
base=$DATAMODELGEN_TEST_POSTGRES_URL
template="kill_migrate_template_$$"
database="kill_migrate_$$"
admin() { PGOPTIONS="-c client_min_messages=warning" psql -q -X -v ON_ERROR_STOP=1 "$base" -c "$1" >/dev/null; }
cleanup() {
    rm -rf "$work"
    admin "DROP DATABASE IF EXISTS $database WITH (FORCE)" 2>/dev/null || true
    admin "DROP DATABASE IF EXISTS $template WITH (FORCE)" 2>/dev/null || true
}
trap cleanup EXIT
fail() { echo "postgres-kill-migrate-test: $*" >&2; exit 1; }
url="${base%/*}/$database"
query() { psql -q -X -t -A -v ON_ERROR_STOP=1 "$url" -c "$1"; }

. Scripts/lib/ledger-model.sh
bundle=$(write_ledger_bundle "$work")

admin "CREATE DATABASE $template"
"$tool" schema "$bundle" --model-version Ledger --dialect postgres >"$work/ledger.sql"
psql -q -X -v ON_ERROR_STOP=1 "${base%/*}/$template" -f "$work/ledger.sql" >/dev/null
psql -q -X -v ON_ERROR_STOP=1 "${base%/*}/$template" >/dev/null <<SQL
INSERT INTO "ZENTRY" ("Z_PK", "Z_ENT", "Z_OPT", "ZNAME", "ZAMOUNT", "ZNOTE")
    SELECT i, 1, 1, 'entry ' || i, i * 3, 'note' FROM generate_series(1, $rows) AS i;
UPDATE "Z_PRIMARYKEY" SET "Z_MAX" = $rows WHERE "Z_ENT" = 1;
SQL
fresh() {
    admin "DROP DATABASE IF EXISTS $database WITH (FORCE)"
    admin "CREATE DATABASE $database TEMPLATE $template"
}
expected_sum=$(( 3 * rows * (rows + 1) / 2 ))
# "1" or "2": the version whose whole store the database holds; anything else fails.
version_held() {
    local columns leftovers count sum kept
    columns=$(query "SELECT string_agg(column_name::text, ',' ORDER BY column_name) FROM information_schema.columns
        WHERE table_schema = current_schema() AND table_name = 'ZENTRY' AND column_name IN ('ZNAME', 'ZTITLE', 'ZNOTE')")
    leftovers=$(query "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = current_schema()
        AND table_name LIKE '\\_DMG\\_OLD\\_%'")
    [ "$leftovers" = "0" ] || fail "$1: $leftovers tables moved aside are left over"
    count=$(query 'SELECT COUNT(*) FROM "ZENTRY"')
    sum=$(query 'SELECT SUM("ZAMOUNT") FROM "ZENTRY"')
    case "$columns" in
    ZNAME,ZNOTE) kept=$(query "SELECT COUNT(*) FROM \"ZENTRY\" WHERE \"ZNAME\" = 'entry ' || \"Z_PK\"") ;;
    ZTITLE) kept=$(query "SELECT COUNT(*) FROM \"ZENTRY\" WHERE \"ZTITLE\" = 'entry ' || \"Z_PK\"") ;;
    *) fail "$1: ZENTRY has the columns '$columns' of neither version" ;;
    esac
    [ "$count" = "$rows" ] && [ "$sum" = "$expected_sum" ] && [ "$kept" = "$rows" ] \
        || fail "$1: $count rows, sum $sum, $kept names kept ($columns)"
    [ "$columns" = "ZTITLE" ] && echo 2 || echo 1
}

fresh
start=$(date +%s%N)
"$tool" migrate "$bundle" "$url" >"$work/out" 2>&1 || fail "uninterrupted migration failed: $(cat "$work/out")"
duration_ms=$(( ($(date +%s%N) - start) / 1000000 ))
echo "one migration of $rows rows on PostgreSQL: ${duration_ms} ms"
[ "$(version_held uninterrupted)" = "2" ] || fail "the uninterrupted migration left the first version"

old=0; new=0
for round in $(seq 1 "$rounds"); do
    fresh
    "$tool" migrate "$bundle" "$url" >/dev/null 2>&1 &
    pid=$!
    sleep "$(awk -v max="$duration_ms" -v r="$RANDOM" 'BEGIN { printf "%.3f", (r % (max + 20)) / 1000 }')"
    kill -9 "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
    # The server rolls back the killed session's transaction when it notices the session is gone; until then this
    # reads the state before it, and the next migrate waits for the lock.
    held=$(version_held "round $round, after the kill")
    if [ "$held" = "1" ]; then old=$((old + 1)); else new=$((new + 1)); fi
    "$tool" migrate "$bundle" "$url" >"$work/out" 2>&1 || fail "round $round: migrating after the kill failed: $(cat "$work/out")"
    [ "$(version_held "round $round, migrated again")" = "2" ] || fail "round $round: the second migrate left version 1"
done
echo "postgres-kill-migrate-test: $rounds rounds; killed before the commit $old times, after it $new times; whole every time"
