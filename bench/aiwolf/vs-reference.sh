#!/usr/bin/env bash
# Measures wolfden's AIWolf gateway and the contest's reference server
# (aiwolf-nlp-server, built from source) side by side: each server alone
# on core 0 (GOMAXPROCS=1), the same agents (wolfden bench aiwolf --url) on
# core 1, each pair back to back; the server's CPU time per game and the
# agents' turnaround (docs/benchmarks.md, "AIWolf: wolfden and the
# reference side by side").
#
#   bench/aiwolf/vs-reference.sh WOLFDEN[,WOLFDEN…] REFSERVER [K…]
#
# Several wolfden binaries (comma-separated: a before and an after) play
# in turn in each round, each followed by the reference, so that every
# figure has a reference figure measured within a minute of it.
#
# GAMES (default 300) games a run, ROUNDS (default 2) pairs a K, PORT
# (default 18750) the first of the three ports used; CLIENT (default
# WOLFDEN) the wolfden binary whose agents play (to measure an older
# server with today's agents). wolfden stores every
# request and reply (SQLite, in a temporary directory); the reference's
# file loggers are off (json_logger, game_logger, realtime_broadcaster),
# its other settings the shipped 5-player default's.
set -euo pipefail
IFS=, read -r -a wolfdens <<< "$1"; ref=$(realpath "$2"); shift 2
for i in "${!wolfdens[@]}"; do wolfdens[i]=$(realpath "${wolfdens[i]}"); done
client=$(realpath "${CLIENT:-${wolfdens[-1]}}")
ks=("${@:-5}")
games=${GAMES:-300}; rounds=${ROUNDS:-2}; port=${PORT:-18750}
dir=$(mktemp -d); pid=
trap 'if [ -n "$pid" ]; then kill "$pid" 2>/dev/null || true; fi; rm -rf "$dir"' EXIT

cat > "$dir/ref.yml" <<YML
server:
  web_socket: {host: 127.0.0.1, port: $((port + 2))}
  authentication: {enable: false}
  timeout: {action: 60s, response: 120s, acceptable: 5s}
  max_continue_error_ratio: 0.2
game:
  agent_count: 5
  max_day: -1
  vote_visibility: true
  talk:
    max_count: {per_agent: 4, per_day: 20}
    max_length: {count_in_word: false, count_spaces: false, per_talk: -1, mention_length: 50, per_agent: -1, base_length: 50}
    max_skip: 0
  whisper:
    max_count: {per_agent: 0, per_day: 0}
    max_length: {count_in_word: false, count_spaces: false, per_talk: -1, mention_length: 50, per_agent: -1, base_length: 50}
    max_skip: 0
  vote: {max_count: 1, allow_self_vote: true}
  attack_vote: {max_count: 1, allow_self_vote: true, allow_no_target: false}
logic:
  day_phases:
    - {name: morning_whisper, actions: [whisper], only_day: 0}
    - {name: daily_talk, actions: [talk]}
  night_phases:
    - {name: evening_whisper, actions: [whisper], only_day: 0}
    - {name: execution, actions: [execution], except_day: 0}
    - {name: divine, actions: [divine]}
    - {name: night_whisper, actions: [whisper], except_day: 0}
    - {name: guard, actions: [guard], except_day: 0}
    - {name: attack, actions: [attack], except_day: 0}
  roles:
    5: {WEREWOLF: 1, POSSESSED: 1, SEER: 1, BODYGUARD: 0, VILLAGER: 2, MEDIUM: 0}
matching: {self_match: true, is_optimize: false, team_count: 5, game_count: 5, output_path: $dir/mo.json, infinite_loop: false}
custom_profile: {enable: false}
json_logger: {enable: false, output_dir: $dir/json, filename: x}
game_logger: {enable: false, output_dir: $dir/game, filename: x}
realtime_broadcaster: {enable: false, delay: 5s, output_dir: $dir/rt, filename: x}
tts_broadcaster: {enable: false}
YML

wait_port() { for _ in $(seq 100); do (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return; sleep 0.1; done; echo "port $1 never opened" >&2; exit 1; }

run() { # NAME K URL PID
  echo "== $1 K=$2 load: $(cut -d' ' -f1-3 /proc/loadavg)"
  taskset -c 1 "$client" bench aiwolf --agents "$2" --games "$games" --url "$3" --server-pid "$4" | tail -1
}

for k in "${ks[@]}"; do
  for r in $(seq "$rounds"); do
    for wolfden in "${wolfdens[@]}"; do
      rm -f "$dir"/w.db*
      GOMAXPROCS=1 taskset -c 0 "$wolfden" serve --addr "127.0.0.1:$port" --aiwolf-addr "127.0.0.1:$((port + 1))" \
        --db "$dir/w.db" > "$dir/w.log" 2>&1 &
      pid=$!; wait_port $((port + 1))
      run "wolfden $(basename "$wolfden")" "$k" "ws://127.0.0.1:$((port + 1))/ws" "$pid"
      kill "$pid"; wait "$pid" 2>/dev/null || true; pid=
      (cd "$dir" && GOMAXPROCS=1 exec taskset -c 0 "$ref" -c "$dir/ref.yml" > "$dir/r.log" 2>&1) &
      pid=$!; wait_port $((port + 2))
      run reference "$k" "ws://127.0.0.1:$((port + 2))/ws" "$(pgrep -P "$pid" || echo "$pid")"
      kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null || true; pid=
    done
  done
done
