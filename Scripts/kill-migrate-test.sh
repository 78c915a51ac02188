#!/bin/bash
# Kills `datamodelgen migrate` with SIGKILL at random moments while it migrates a store of 200,000 rows (a
# rename and a removed attribute: a full table rebuild), many times. After each kill the store must pass SQLite's
# integrity check, be recognised as one of the two versions (`migrate --dry-run`), and then migrate completely
# with every row and value kept.
#
#   Scripts/kill-migrate-test.sh [ROUNDS]        (default 10)
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-10}
rows=200000
swift build --product datamodelgen >/dev/null
tool="$(swift build --show-bin-path)/datamodelgen"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "kill-migrate-test: $*" >&2; exit 1; }

. Scripts/lib/ledger-model.sh
bundle=$(write_ledger_bundle "$work")

template="$work/template.sqlite"
"$tool" schema "$bundle" --model-version Ledger | sqlite3 "$template"
sqlite3 "$template" >/dev/null <<SQL
PRAGMA journal_mode=WAL;
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < $rows)
INSERT INTO ZENTRY (Z_PK, Z_ENT, Z_OPT, ZNAME, ZAMOUNT, ZNOTE) SELECT i, 1, 1, 'entry ' || i, i * 3, 'note' FROM n;
UPDATE Z_PRIMARYKEY SET Z_MAX = $rows WHERE Z_ENT = 1;
PRAGMA wal_checkpoint(TRUNCATE);
SQL
store="$work/store.sqlite"
fresh() { rm -f "$store" "$store-wal" "$store-shm"; cp "$template" "$store"; }

fresh
start=$(date +%s%N)
"$tool" migrate "$bundle" "$store" >/dev/null
duration_ms=$(( ($(date +%s%N) - start) / 1000000 ))
echo "one migration of $rows rows: ${duration_ms} ms"

check_complete() {
    local count sum titled
    count=$(sqlite3 "$store" 'SELECT COUNT(*) FROM ZENTRY')
    sum=$(sqlite3 "$store" 'SELECT SUM(ZAMOUNT) FROM ZENTRY')
    titled=$(sqlite3 "$store" "SELECT COUNT(*) FROM ZENTRY WHERE ZTITLE = 'entry ' || Z_PK")
    [ "$count" = "$rows" ] && [ "$sum" = "$(( 3 * rows * (rows + 1) / 2 ))" ] && [ "$titled" = "$rows" ] \
        || fail "$1: $count rows, sum $sum, $titled titles kept"
}
check_complete "uninterrupted"

old=0; new=0
for round in $(seq 1 "$rounds"); do
    fresh
    "$tool" migrate "$bundle" "$store" >/dev/null 2>&1 &
    pid=$!
    sleep "$(awk -v max="$duration_ms" -v r="$RANDOM" 'BEGIN { printf "%.3f", (r % (max + 20)) / 1000 }')"
    kill -9 "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
    [ "$(sqlite3 "$store" 'PRAGMA integrity_check')" = "ok" ] || fail "round $round: integrity check failed"
    source=$("$tool" migrate "$bundle" "$store" --dry-run --format json | sed -n 's/.*"sourceVersion" : "\(.*\)".*/\1/p')
    case "$source" in
        "Ledger") old=$((old + 1)) ;;
        "Ledger 2") new=$((new + 1)) ;;
        *) fail "round $round: the store was recognised as '$source'" ;;
    esac
    "$tool" migrate "$bundle" "$store" >/dev/null || fail "round $round: migrating after the kill failed"
    check_complete "round $round"
done
echo "kill -9 during migrate x$rounds: every store whole ($old left in the old version, $new in the new one), then migrated completely"
