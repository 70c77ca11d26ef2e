#!/usr/bin/env bash
# A wolfden cluster on one machine, without compose (docs/cluster.md,
# "Three nodes on one machine"): a throwaway PostgreSQL (Debian's
# postgresql: initdb and pg_ctl), a nats-server built from the Go module the
# project requires, and three `wolfden serve` nodes sharing them.
#
#   scripts/cluster.sh [start] [options]   start; Ctrl-C stops everything
#   scripts/cluster.sh start --detach      start and return; stop it with:
#   scripts/cluster.sh stop                stop everything (nodes, NATS, PostgreSQL)
#   scripts/cluster.sh status              what runs, each node's /readyz and /cluster
#   scripts/cluster.sh kill N              SIGKILL node N (its games move after the lease ttl)
#   scripts/cluster.sh term N              SIGTERM node N (it hands its games over and exits)
#   scripts/cluster.sh revive N            start node N again, under the same name
#
# Options (or their environment variables):
#   --dir DIR          WOLFDEN_CLUSTER_DIR   /tmp/wolfden-cluster: data, logs, programs, pid files
#   --http-port N      WOLFDEN_CLUSTER_HTTP  8081: node i listens on N+i-1
#   --metrics-port N   WOLFDEN_CLUSTER_OPS   9091: node i's operator listener on N+i-1
#   --pg-port N        WOLFDEN_CLUSTER_PG    a free port from 55432
#   --nats-port N      WOLFDEN_CLUSTER_NATS  a free port from 54222
#   --nodes N          WOLFDEN_CLUSTER_NODES 3
#   --lease-ttl D      WOLFDEN_CLUSTER_TTL   10s (a Go duration)
#
# It needs Go and Debian's postgresql package; run as root without it, it
# installs it (apt-get). As root PostgreSQL runs as the user postgres, whom
# the package creates (initdb refuses to run as root). Only bash's own
# /dev/tcp is used to reach the servers: no curl needed.
set -eu

ROOT=$(cd "$(dirname "$0")/.." && pwd)
DIR=${WOLFDEN_CLUSTER_DIR:-/tmp/wolfden-cluster}
HTTP=${WOLFDEN_CLUSTER_HTTP:-8081}
OPS=${WOLFDEN_CLUSTER_OPS:-9091}
PGPORT=${WOLFDEN_CLUSTER_PG:-}
NATSPORT=${WOLFDEN_CLUSTER_NATS:-}
NODES=${WOLFDEN_CLUSTER_NODES:-3}
TTL=${WOLFDEN_CLUSTER_TTL:-10s}
DETACH=

die() { echo "cluster.sh: $*" >&2; exit 1; }
say() { echo "cluster.sh: $*"; }

usage() { sed -n '2,/^set -eu/p' "$0" | sed -e '/^set -eu/d' -e 's/^# \{0,1\}//'; exit "${1:-0}"; }

CMD=start
case ${1:-} in
start | stop | status | kill | term | revive) CMD=$1; shift ;;
-h | --help | help) usage ;;
esac
ARG=
if [ "$CMD" = kill ] || [ "$CMD" = term ] || [ "$CMD" = revive ]; then
	[ $# -gt 0 ] || die "$CMD needs a node number (1 to $NODES)"
	ARG=$1
	shift
fi
number() { case $2 in '' | *[!0-9]*) die "$1 takes a number, not '$2'" ;; esac; }
while [ $# -gt 0 ]; do
	[ "$1" = --detach ] || [ "$1" = -d ] || [ $# -ge 2 ] || die "$1 needs a value"
	case $1 in
	--dir) DIR=$2 ;;
	--http-port) number "$1" "$2"; HTTP=$2 ;;
	--metrics-port) number "$1" "$2"; OPS=$2 ;;
	--pg-port) number "$1" "$2"; PGPORT=$2 ;;
	--nats-port) number "$1" "$2"; NATSPORT=$2 ;;
	--nodes) number "$1" "$2"; NODES=$2 ;;
	--lease-ttl) TTL=$2 ;;
	--detach | -d) DETACH=1; shift; continue ;;
	-h | --help) usage ;;
	*) echo "cluster.sh: unknown option $1" >&2; usage 2 ;;
	esac
	shift 2
