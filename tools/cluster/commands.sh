# shellcheck shell=bash disable=SC2154  # sourced by submit.sh, which sets the settings
# The runs tools/cluster/submit.sh submits (sourced by it, not run): self-play, endgame
# databases, matches (with the SPRT in batches) and training. Each writes its batch scripts
# into the run directory and submits them in dependency order (jobs.sh); docs/cluster.md.

# An amount of memory in MiB from an arithmetic expression: "256 + 3 * 512" -> 1792M.
mib() {
  echo "$(($1))M"
}

cmd_selfplay() {
  is_count --shards "$shards"
  refuse_options selfplay --shard --out
  local games v c
  games="$(option_value --games "${passthrough[@]}")"
  is_count "--games (among the selfplay options)" "$games"
  v="$(option_value --variant "${passthrough[@]}")"
  v="${v:-english}"
  c="${cpus:-1}"
  is_count --cpus "$c"
  [[ "$grace" =~ ^[0-9]+$ ]] || die "--grace must be seconds"
  is_count --train-cpus "$train_cpus"
  is_count --gate-cpus "$gate_cpus"
  local args=("${passthrough[@]}") f extra_bytes=0
  has_option --threads "${args[@]}" || args+=(--threads "$c")
  local data=()
  for f in "${train_data[@]}"; do
    [ -f "$f" ] || die "--train-data $f: no such file"
    extra_bytes=$((extra_bytes + $(stat -c %s "$f")))
    data+=("$(realpath "$f")")  # the jobs run in the run directory
  done
  prepare_run_dir
  mkdir -p "$run_dir/shards"

  # Memory (docs/training.md, "Sizing"): the openings of the whole run (0.5 KB a game) and
  # 40 bytes a sample of the shard, about 130 samples a game; the merge holds every sample
  # twice; the trainer 110 bytes a position (a sample file takes 36 bytes a sample).
  local samples=$((games * 130))
  local shard_mem merge_mem train_mem gate_mem
  shard_mem="${mem:-$(mib "256 + $games * 600 / 1048576 + $samples / $shards * 40 / 1048576")}"
  merge_mem="${mem:-$(mib "256 + $samples * 80 / 1048576")}"
  train_mem="${mem:-$(mib "512 + ($samples + $extra_bytes / 36) * 110 / 1048576")}"
  gate_mem="${mem:-$(mib "256 + $gate_cpus * 512")}"

  write_script selfplay "$c" "$shard_mem" "$run_dir/logs/selfplay-%A_%a.out" \
    "exec $(quote "$tsuru" selfplay "${args[@]}") --shard \"\${SLURM_ARRAY_TASK_ID}/$shards\" \\
  --out \"shards/selfplay.\${SLURM_ARRAY_TASK_ID}.samples\"" "--signal=B:TERM@$grace"
  # The merge takes every shard file there is: a shard that never wrote one is missing from
  # it (rerun it, then the merge: submit.sh rerun).
  local merge_cmd
  merge_cmd="exec $(quote "$tsuru") selfplay merge --out selfplay.samples \"\${files[@]}\""
  if [ -n "$relabel" ]; then
    [ -d "$relabel" ] || die "--relabel $relabel: no such directory"
    merge_cmd="$(quote "$tsuru") selfplay merge --out selfplay.raw.samples \"\${files[@]}\"
exec $(quote "$tsuru" selfplay relabel --egdb-dir "$(realpath "$relabel")") \\
  --out selfplay.samples selfplay.raw.samples"
  fi
  write_script merge 1 "$merge_mem" "$run_dir/logs/merge-%j.out" \
    "files=(shards/selfplay.*.samples)
echo \"merging \${#files[@]} of $shards shard files\"
$merge_cmd"
  submit selfplay "" "0-$((shards - 1))"
  local shards_id=$job_id
  submit merge "afterany:$shards_id" ""
  local merge_id=$job_id
  [ "$train" = 1 ] || return 0

  local weights="$run_dir/$v.weights"
  write_script train "$train_cpus" "$train_mem" "$run_dir/logs/train-%j.out" \
    "exec $(quote "$tsuru" train --variant "$v" --data selfplay.samples "${data[@]}" \
      --out "$weights" --threads "$train_cpus") $train_args"
  submit train "afterok:$merge_id" ""
  local train_id=$job_id
  [ "$gate" = 1 ] || return 0

  # The new weights as engine 1, the shipped evaluation as engine 2; the verdict is the SPRT
  # line of the report (gate.txt).
  local engine
  engine="hub:$(quote "$tsuru") hub"
  write_script gate "$gate_cpus" "$gate_mem" "$run_dir/logs/gate-%j.out" \
    "$(quote "$tsuru" match --variant "$v" --engine "$engine" --engine "$engine" \
      --param1 "eval-file=$weights" --param2 "eval-file=$gate_against" \
      --concurrency "$gate_cpus" --pdn gate.pdn) $gate_args | tee gate.txt
grep '^SPRT ' gate.txt || true"
  submit gate "afterok:$train_id" ""
}

