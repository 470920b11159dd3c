#!/usr/bin/env bash
# The Slurm jobs of tools/cluster/submit.sh on a one-node cluster (tools/cluster/local-slurm.sh),
# each against the same work done by one process (.ci/run runs this; a few minutes):
#   1. self-play: 4 shards, the merge, training and a gating match; the merged file is
#      byte-identical to one run's
#   2. self-play: a shard cancelled mid-run (scancel) and rerun; the merge is still identical
#   3. databases: English up to 4 pieces as a job graph, one unit made to fail: the units after
#      it wait (DependencyNeverSatisfied) and nothing is built on missing files; rerun, the files
#      are byte-identical to `tsuru egdb build`, and every unit's job checked its slices; then
#      self-play relabelled by them after the merge (--relabel): the file one run relabelled
#   4. a match in 4 shards, with and without an SPRT: the merged report (W/D/L, Elo, pairs, LLR)
#      is the single run's
#   5. an SPRT in batches until it decides (after several); the shards played give the report
#      of one run of that many games
#   6. throughput: games/s of a 2-shard self-play array and of one process with --threads 2
# tests/cluster.sh [BUILD_DIR] (default build/).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
# Absolute (the jobs run in their run directories), when it exists.
build="${1:-$root/build}"
build="$(cd "$build" 2>/dev/null && pwd || echo "$build")"
tsuru="$build/tsuru"
submit="$root/tools/cluster/submit.sh"
[ -x "$tsuru" ] || {
  echo "tests/cluster.sh: no $tsuru; build first" >&2
  exit 2
}

fail() {
  echo "FAILED: $*" >&2
  exit 1
}
ok() {
  echo "ok: $*"
}

# The cluster is started here and stopped at the end, unless it was running already.
started=0
if ! sinfo -h >/dev/null 2>&1; then
  "$root/tools/cluster/local-slurm.sh" start
  started=1
fi
work="$(mktemp -d /var/tmp/tsuru-cluster-test.XXXXXX)"
cleanup() {
  # Cancel what this test left queued (a failure half-way), then stop the cluster.
  local ids
  ids="$(cat "$work"/*/jobs.tsv 2>/dev/null | cut -f2 | tr '\n' ' ')" || true
  # shellcheck disable=SC2086
  [ -n "${ids// /}" ] && scancel $ids 2>/dev/null
  [ "$started" = 1 ] && "$root/tools/cluster/local-slurm.sh" stop
  rm -rf "$work"
}
trap cleanup EXIT

# The first line of `submit.sh status` for a recorded job or task: "name task state reason".
state_of() {
  "$submit" status --run-dir "$1" | awk -v n="$2" '$1 == n || $2 == n { print $3, $4; exit }'
}
# The report a match ends with: from the table's heading to the result line.
report() {
  sed -n '/^engine  /,$p' "$1"
}

echo "-- 1. self-play: 4 shards, merge, training, gate"
sp=(--variant english --games 400 --nodes 1500 --seed 9)
"$tsuru" selfplay "${sp[@]}" --threads 2 --out "$work/single.samples" 2>/dev/null | tail -2
"$submit" selfplay --run-dir "$work/sp" --shards 4 --train-cpus 2 --train-args "--epochs 2" \
  --gate-args "--games 4 --depth 2" -- "${sp[@]}"
"$submit" wait --run-dir "$work/sp" --timeout 900 || fail "the self-play run did not complete"
cmp "$work/single.samples" "$work/sp/selfplay.samples" ||
  fail "the merged shards differ from one run"
ok "4 shards merged: $(stat -c %s "$work/sp/selfplay.samples") bytes, identical to one run (cmp)"
grep -q "^weights $work/sp/english.weights" "$work/sp"/logs/train-*.out ||
  fail "no weights trained"
grep -q "^result W=" "$work/sp/gate.txt" || fail "no gating match"
ok "trained $(grep -c '^epoch=' "$work/sp"/logs/train-*.out) epochs; gate: $(tail -1 "$work/sp/gate.txt")"

echo "-- 2. self-play: a shard cancelled mid-run, then rerun"
sp2=(--variant english --games 800 --nodes 1500 --seed 9)
"$tsuru" selfplay "${sp2[@]}" --threads 2 --out "$work/single2.samples" 2>/dev/null | tail -1
"$submit" selfplay --run-dir "$work/kill" --shards 4 --no-train -- "${sp2[@]}"
array="$(awk -F'\t' '$1 == "selfplay" { print $2 }' "$work/kill/jobs.tsv")"
log="$work/kill/logs/selfplay-${array}_0.out"
state=""
for _ in $(seq 600); do
  state="$(squeue -h -j "${array}_0" -o %T 2>/dev/null || true)"
  # Running, with a game or more finished (the progress bar in its log).
  if [ "$state" = RUNNING ] && grep -qE '\] [1-9][0-9]*/200 games' "$log" 2>/dev/null; then
    break
  fi
  sleep 0.2