done
case $DIR in /*) ;; *) DIR=$(pwd)/$DIR ;; esac
number --nodes "$NODES"
[ "$NODES" -ge 1 ] || die "--nodes must be 1 or more"

# listening says whether something accepts TCP connections on a port of 127.0.0.1.
listening() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# freeport prints the first port from $1 on which nothing listens.
freeport() {
	p=$1
	while listening "$p"; do p=$((p + 1)); done
	echo "$p"
}

# get prints the status code and body of GET http://127.0.0.1:$1$2.
get() {
	{ exec 3<>"/dev/tcp/127.0.0.1/$1"; } 2>/dev/null || return 1
	printf 'GET %s HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n' "$2" >&3
	IFS=' ' read -r _ code _ <&3 || { exec 3<&-; return 1; }
	while IFS= read -r line <&3; do [ "$line" = $'\r' ] || [ -z "$line" ] && break; done
	body=$(cat <&3)
	exec 3<&-
	echo "$code $body"
}

# alive says whether the process of a pid file runs (a zombie does not: a
# detached cluster's processes are reaped by whoever adopted them, if at all).
alive() {
	[ -f "$1" ] || return 1
	local p
	p=$(cat "$1")
	kill -0 "$p" 2>/dev/null || return 1
	[ "$(sed 's/.*) //' "/proc/$p/stat" 2>/dev/null | cut -c1)" != Z ]
}

# as runs a PostgreSQL program as the user postgres when we are root.
as() {
	if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

pgbin() {
	if command -v initdb >/dev/null 2>&1 && command -v pg_ctl >/dev/null 2>&1; then
		dirname "$(readlink -f "$(command -v pg_ctl)")" # a link's target: createdb lies beside it
		return
	fi
	ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1
}

load() { # the ports of a running cluster
	[ -f "$DIR/ports" ] || die "no cluster in $DIR (start one first, or give its --dir)"
	. "$DIR/ports"
}

startnode() { # i
	i=$1
	pid=$DIR/node$i.pid
	alive "$pid" && die "node$i already runs (pid $(cat "$pid"))"
	addr=127.0.0.1:$((HTTP + i - 1)) ops=127.0.0.1:$((OPS + i - 1))
	listening $((HTTP + i - 1)) && die "port $((HTTP + i - 1)) (node$i) is taken: choose others with --http-port"
	listening $((OPS + i - 1)) && die "port $((OPS + i - 1)) (node$i's metrics) is taken: choose others with --metrics-port"
	echo "=== $(date -u +%FT%TZ) node$i starts" >>"$DIR/node$i.log"
	# The bus's login and the cluster's secret, from files (never on a command line).
	WOLFDEN_BUS_PASSWORD=$(cat "$DIR/bus-password") "$DIR/bin/wolfden" serve --addr "$addr" --metrics-addr "$ops" \
		--db "postgres://wolfden@127.0.0.1:$PGPORT/wolfden?sslmode=disable" \
		--bus "nats://127.0.0.1:$NATSPORT" --bus-user wolfden --cluster-secret-file "$DIR/cluster-secret" \
		--node "node$i" --lease-ttl "$TTL" \
		</dev/null >>"$DIR/node$i.log" 2>&1 &
	echo $! >"$pid"
}

waitready() { # i
	for _ in $(seq 300); do
		alive "$DIR/node$1.pid" || die "node$1 exited; its log, $DIR/node$1.log:
$(tail -20 "$DIR/node$1.log")"
		case $(get $((OPS + $1 - 1)) /readyz 2>/dev/null) in 200*) return ;; esac
		sleep 0.1
	done
	die "node$1's /readyz did not say ready in 30 s: $(get $((OPS + $1 - 1)) /readyz 2>&1); log $DIR/node$1.log"
}

stopall() {
	trap - INT TERM EXIT
	[ -d "$DIR" ] || return 0
	for f in "$DIR"/node*.pid; do
		[ -f "$f" ] && alive "$f" && kill -TERM "$(cat "$f")" 2>/dev/null || true
	done
	for f in "$DIR"/node*.pid; do
		[ -f "$f" ] || continue
		for _ in $(seq 100); do alive "$f" || break; sleep 0.1; done
		alive "$f" && kill -KILL "$(cat "$f")" 2>/dev/null || true
		rm -f "$f"
	done
	if alive "$DIR/nats.pid"; then
		kill -TERM "$(cat "$DIR/nats.pid")"
		for _ in $(seq 50); do alive "$DIR/nats.pid" || break; sleep 0.1; done
	fi
	rm -f "$DIR/nats.pid"
	if [ -f "$DIR/pg/data/postmaster.pid" ]; then
		as "$(pgbin)/pg_ctl" -D "$DIR/pg/data" -m fast -w stop >/dev/null 2>&1 || true
	fi
	rm -rf "$DIR/pg/data" "$DIR/ports"
	say "stopped; the logs stay in $DIR"
}

case $CMD in
stop)
	stopall
	exit 0
	;;
status)
	load
	alive "$DIR/nats.pid" && say "NATS nats://127.0.0.1:$NATSPORT (pid $(cat "$DIR/nats.pid"))" || say "NATS: not running"
	[ -f "$DIR/pg/data/postmaster.pid" ] && say "PostgreSQL postgres://wolfden@127.0.0.1:$PGPORT/wolfden" || say "PostgreSQL: not running"
	for i in $(seq "$NODES"); do
		if alive "$DIR/node$i.pid"; then
			say "node$i http://127.0.0.1:$((HTTP + i - 1)) pid $(cat "$DIR/node$i.pid"): readyz $(get $((OPS + i - 1)) /readyz | tr -d '\n'); cluster $(get $((OPS + i - 1)) /cluster | cut -d' ' -f2-)"
		else
			say "node$i: not running (scripts/cluster.sh revive $i)"
		fi
	done
	exit 0
	;;
kill | term)
	load
	number "$CMD" "$ARG"
	alive "$DIR/node$ARG.pid" || die "node$ARG does not run"
	sig=KILL
	[ "$CMD" = term ] && sig=TERM
	kill -"$sig" "$(cat "$DIR/node$ARG.pid")"
	echo "=== $(date -u +%FT%TZ) node$ARG got SIG$sig" >>"$DIR/node$ARG.log"
	say "node$ARG: SIG$sig sent"
	exit 0
	;;
revive)
	load
	number "$CMD" "$ARG"
	startnode "$ARG"
	waitready "$ARG"
	say "node$ARG serves again on http://127.0.0.1:$((HTTP + ARG - 1))"
	exit 0
	;;
esac

# start
command -v go >/dev/null 2>&1 || die "Go is needed (https://go.dev/dl/) to build wolfden and nats-server"
for f in "$DIR"/nats.pid "$DIR"/node*.pid "$DIR/pg/data/postmaster.pid"; do
	[ -f "$f" ] && head -1 "$f" >"$DIR/.pid" && alive "$DIR/.pid" &&
		die "a cluster already runs in $DIR ($f): scripts/cluster.sh stop --dir $DIR"
done
PG=$(pgbin)
if [ -z "$PG" ]; then
	[ "$(id -u)" = 0 ] || die "PostgreSQL is not installed: sudo apt-get install -y postgresql"
	say "installing PostgreSQL (apt-get install -y postgresql)"
	DEBIAN_FRONTEND=noninteractive apt-get update -qq
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
	PG=$(pgbin)
	[ -n "$PG" ] || die "apt-get installed postgresql but no initdb/pg_ctl is found in /usr/lib/postgresql/*/bin"
