#!/bin/bash
# Kills a process saving into an SQLite store with SIGKILL at random moments, many times, then
# checks the store: SQLite's integrity check passes, every save was all or nothing (employees
# come in whole batches of 100, each batch's ages agree), every save the writer reported before it
# was killed is there, no primary key is used twice, no employee names a missing department, and
# Z_MAX is past every key. Each round's writer must die by the SIGKILL (a writer that exits by
# itself, for example because it cannot reopen the killed store, fails the test).
#
#   Scripts/kill-test.sh [ROUNDS]        (default 20; builds datamodelgen-benchmarks in release)
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-20}
swift build -c release --product datamodelgen-benchmarks >/dev/null
bin=.build/release/datamodelgen-benchmarks
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
store="$work/store.sqlite"
check() { sqlite3 "$store" "$1"; }
count() { [ -f "$store" ] && check 'SELECT COUNT(*) FROM ZEMPLOYEEENTITY' 2>/dev/null || echo 0; }
fail() { echo "kill-test: $*" >&2; exit 1; }
before=0
grew=0
for round in $(seq 1 "$rounds"); do
    "$bin" --crash-writer "$store" >"$work/saves" 2>"$work/errors" &
    pid=$!
    # 50–449 ms: the first container open, then saves in flight.
    sleep "0.$(printf '%03d' $(( (RANDOM % 400) + 50 )))"
    kill -9 "$pid" 2>/dev/null || true
    status=0
    wait "$pid" 2>/dev/null || status=$?
    [ "$status" -eq 137 ] || fail "round $round: the writer exited with status $status, not by SIGKILL: $(cat "$work/errors")"
    saves=$(grep -c '^saved$' "$work/saves" || true)
    after=$(count)
    [ "$after" -ge $(( before + 100 * saves )) ] \
        || fail "round $round: $saves saves reported, but the employees went from $before to $after"
    [ "$after" -gt "$before" ] && grew=$((grew + 1))
    before=$after
done
integrity=$(check "PRAGMA integrity_check")
employees=$(check 'SELECT COUNT(*) FROM ZEMPLOYEEENTITY')
partial=$(check "SELECT COUNT(*) FROM (SELECT substr(ZNAME, 1, instr(ZNAME, '#') - 1) AS r, COUNT(*) AS n, COUNT(DISTINCT ZAGE) AS a FROM ZEMPLOYEEENTITY GROUP BY r HAVING n <> 100 OR a <> 1)")
duplicates=$(check 'SELECT COUNT(*) - COUNT(DISTINCT Z_PK) FROM ZEMPLOYEEENTITY')
dangling=$(check 'SELECT COUNT(*) FROM ZEMPLOYEEENTITY WHERE ZDEPARTMENT NOT IN (SELECT Z_PK FROM ZDEPARTMENTENTITY)')
behind=$(check 'SELECT COUNT(*) FROM Z_PRIMARYKEY p WHERE p.Z_MAX < (SELECT IFNULL(MAX(Z_PK), 0) FROM ZEMPLOYEEENTITY) AND p.Z_NAME = "EmployeeEntity"')
echo "kill -9 x$rounds: integrity $integrity; $employees employees, grew in $grew rounds; batches torn $partial; duplicate keys $duplicates; dangling departments $dangling; Z_MAX behind $behind"
[ "$integrity" = "ok" ] && [ "$partial" = "0" ] && [ "$duplicates" = "0" ] && [ "$behind" = "0" ] && [ "$dangling" = "0" ] \
    && [ "$employees" -gt 0 ] && [ "$grew" -gt 0 ]
