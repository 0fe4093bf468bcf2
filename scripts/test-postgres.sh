# Throwaway PostgreSQL servers on loopback for the history tests: source it, then call
# start_test_postgres. It installs Debian's server when missing (as root) and starts two
# clusters in temporary directories, each on 127.0.0.1 on a free port, with password
# authentication over TCP (so a test can leave the password out and see the message):
# - the shared one, for every history test: SCHEDBENCH_TEST_POSTGRES_URL;
# - an expendable one, which a test stops with `pg_ctl -m immediate` in the middle of its
#   work: SCHEDBENCH_TEST_POSTGRES_EXPENDABLE_URL, stopped by the command in
#   SCHEDBENCH_TEST_POSTGRES_EXPENDABLE_KILL.
# Both are stopped and removed when the calling shell exits. Where that is impossible it
# says why and leaves the variables unset: the PostgreSQL tests then skip with that reason.

SCHEDBENCH_PG_DIRS=()
SCHEDBENCH_PG_STOPS=()

start_test_postgres() {
    if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
        if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
            ensure_debian_packages postgresql
        else
            echo "note: no PostgreSQL server (install Debian's 'postgresql'); the PostgreSQL history tests will skip" >&2
            return 0
        fi
    fi
    # initdb refuses to run as root: as root, the clusters belong to the 'postgres' user.
    if [ "$(id -u)" -eq 0 ] && ! id postgres >/dev/null 2>&1; then
        echo "note: no 'postgres' user to run the server as; the PostgreSQL history tests will skip" >&2
        return 0
    fi
    trap stop_test_postgres EXIT
    start_one_test_postgres shared || return 0
    local url="$SCHEDBENCH_PG_LAST_URL"
    if start_one_test_postgres expendable; then
        export SCHEDBENCH_TEST_POSTGRES_EXPENDABLE_URL="$SCHEDBENCH_PG_LAST_URL"
        export SCHEDBENCH_TEST_POSTGRES_EXPENDABLE_KILL="${SCHEDBENCH_PG_STOPS[-1]}"
    fi
    export SCHEDBENCH_TEST_POSTGRES_URL="$url"
}

# start_one_test_postgres NAME: starts a cluster and sets SCHEDBENCH_PG_LAST_URL to its
# URL; its stop command is appended to SCHEDBENCH_PG_STOPS (the last entry).
start_one_test_postgres() {
    local bin
    bin="$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)"
    local as=""
    [ "$(id -u)" -eq 0 ] && as="runuser -u postgres --"
    local data
    data="$(mktemp -d "/tmp/schedbench-postgres-$1.XXXXXX")"
    SCHEDBENCH_PG_DIRS+=("$data")
    [ -n "$as" ] && chown postgres "$data"
    local password
    password="$(python3 -c 'import secrets; print(secrets.token_hex(12))')"
    echo "$password" >"$data/password"
    [ -n "$as" ] && chown postgres "$data/password"
    local port
    port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
    if ! $as "$bin/initdb" -D "$data/data" -U postgres --auth-local=trust --auth-host=scram-sha-256 --pwfile="$data/password" \
        --no-sync >"$data/initdb.log" 2>&1; then
        echo "note: initdb failed (see below); the PostgreSQL history tests will skip" >&2
        cat "$data/initdb.log" >&2
        return 1
    fi
    if ! $as "$bin/pg_ctl" -D "$data/data" -l "$data/server.log" -w -t 60 \
        -o "-c listen_addresses=127.0.0.1 -p $port -k $data -c fsync=off" start >/dev/null; then
        echo "note: the PostgreSQL server ($1) did not start; the PostgreSQL history tests will skip. Its log:" >&2
        cat "$data/server.log" >&2
        return 1
    fi
    SCHEDBENCH_PG_STOPS+=("$as $bin/pg_ctl -D $data/data -m immediate stop")
    echo "PostgreSQL $("$bin/postgres" --version | awk '{print $3}') for the history tests ($1) on 127.0.0.1:$port" >&2
    SCHEDBENCH_PG_LAST_URL="postgres://postgres:$password@127.0.0.1:$port/postgres?sslmode=disable"
}

stop_test_postgres() {
    local stop
    for stop in "${SCHEDBENCH_PG_STOPS[@]}"; do $stop >/dev/null 2>&1 || true; done
    local dir
    for dir in "${SCHEDBENCH_PG_DIRS[@]}"; do rm -rf "$dir"; done
}
