#!/bin/sh
# board-memory.sh BINARY [PORT]: the server's resident memory before and
# after the board of issue 29 (31,000 nested lists in a 62 KB body), sent
# once to POST /api/rooms, then four times at once to POST /api/balance.
# (docs/server.md, "Limits": 29 MB → 29 MB → 30 MB with the board limits;
# 29 MB → 1.5 GB → 6.1 GB before them.)
set -e
bin=$1; port=${2:-18601}; dir=$(mktemp -d)
awk 'BEGIN { printf "{\"board\":\"players: "; for (i = 0; i < 31000; i++) printf "["; for (i = 0; i < 31000; i++) printf "]"; print "\"}" }' >"$dir/deep.json"
"$bin" serve --addr 127.0.0.1:"$port" --db "$dir/w.db" >"$dir/log" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null; rm -rf "$dir"' EXIT
for i in $(seq 50); do curl -s -o /dev/null "http://127.0.0.1:$port/healthz" && break; sleep 0.1; done
rss() { grep -E '^(VmRSS|VmHWM)' /proc/$pid/status | tr -s ' \t' ' ' | tr '\n' ' '; }
echo "idle:       $(rss)"
curl -s -w ' HTTP %{http_code} in %{time_total}s\n' -XPOST "http://127.0.0.1:$port/api/rooms" -d @"$dir/deep.json" | cut -c1-200
echo "after one:  $(rss)"
pids=""
for i in 1 2 3 4; do curl -s -o /dev/null -XPOST "http://127.0.0.1:$port/api/balance" -d @"$dir/deep.json" & pids="$pids $!"; done
wait $pids
echo "after four: $(rss)"
