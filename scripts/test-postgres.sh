# A throwaway PostgreSQL server on loopback for the history tests: source it, then call
# start_test_postgres. It installs Debian's server when missing (as root), creates a cluster
# in a temporary directory, starts it on 127.0.0.1 on a free port, exports
# SCHEDBENCH_TEST_POSTGRES_URL, and stops and removes it when the calling shell exits.
# Where that is impossible it says why and leaves the variable unset: the PostgreSQL tests
# then skip with that reason.

start_test_postgres() {
    if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
        if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
            ensure_debian_packages postgresql
        else
            echo "note: no PostgreSQL server (install Debian's 'postgresql'); the PostgreSQL history tests will skip" >&2
            return 0
        fi
    fi
    local bin
    bin="$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)"
    # initdb refuses to run as root: as root, the cluster belongs to the 'postgres' user.
    local as=()
    if [ "$(id -u)" -eq 0 ]; then
        if ! id postgres >/dev/null 2>&1; then
            echo "note: no 'postgres' user to run the server as; the PostgreSQL history tests will skip" >&2
            return 0
        fi
        as=(runuser -u postgres --)
    fi
    SCHEDBENCH_PG_DATA="$(mktemp -d /tmp/schedbench-postgres.XXXXXX)"
    [ ${#as[@]} -gt 0 ] && chown postgres "$SCHEDBENCH_PG_DATA"
    local port
    port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
    if ! "${as[@]}" "$bin/initdb" -D "$SCHEDBENCH_PG_DATA/data" -U postgres -A trust --no-sync >"$SCHEDBENCH_PG_DATA/initdb.log" 2>&1; then
        echo "note: initdb failed (see below); the PostgreSQL history tests will skip" >&2
        cat "$SCHEDBENCH_PG_DATA/initdb.log" >&2
        return 0
    fi
    if ! "${as[@]}" "$bin/pg_ctl" -D "$SCHEDBENCH_PG_DATA/data" -l "$SCHEDBENCH_PG_DATA/server.log" -w -t 60 \
        -o "-c listen_addresses=127.0.0.1 -p $port -k $SCHEDBENCH_PG_DATA -c fsync=off" start >/dev/null; then
        echo "note: the PostgreSQL server did not start; the PostgreSQL history tests will skip. Its log:" >&2
        cat "$SCHEDBENCH_PG_DATA/server.log" >&2
        return 0
    fi
    SCHEDBENCH_PG_STOP=("${as[@]}" "$bin/pg_ctl" -D "$SCHEDBENCH_PG_DATA/data" -m immediate stop)
    trap stop_test_postgres EXIT
    export SCHEDBENCH_TEST_POSTGRES_URL="postgres://postgres@127.0.0.1:$port/postgres?sslmode=disable"
    echo "PostgreSQL $("$bin/postgres" --version | awk '{print $3}') for the history tests on 127.0.0.1:$port" >&2
}

stop_test_postgres() {
    "${SCHEDBENCH_PG_STOP[@]}" >/dev/null 2>&1 || true
    rm -rf "$SCHEDBENCH_PG_DATA"
}