done
[ "$state" = RUNNING ] || fail "shard 0 was not seen running (state '$state')"
scancel "${array}_0"
for _ in $(seq 100); do
  [ -z "$(squeue -h -j "${array}_0" -o %T 2>/dev/null || true)" ] && break
  sleep 0.2
done
killed="$(state_of "$work/kill" "${array}_0")"
[[ "$killed" == CANCELLED* ]] || fail "shard 0 is '$killed' after scancel"
ok "shard 0 cancelled mid-run ($(tr '\r' '\n' <"$log" | grep -E 'stopped|games/s' | tail -1))"
"$submit" rerun --run-dir "$work/kill"
"$submit" wait --run-dir "$work/kill" --timeout 900 || fail "the rerun did not complete"
cmp "$work/single2.samples" "$work/kill/selfplay.samples" ||
  fail "the merge after the rerun differs from one run"
ok "after the rerun the merge is identical to one run (cmp)"

echo "-- 3. databases: English <= 4 pieces as a job graph, one unit made to fail"
"$tsuru" egdb build --variant english --pieces 4 --dir "$work/egdb-ref" --quiet | tail -1
# A directory where unit 1111's file goes: its build fails (the rename cannot replace it).
mkdir -p "$work/egdb/egdb/english-1111.egdb"
"$submit" egdb --run-dir "$work/egdb" --variant english --pieces 4 | tail -1
if "$submit" wait --run-dir "$work/egdb" --timeout 900 >/dev/null; then
  fail "the run completed although unit 1111 could not be written"
fi
[[ "$(state_of "$work/egdb" egdb-1111)" == FAILED* ]] || fail "unit 1111 did not fail"
for unit in egdb-1120+2011 egdb-2020 egdb-info; do
  s="$(state_of "$work/egdb" "$unit")"
  [[ "$s" == PENDING* ]] || fail "$unit is '$s', not waiting for the failed unit"
done
[ "$(state_of "$work/egdb" egdb-1120+2011)" = "PENDING DependencyNeverSatisfied" ] ||
  fail "1120+2011: $(state_of "$work/egdb" egdb-1120+2011)"
for f in english-1120.egdb english-2011.egdb english-2020.egdb; do
  [ ! -e "$work/egdb/egdb/$f" ] || fail "$f was built without unit 1111"