cmd_egdb() {
  [ -n "$variant" ] || die "egdb: give --variant V"
  is_count --pieces "$pieces"
  is_count --threads "$threads"
  [[ "$check_samples" =~ ^[0-9]+$ ]] || die "--check-samples: a count, not '$check_samples'"
  local db="${db_dir:-$run_dir/egdb}" plan
  prepare_run_dir
  mkdir -p "$db"
  db="$(cd "$db" && pwd)"
  plan="$("$tsuru" egdb plan --variant "$variant" --pieces "$pieces" 2>"$run_dir/plan.err")" ||
    die "tsuru egdb plan failed: $(cat "$run_dir/plan.err")"
  printf '%s\n' "$plan" >"$run_dir/plan.txt"
  # The job checks its unit itself (below, with the table in its log), so the build does not.
  local build=("$tsuru" egdb build --variant "$variant" --dir "$db" --threads "$threads" --quiet
    --check-samples 0)
  [ -n "$distance_pieces" ] && build+=(--distance-pieces "$distance_pieces")
  # The unit's job: its build ($1, the slice to build), then the sampled check of its slices
  # ($2, the unit) against their children, which fails the job when a value is wrong.
  local body
  body="$(quote "${build[@]}") --slice \"\$1\""
  [ "$check_samples" = 0 ] || body+="
exec $(quote "$tsuru" egdb check --variant "$variant" --dir "$db" --samples "$check_samples" \
    --threads "$threads") --slice \"\$2\""
  write_script egdb-unit "$threads" "" "$run_dir/logs/%x-%j.out" "$body"
  # One job per unit, in plan order; each after the jobs of the units its captures and
  # crownings lead to (the plan's last column), with the memory the plan gives.
  declare -A job_of=()
  local slice unit unit_mib needs dep s all=""
  while read -r _ slice unit _ _ unit_mib needs; do
    dep=""
    if [ "$needs" != "-" ]; then
      dep="afterok"
      for s in ${needs//,/ }; do
        [ -n "${job_of[$s]:-}" ] || die "the plan lists $s after $slice, which needs it"
        dep+=":${job_of[$s]}"
      done
    fi
    submit "egdb-$unit" "$dep" "" --script=egdb-unit --job-name="tsuru-egdb-$unit" \
      --mem="${mem:-${unit_mib}M}" -- "$slice" "$unit"
    job_of[$slice]=$job_id
    all+=":$job_id"
  done <<<"$plan"
  write_script egdb-info 1 "" "$run_dir/logs/egdb-info-%j.out" \
    "$(quote "$tsuru" egdb info --variant "$variant" --dir "$db") | tee egdb-info.txt"
  submit egdb-info "afterok$all" ""
}

# The shard array of a match run (the SPRT's batches resubmit the same script).
match_shard_script() {
  local c="${cpus:-1}" args=("${passthrough[@]}")
  has_option --concurrency "${args[@]}" || args+=(--concurrency "$c")
  mkdir -p "$run_dir/results" "$run_dir/pdn"
  write_script match-shard "$c" "${mem:-$(mib "256 + $c * 512")}" \
    "$run_dir/logs/match-%A_%a.out" \
    "exec $(quote "$tsuru" match "${args[@]}") --shard \"\${SLURM_ARRAY_TASK_ID}/$shards\" \\
  --results \"results/match.\${SLURM_ARRAY_TASK_ID}.results\" \\
  --pdn \"pdn/match.\${SLURM_ARRAY_TASK_ID}.pdn\""
}

cmd_match() {
  is_count --shards "$shards"
  refuse_options match --shard --results --pdn
  local games
  games="$(option_value --games "${passthrough[@]}")"
  is_count "--games (among the match options)" "$games"
  is_count --cpus "${cpus:-1}"
  [ $((shards * 2)) -le $((games + 1)) ] ||
    die "$shards shards of $(((games + 1) / 2)) game pairs: some would have no game"
  prepare_run_dir
  match_shard_script
  if ! has_option --sprt "${passthrough[@]}"; then
    write_script match-merge 1 "" "$run_dir/logs/match-merge-%j.out" \
      "files=(results/match.*.results)
echo \"merging \${#files[@]} of $shards shard files\"
$(quote "$tsuru") match merge \"\${files[@]}\" | tee match.txt"
    submit match-shard "" "0-$((shards - 1))"
    submit match-merge "afterany:$job_id" ""
    return 0
  fi
  [ -n "$batch" ] || batch=$(((shards + 9) / 10))
  is_count --batch "$batch"
  save_settings
  : >"$run_dir/sprt.txt"
  write_script match-step 1 "" "$run_dir/logs/match-step-%j.out" \
    "exec $(quote "$run_dir/tools/submit.sh" match-step --run-dir "$run_dir") --step-batch \"\$1\""
  submit match-shard "" "0-$((batch < shards ? batch - 1 : shards - 1))"
  submit match-step "afterany:$job_id" "" -- 0
}

# Array ranges of a sorted list of numbers: 1 2 3 7 -> 1-3,7.
ranges() {
  awk '{ for (i = 1; i <= NF; ++i) {
           if (i > 1 && $i == last + 1) { last = $i; continue }
           if (i > 1) out = out (first == last ? first : first "-" last) ","
           first = last = $i } }
       END { if (NF) out = out (first == last ? first : first "-" last); print out }'
}

