#!/usr/bin/env bash
# Runs a command with a throwaway PostgreSQL cluster: `initdb` into a temporary directory, the server listening on
# 127.0.0.1 and a free port (and a socket in that directory), stopped and deleted when the command ends, whatever
# its outcome. The command sees the server's URL in DATAMODELGEN_TEST_POSTGRES_URL
# (`postgresql://postgres@127.0.0.1:PORT/postgres`, trust authentication: the cluster is reachable from this
# machine only and lives as long as the command).
#
#   Scripts/with-postgres.sh swift test --filter PostgreSQL
#
# Needs the server binaries (Debian: `apt-get install postgresql`); as root, the cluster runs as the `postgres`
# user the package creates, because PostgreSQL refuses to run as root.
set -euo pipefail

if [ "$#" -eq 0 ]; then
    echo "usage: Scripts/with-postgres.sh COMMAND [ARGUMENT...]" >&2
    exit 2
fi

bindir=""
for candidate in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r) "$(dirname "$(command -v initdb 2>/dev/null || echo /nonexistent/initdb)")"; do
    if [ -x "$candidate/initdb" ] && [ -x "$candidate/pg_ctl" ]; then
        bindir=$candidate
        break
    fi
done
if [ -z "$bindir" ]; then
    echo "with-postgres: no PostgreSQL server binaries (initdb, pg_ctl) found; install the postgresql package" >&2
    exit 1
fi

directory=$(mktemp -d "${TMPDIR:-/tmp}/datamodelgen-postgres.XXXXXX")
as_owner=()
if [ "$(id -u)" -eq 0 ]; then
    if ! id postgres >/dev/null 2>&1; then
        echo "with-postgres: running as root needs a 'postgres' user to run the server as" >&2
        exit 1
    fi
    chown postgres "$directory"
    as_owner=(runuser -u postgres --)
fi

stop() {
    "${as_owner[@]}" "$bindir/pg_ctl" -D "$directory/data" -m immediate -w stop >/dev/null 2>&1 || true
    rm -rf "$directory"
}
trap stop EXIT

"${as_owner[@]}" "$bindir/initdb" -D "$directory/data" -U postgres --auth=trust --encoding=UTF8 --locale=C.UTF-8 \
    >"$directory/initdb.log" 2>&1 || {
    cat "$directory/initdb.log" >&2
    exit 1
}

# A free port: try random ones until the server starts (another process may take a port between a check and
# the start, so starting is the check).
started=""
for attempt in 1 2 3 4 5 6 7 8 9 10; do
    port=$((20000 + RANDOM % 20000))
    if "${as_owner[@]}" "$bindir/pg_ctl" -D "$directory/data" -l "$directory/server.log" -w -t 30 \
        -o "-c listen_addresses=127.0.0.1 -p $port -k $directory -c fsync=off -c max_connections=200" \
        start >/dev/null 2>&1; then
        started=$port
        break
    fi
done
if [ -z "$started" ]; then
    echo "with-postgres: the server did not start; its log:" >&2
    cat "$directory/server.log" >&2 || true
    exit 1
fi

export DATAMODELGEN_TEST_POSTGRES_URL="postgresql://postgres@127.0.0.1:$started/postgres"
echo "with-postgres: PostgreSQL $("$bindir/pg_ctl" --version | awk '{print $3}') on 127.0.0.1:$started"
status=0
"$@" || status=$?
exit "$status"
