#!/bin/bash
# Kills a process saving into an SQLite store with SIGKILL at random moments, many times, then
# checks the store: SQLite's integrity check passes, every save was all or nothing (employees
# come in whole batches of 100, each batch's ages agree), no primary key is used twice, no
# employee names a missing department, and Z_MAX is past every key.
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
for round in $(seq 1 "$rounds"); do
    "$bin" --crash-writer "$store" &
    pid=$!
    # 50–450 ms: the first container open, then saves in flight.
    sleep "0.$(( (RANDOM % 40) + 5 ))"
    kill -9 "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
done
check() { sqlite3 "$store" "$1"; }
integrity=$(check "PRAGMA integrity_check")
employees=$(check 'SELECT COUNT(*) FROM ZEMPLOYEEENTITY')
partial=$(check "SELECT COUNT(*) FROM (SELECT substr(ZNAME, 1, instr(ZNAME, '#') - 1) AS r, COUNT(*) AS n, COUNT(DISTINCT ZAGE) AS a FROM ZEMPLOYEEENTITY GROUP BY r HAVING n <> 100 OR a <> 1)")
duplicates=$(check 'SELECT COUNT(*) - COUNT(DISTINCT Z_PK) FROM ZEMPLOYEEENTITY')
dangling=$(check 'SELECT COUNT(*) FROM ZEMPLOYEEENTITY WHERE ZDEPARTMENT NOT IN (SELECT Z_PK FROM ZDEPARTMENTENTITY)')
behind=$(check 'SELECT COUNT(*) FROM Z_PRIMARYKEY p WHERE p.Z_MAX < (SELECT IFNULL(MAX(Z_PK), 0) FROM ZEMPLOYEEENTITY) AND p.Z_NAME = "EmployeeEntity"')
echo "kill -9 x$rounds: integrity $integrity; $employees employees; batches torn $partial; duplicate keys $duplicates; dangling departments $dangling; Z_MAX behind $behind"
[ "$integrity" = "ok" ] && [ "$partial" = "0" ] && [ "$duplicates" = "0" ] && [ "$behind" = "0" ] && [ "$dangling" = "0" ] \
    && [ "$employees" -gt 0 ]
