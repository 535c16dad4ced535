#!/usr/bin/env bash
# Installs (if needed) and starts a local PostgreSQL, and creates the database the tests use.
# Prints the connection string for COLOSSEUM_TEST_POSTGRES on its last line.
# Used by .ci/run; safe to run again.
set -euo pipefail
SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi
if ! command -v pg_lsclusters >/dev/null 2>&1 || [ -z "$(ls /usr/lib/postgresql 2>/dev/null)" ]; then
    $SUDO apt-get update -q >&2 || true
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q postgresql >&2
fi
VERSION="$(ls /usr/lib/postgresql | sort -V | tail -1)"
if ! pg_lsclusters -h | awk '{print $1, $2}' | grep -q "^$VERSION main$"; then
    $SUDO pg_createcluster "$VERSION" main >&2
fi
as_postgres() { if [ -n "$SUDO" ]; then sudo -u postgres "$@"; else su postgres -c "$(printf '%q ' "$@")"; fi; }
# Waits until the server answers (a cluster stopped uncleanly replays its WAL first, which takes
# minutes on a busy machine); fails with what the server said if it never does.
wait_ready() {
    for _ in $(seq 1 180); do
        if as_postgres psql -qtAc "SELECT 1" >/dev/null 2>&1; then return 0; fi
        sleep 1
    done
    as_postgres psql -qtAc "SELECT 1" >&2 || true
    echo "PostgreSQL $VERSION did not accept connections within 180 s" >&2
    return 1
}
$SUDO pg_ctlcluster "$VERSION" main start >&2 2>/dev/null || true
wait_ready
ME="$(id -un)"
if [ "$(as_postgres psql -qtAc "SELECT 1 FROM pg_roles WHERE rolname = '$ME'")" != 1 ]; then
    as_postgres psql -qc "CREATE ROLE \"$ME\" LOGIN SUPERUSER" >&2
fi
if [ "$(as_postgres psql -qtAc "SELECT 1 FROM pg_database WHERE datname = 'colosseum_test'")" != 1 ]; then
    as_postgres psql -qc "CREATE DATABASE colosseum_test OWNER \"$ME\"" >&2
fi
# pg_stat_statements counts each statement's calls and plans: tests/group_commit.rs checks with
# it that the append statement is planned once, not at every group (docs/operations.md uses it
# to watch a node's statements).
if [ "$(as_postgres psql -qtAc "SHOW shared_preload_libraries")" != pg_stat_statements ]; then
    as_postgres psql -qc "ALTER SYSTEM SET shared_preload_libraries = 'pg_stat_statements'" >&2
    $SUDO pg_ctlcluster "$VERSION" main restart >&2
    wait_ready
fi
if [ "$(as_postgres psql -qtAc "SHOW pg_stat_statements.track_planning")" != on ]; then
    as_postgres psql -qc "ALTER SYSTEM SET pg_stat_statements.track_planning = on" >&2
    as_postgres psql -qtAc "SELECT pg_reload_conf()" >/dev/null
fi
as_postgres psql -d colosseum_test -qc "CREATE EXTENSION IF NOT EXISTS pg_stat_statements" >&2
echo "host=/var/run/postgresql dbname=colosseum_test"