fi
if [ "$(id -u)" = 0 ]; then
	id postgres >/dev/null 2>&1 || die "running as root, PostgreSQL must run as the user postgres, whom Debian's postgresql package creates"
fi

mkdir -p "$DIR/bin"
chmod 755 "$DIR"
trap stopall INT TERM EXIT
PGPORT=${PGPORT:-$(freeport 55432)}
NATSPORT=${NATSPORT:-$(freeport 54222)}
listening "$PGPORT" && die "port $PGPORT (PostgreSQL) is taken"
listening "$NATSPORT" && die "port $NATSPORT (NATS) is taken"

say "building wolfden and nats-server into $DIR/bin"
(cd "$ROOT" && go build -o "$DIR/bin/wolfden" ./cmd/wolfden) || die "go build ./cmd/wolfden failed"
if [ ! -x "$DIR/bin/nats-server" ]; then
	# The version go.mod requires (the tests' embedded server's).
	(cd "$ROOT" && go build -o "$DIR/bin/nats-server" github.com/nats-io/nats-server/v2) || die "go build nats-server failed"
fi

say "PostgreSQL on 127.0.0.1:$PGPORT ($PG)"
rm -rf "$DIR/pg"
mkdir -p "$DIR/pg"
[ "$(id -u)" = 0 ] && chown postgres "$DIR/pg"
as "$PG/initdb" -D "$DIR/pg/data" -U wolfden -A trust -E UTF8 --locale=C --no-sync >"$DIR/pg/initdb.log" 2>&1 ||
	die "initdb failed: $(cat "$DIR/pg/initdb.log")"