done
completed="$("$submit" status --run-dir "$work/egdb" | awk '$3 == "COMPLETED"' | wc -l)"
[ "$completed" -eq 20 ] || fail "$completed units completed, not the 20 independent of 1111"
ok "1111 failed; the 20 units that do not need it completed; 1120+2011 (DependencyNeverSatisfied), 2020 and the check wait"
rmdir "$work/egdb/egdb/english-1111.egdb"
"$submit" rerun --run-dir "$work/egdb"
"$submit" wait --run-dir "$work/egdb" --timeout 900 || fail "the rerun did not complete"
diff <(cd "$work/egdb-ref" && ls) <(cd "$work/egdb/egdb" && ls) || fail "other files"
for f in "$work/egdb-ref"/*; do
  cmp "$f" "$work/egdb/egdb/$(basename "$f")" || fail "$(basename "$f") differs"
done
grep -q "complete up to 4 pieces" "$work/egdb/egdb-info.txt" || fail "egdb info"
# Each unit's job checked its slices' sampled values against their children (tsuru egdb check).
unchecked=0
for log in "$work/egdb/logs"/tsuru-egdb-[0-9]*.out; do
  grep -q "positions checked, 0 wrong" "$log" || unchecked=$((unchecked + 1))
done
[ "$unchecked" -eq 0 ] || fail "$unchecked unit jobs did not check their slices"
ok "after the rerun: $(find "$work/egdb-ref" -type f | wc -l) files, byte-identical to tsuru egdb build"

echo "-- 3b. self-play relabelled by those databases after the merge (--relabel)"
"$tsuru" selfplay relabel --egdb-dir "$work/egdb-ref" --out "$work/single.relabelled.samples" \
  "$work/single.samples" | head -1
"$submit" selfplay --run-dir "$work/rl" --shards 2 --no-train --relabel "$work/egdb-ref" \
  -- "${sp[@]}"
"$submit" wait --run-dir "$work/rl" --timeout 900 || fail "the relabelled run did not complete"
cmp "$work/single.samples" "$work/rl/selfplay.raw.samples" || fail "the merged shards differ"
cmp "$work/single.relabelled.samples" "$work/rl/selfplay.samples" ||
  fail "the relabelled merge differs from one run relabelled"
grep -q "^selfplay relabel: databases up to 4 pieces; games=400 reached=" "$work/rl"/logs/merge-*.out ||
  fail "no relabelling in the merge job's log"
ok "merged and relabelled: $(grep -h '^selfplay relabel:' "$work/rl"/logs/merge-*.out)"

echo "-- 4. a match in 4 shards"
engine="hub:$tsuru hub"
m=(--variant english --games 16 --depth 3 --engine "$engine" --engine "$engine" --param2 eval-file=)
sprt=(--sprt "0,50,0.001,0.001")
"$tsuru" match "${m[@]}" >"$work/match-single.txt"
"$tsuru" match "${m[@]}" "${sprt[@]}" >"$work/match-single-sprt.txt"
"$submit" match --run-dir "$work/match" --shards 4 -- "${m[@]}"
"$submit" match --run-dir "$work/match-sprt" --shards 4 --batch 4 -- "${m[@]}" "${sprt[@]}"
for run in match match-sprt; do
  if ! "$submit" wait --run-dir "$work/$run" --timeout 600; then
    for log in "$work/$run"/logs/*; do
      echo "== $log" >&2
      tail -n 15 "$log" >&2
    done
    fail "$run did not complete"
  fi
done
report "$work/match-single.txt" >"$work/a.txt"
[ -s "$work/a.txt" ] || fail "no report"
diff "$work/a.txt" <(report "$work/match/match.txt") || fail "the merged report differs"
report "$work/match-single-sprt.txt" >"$work/b.txt"
diff "$work/b.txt" <(report "$work/match-sprt/match.txt") || fail "the merged report differs (SPRT)"
ok "merged reports equal the single runs': $(tail -1 "$work/b.txt")"

echo "-- 5. an SPRT in batches until it decides"
d=(--variant english --games 400 --depth 3 --engine "$engine" --engine "$engine" --param2 eval-file=
  --sprt "0,50,0.001,0.001")
# 40 shards of 5 pairs, one a batch: the first batch cannot decide (5 pairs won 2-0 give
# LLR 4.18 against the bound 6.91), the test decides after a few.
"$submit" match --run-dir "$work/batches" --shards 40 --batch 1 -- "${d[@]}"
"$submit" wait --run-dir "$work/batches" --timeout 900 || fail "the SPRT run did not complete"
cat "$work/batches/sprt.txt"
grep -qE "^decided: H[01] accepted after" "$work/batches/sprt.txt" || fail "no decision"
batches="$(grep -c "^batch " "$work/batches/sprt.txt")"
[ "$batches" -ge 2 ] || fail "decided in the first batch"
[ "$(grep "^batch " "$work/batches/sprt.txt" | grep -vc "no decision$")" -eq 1 ] ||
  fail "a batch after the decision, or none deciding"
played="$(head -1 "$work/batches/match.txt" | awk '{ print $5 }')"
[ "$played" -lt 400 ] || fail "the SPRT did not stop the run"
# The shards played are the first games of the match: one run of that many games, played to
# its end (a shard, 0/1: no SPRT stop), reports the same.
d[3]="$played"
"$tsuru" match "${d[@]}" --shard 0/1 --results "$work/prefix.results" >"$work/prefix.txt"
diff <(report "$work/prefix.txt") <(report "$work/batches/match.txt") ||
  fail "the batches' report differs from one run of $played games"
ok "decided after $batches batches, $played games; one run of $played games reports the same"

echo "-- 6. throughput: a 2-shard array against one process with --threads 2"
tp=(--variant english --games 200 --nodes 3000 --seed 11)
since() {
  awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }'
}
start=$(date +%s.%N)
"$tsuru" selfplay "${tp[@]}" --threads 2 --out "$work/tp-single.samples" >/dev/null 2>&1
single=$(since "$start")
start=$(date +%s.%N)
"$submit" selfplay --run-dir "$work/tp" --shards 2 --no-train -- "${tp[@]}" >/dev/null
"$submit" wait --run-dir "$work/tp" --timeout 900 || fail "the throughput run did not complete"
array=$(since "$start")
cmp "$work/tp-single.samples" "$work/tp/selfplay.samples" || fail "throughput run differs"
awk -v s="$single" -v a="$array" 'BEGIN {
  printf "one process, --threads 2: %.1f s, %.2f games/s; 2-shard array, submission to merge: %.1f s, %.2f games/s\n", s, 200 / s, a, 200 / a }'
grep -h "^games played" "$work/tp"/logs/selfplay-*.out

echo "cluster: 6 passed, 0 failed"