# After batch B of an SPRT run: merge every result so far; if the test has not decided, submit
# the next batch (and once more the shards of earlier batches that wrote no results) and the
# step after it. RUN/sprt.txt gets a line per batch, and the verdict.
cmd_match_step() {
  local b="$step_batch" i files=() missing=() next=()
  [[ "$b" =~ ^[0-9]+$ ]] || die "match-step: bad --step-batch '$b'"
  local submitted_end=$(((b + 1) * batch))
  [ "$submitted_end" -le "$shards" ] || submitted_end=$shards
  for ((i = 0; i < submitted_end; ++i)); do
    if [ -s "$run_dir/results/match.$i.results" ]; then
      files+=("$run_dir/results/match.$i.results")
    else
      missing+=("$i")
    fi
  done
  [ ${#files[@]} -gt 0 ] || die "batch $b: no shard wrote results (see $run_dir/logs)"
  "$tsuru" match merge "${files[@]}" >"$run_dir/match.txt"
  local sprt games
  sprt="$(grep '^SPRT ' "$run_dir/match.txt" | tail -1)"
  games="$(head -1 "$run_dir/match.txt" | awk '{ print $5 }')"
  echo "batch $b: $games games (${#files[@]} of $shards shards): $sprt" >>"$run_dir/sprt.txt"
  case "$sprt" in
    *"H0 accepted" | *"H1 accepted")
      echo "decided: ${sprt##*, } after $games games (${#files[@]} of $shards shards)" \
        >>"$run_dir/sprt.txt"
      return 0
      ;;
  esac
  # A shard missing a second time stops the run: it fails for a reason of its own.
  for i in "${missing[@]}"; do
    if grep -qx "$i" "$run_dir/retried.txt" 2>/dev/null; then
      echo "stopped: shard $i wrote no results twice (see $run_dir/logs)" >>"$run_dir/sprt.txt"
      die "shard $i wrote no results twice"
    fi
    echo "$i" >>"$run_dir/retried.txt"
  done
  next=("${missing[@]}")
  for ((i = submitted_end; i < submitted_end + batch && i < shards; ++i)); do next+=("$i"); done
  if [ ${#next[@]} -eq 0 ]; then
    echo "no decision after all $shards shards" >>"$run_dir/sprt.txt"
    return 0
  fi
  submit match-shard "" "$(echo "${next[@]}" | ranges)"
  submit match-step "afterany:$job_id" "" -- $((b + 1))
}

cmd_train() {
  local c="${cpus:-1}" args=("${passthrough[@]}") w bytes=0
  is_count --cpus "$c"
  has_option --threads "${args[@]}" || args+=(--threads "$c")
  prepare_run_dir
  for w in "${args[@]}"; do
    [[ "$w" == *.samples && -f "$w" ]] && bytes=$((bytes + $(stat -c %s "$w")))
  done
  write_script train "$c" "${mem:-$(mib "512 + $bytes / 36 * 110 / 1048576")}" \
    "$run_dir/logs/train-%j.out" "exec $(quote "$tsuru" train "${args[@]}")"
  submit train "" ""
}