as "$PG/pg_ctl" -D "$DIR/pg/data" -l "$DIR/pg/server.log" -w -t 60 start \
	-o "-p $PGPORT -c listen_addresses=127.0.0.1 -c unix_socket_directories=$DIR/pg" >/dev/null ||
	die "PostgreSQL did not start: $(tail -20 "$DIR/pg/server.log")"
"$PG/createdb" -h 127.0.0.1 -p "$PGPORT" -U wolfden wolfden || die "createdb failed"

say "NATS on 127.0.0.1:$NATSPORT (user wolfden, its password in $DIR/bus-password; the cluster's secret in $DIR/cluster-secret)"
(umask 077 && od -An -tx1 -N32 /dev/urandom | tr -d ' \n' >"$DIR/cluster-secret" && od -An -tx1 -N16 /dev/urandom | tr -d ' \n' >"$DIR/bus-password")
printf 'authorization { user: wolfden, password: "%s" }\n' "$(cat "$DIR/bus-password")" >"$DIR/nats.conf"
chmod 600 "$DIR/nats.conf"
"$DIR/bin/nats-server" -c "$DIR/nats.conf" -a 127.0.0.1 -p "$NATSPORT" -l "$DIR/nats.log" </dev/null >/dev/null 2>&1 &
echo $! >"$DIR/nats.pid"
for _ in $(seq 100); do listening "$NATSPORT" && break; sleep 0.1; done
listening "$NATSPORT" || die "nats-server did not start: $(tail -5 "$DIR/nats.log")"

cat >"$DIR/ports" <<EOF
HTTP=$HTTP OPS=$OPS PGPORT=$PGPORT NATSPORT=$NATSPORT NODES=$NODES TTL=$TTL
EOF
for i in $(seq "$NODES"); do startnode "$i"; done
for i in $(seq "$NODES"); do waitready "$i"; done

echo
for i in $(seq "$NODES"); do
	echo "node$i   http://127.0.0.1:$((HTTP + i - 1))    operator http://127.0.0.1:$((OPS + i - 1))/cluster /metrics /readyz    log $DIR/node$i.log"
done
echo "database postgres://wolfden@127.0.0.1:$PGPORT/wolfden?sslmode=disable"
echo "bus      nats://127.0.0.1:$NATSPORT"
echo
if [ -n "$DETACH" ]; then
	trap - INT TERM EXIT
	say "running in the background: scripts/cluster.sh stop${DIR:+ --dir $DIR} stops it"
	exit 0
fi
say "Ctrl-C (or scripts/cluster.sh stop --dir $DIR from another shell) stops everything"
while :; do
	sleep 1 &
	wait $! || true
	[ -f "$DIR/ports" ] || exit 0 # stopped from another shell
done
