# shellcheck shell=bash disable=SC2154  # sourced by submit.sh, which sets the settings
# The job graph of a run, for tools/cluster/submit.sh (sourced, not run): batch scripts
# written into the run directory, submitted with sbatch (or printed, --dry-run), every job
# recorded in RUN/jobs.tsv with the dependency it was given; and from that record the state of
# every job (status), waiting for the run (wait), and requeueing what failed so that the jobs
# after it wait for it again (rerun). docs/cluster.md describes the commands.
#
# Settings (set by submit.sh from its options and the environment): run_dir, tsuru, partition,
# account, qos, time_limit, sbatch_extra (a string of sbatch options), max_running (the most
# tasks of an array that run at once, or empty), dry_run (0 or 1).

die() {
  echo "submit.sh: $*" >&2
  exit 2
}

# The words, each quoted for the shell, space-separated.
quote() {
  local out="" w
  for w in "$@"; do out+="$(printf '%q' "$w") "; done
  printf '%s' "${out% }"
}

# write_script NAME CPUS MEM OUTPUT BODY [EXTRA_SBATCH_LINE...]: RUN/scripts/NAME.sbatch, a
# batch script with the run's resources and BODY run in the run directory.
write_script() {
  local name=$1 cpus=$2 mem=$3 output=$4 body=$5
  shift 5
  local file="$run_dir/scripts/$name.sbatch" line
  {
    echo "#!/bin/bash"
    echo "# Written by tools/cluster/submit.sh; sbatch runs it (see $run_dir/jobs.tsv)."
    echo "#SBATCH --job-name=tsuru-$name"
    echo "#SBATCH --output=$output"
    echo "#SBATCH --cpus-per-task=$cpus"
    [ -n "$mem" ] && echo "#SBATCH --mem=$mem"
    [ -n "$time_limit" ] && echo "#SBATCH --time=$time_limit"
    [ -n "$partition" ] && echo "#SBATCH --partition=$partition"
    [ -n "$account" ] && echo "#SBATCH --account=$account"
    [ -n "$qos" ] && echo "#SBATCH --qos=$qos"
    # A job that fails or is cancelled may be requeued (rerun), and one whose node fails is.
    echo "#SBATCH --requeue"
    for line in "$@"; do echo "#SBATCH $line"; done
    echo "set -euo pipefail"
    echo "cd $(quote "$run_dir")"
    printf '%s\n' "$body"
  } >"$file"
  chmod +x "$file"
}

dry_count=0

# submit NAME DEPENDENCY ARRAY [SBATCH_OPTION...] -- [SCRIPT_ARG...]: submits RUN/scripts/NAME
# (the script of that name; an option --script=S names another), records the job and sets
# job_id to its id. DEPENDENCY is an sbatch --dependency value or empty, ARRAY an --array
# value or empty.
submit() {
  local name=$1 dependency=$2 array=$3
  shift 3
  local script="$name" options=() args=()
  while [ $# -gt 0 ] && [ "$1" != "--" ]; do
    case "$1" in
      --script=*) script="${1#--script=}" ;;
      *) options+=("$1") ;;
    esac
    shift
  done
  [ $# -gt 0 ] && shift
  args=("$@")
  local cmd=(sbatch --parsable)
  [ -n "$array" ] && cmd+=("--array=$array${max_running:+%$max_running}")
  [ -n "$dependency" ] && cmd+=("--dependency=$dependency")
  # shellcheck disable=SC2206  # the extra options are words, as on a command line
  [ -n "$sbatch_extra" ] && cmd+=($sbatch_extra)
  cmd+=("${options[@]}" "$run_dir/scripts/$script.sbatch" "${args[@]}")
  if [ "$dry_run" = 1 ]; then
    dry_count=$((dry_count + 1))
    job_id="dry$dry_count"
    echo "$(quote "${cmd[@]}")    # job $job_id ($name)"
  else
    local out
    out="$("${cmd[@]}")" || die "sbatch failed for $name: $(quote "${cmd[@]}")"
    job_id="${out%%;*}"
    [[ "$job_id" =~ ^[0-9]+$ ]] || die "sbatch printed '$out' for $name, not a job id"
    printf '%s\t%s\t%s\t%s\n' "$name" "$job_id" "${dependency:--}" "${array:--}" \
      >>"$run_dir/jobs.tsv"
    echo "submitted $name: job $job_id${array:+ (array $array)}${dependency:+, $dependency}"
  fi
}

# The recorded jobs: "name id dependency array" lines.
recorded_jobs() {
  [ -s "$run_dir/jobs.tsv" ] || die "$run_dir/jobs.tsv: no jobs recorded in this run directory"
  cat "$run_dir/jobs.tsv"
}

# The states Slurm knows: "job task state reason" lines, job the id sbatch gave (an array's
# id for its tasks), task the job or array task (a pending range of an array's tasks is one
# line, e.g. 12_[4-7]). From scontrol, for every job it still remembers.
slurm_states() {
  scontrol -o show job 2>/dev/null | awk '{
    task = ""; state = ""; reason = ""; array = ""; job = ""
    for (i = 1; i <= NF; ++i) {
      split($i, kv, "=")
      if (kv[1] == "JobId") job = kv[2]
      else if (kv[1] == "ArrayJobId") array = kv[2]
      else if (kv[1] == "ArrayTaskId") task = substr($i, 13)
      else if (kv[1] == "JobState") state = kv[2]
      else if (kv[1] == "Reason") reason = kv[2]
    }
    if (job == "") next
    if (array != "" && task != "") {
      if (task ~ /[-,]/) task = "[" task "]"
      print array, array "_" task, state, reason
    } else print job, job, state, reason
  }'
}

# Every job and task of the run with its state: "name task state reason". A job Slurm no
# longer remembers comes from the accounting database (sacct), when there is one.
run_states() {
  local known name id dependency array text
  known="$(slurm_states)"
  while IFS=$'\t' read -r name id dependency array; do
    text="$(awk -v id="$id" -v name="$name" '$1 == id { print name, $2, $3, $4 }' <<<"$known")"
    if [ -z "$text" ]; then
      text="$(sacct -n -P -X -j "$id" -o JobID,State 2>/dev/null |
        awk -F'|' -v name="$name" '{ split($2, s, " "); print name, $1, s[1], "-" }')" || true
    fi
    [ -n "$text" ] || text="$name $id UNKNOWN -"
    printf '%s\n' "$text"
  done < <(recorded_jobs)
}

# The state of one recorded job (the first task's, for an array).
job_state() {
  run_states | awk -v id="$1" '$2 == id || index($2, id "_") == 1 { print $3; exit }'
}

is_failed_state() {
  case "$1" in
    FAILED | CANCELLED | TIMEOUT | OUT_OF_MEMORY | NODE_FAIL | BOOT_FAIL | DEADLINE | PREEMPTED) return 0 ;;
  esac
  return 1
}

cmd_status() {
  printf '%-22s %-14s %-12s %s\n' name job state reason
  run_states | while read -r name task state reason; do
    printf '%-22s %-14s %-12s %s\n' "$name" "$task" "$state" "$reason"
  done
}

# The recorded jobs that can never start: pending with a dependency that failed or a request
# the partition cannot meet (more CPUs than a node has, ...), or after such a job. One id a
# line.
stuck_jobs() {
  local states=$1
  STATES="$states" awk '
    BEGIN {
      n = split(ENVIRON["STATES"], lines, "\n")
      for (i = 1; i <= n; ++i) {
        split(lines[i], f, " ")
        base = f[2]
        sub(/_.*/, "", base)
        if (f[3] == "PENDING" && f[4] ~ /^(DependencyNeverSatisfied|PartitionConfig|BadConstraints|PartitionNodeLimit|PartitionTimeLimit|InvalidAccount|InvalidQOS)$/)
          never[base] = 1
      }
    }
    { id[NR] = $2; dep[NR] = $3; rows = NR; if ($2 in never) stuck[$2] = 1 }
    END {
      do {
        changed = 0
        for (r = 1; r <= rows; ++r) {
          if ((id[r] in stuck) || dep[r] == "-") continue
          k = split(dep[r], d, /[:,?]/)
          for (j = 1; j <= k; ++j)
            if (d[j] in stuck) { stuck[id[r]] = 1; changed = 1; break }
        }
      } while (changed)
      for (s in stuck) print s
    }' FS='\t' "$run_dir/jobs.tsv"
}

# wait: until no job of the run is pending or running, except the jobs that can never start
# (stuck_jobs). Exit 0 when every job completed.
cmd_wait() {
  local timeout=$1 start now states stuck
  start=$(date +%s)
  while :; do
    states="$(run_states)"
    stuck="$(stuck_jobs "$states" | tr '\n' ' ')"
    if ! awk -v stuck=" $stuck" '
        { base = $2; sub(/_.*/, "", base) }
        $3 == "PENDING" && index(stuck, " " base " ") == 0 { busy = 1 }
        $3 == "RUNNING" || $3 == "CONFIGURING" || $3 == "COMPLETING" || $3 == "REQUEUED" ||
        $3 == "RESIZING" || $3 == "SUSPENDED" { busy = 1 }
        END { exit busy ? 0 : 1 }' <<<"$states"; then
      break
    fi
    now=$(date +%s)
    if [ "$timeout" -gt 0 ] && [ $((now - start)) -ge "$timeout" ]; then
      echo "submit.sh wait: still running after $timeout s" >&2
      cmd_status
      return 3
    fi
    sleep 2
  done
  if awk '$3 != "COMPLETED" { bad = 1 } END { exit bad ? 0 : 1 }' <<<"$states"; then
    cmd_status
    return 1
  fi
  return 0
}

# The array job id of a task id (12_3 -> 12); a plain job id stays.
base_id() {
  echo "${1%%_*}"
}

# rerun [TASK...]: requeues the failed jobs and tasks of the run (or the ones named), then every
# job after them: a pending one waits for them again (its dependency is set anew: one whose
# dependency had failed would wait forever), a finished one is requeued held, given its
# dependency again and released. A running one is left alone, with a warning.
cmd_rerun() {
  local targets=("$@") name task state reason
  if [ ${#targets[@]} -eq 0 ]; then
    while read -r name task state reason; do
      is_failed_state "$state" && targets+=("$task")
    done < <(run_states)
  fi
  if [ ${#targets[@]} -eq 0 ]; then
    echo "submit.sh rerun: no failed job in $run_dir"
    return 0
  fi
  local t
  declare -A rerun_ids=()
  for t in "${targets[@]}"; do
    [[ "$t" =~ ^[0-9]+(_[0-9]+)?$ ]] || die "rerun: '$t' is not a job or array task id"
    echo "requeue $t"
    scontrol requeue "$t" || die "rerun: scontrol requeue $t failed"
    # A requeued job is held back for a while before it may start again; it may start now.
    scontrol update JobId="$t" StartTime=now >/dev/null 2>&1 || true
    rerun_ids[$(base_id "$t")]=1
  done
  # The jobs after them, in the order they were submitted (each after what it depends on).
  local id dependency array dep_id changed=1
  declare -A after=()
  while [ $changed = 1 ]; do
    changed=0
    while IFS=$'\t' read -r name id dependency array; do
      [ -n "${after[$id]:-}" ] && continue
      [ "$dependency" = "-" ] && continue
      for dep_id in $(tr ':,?' '   ' <<<"${dependency#*:}"); do
        if [ -n "${rerun_ids[$dep_id]:-}" ] || [ -n "${after[$dep_id]:-}" ]; then
          after[$id]=1
          changed=1
          break
        fi
      done
    done < <(recorded_jobs)
  done
  while IFS=$'\t' read -r name id dependency array; do
    [ -n "${after[$id]:-}" ] || continue
    state="$(job_state "$id")"
    case "$state" in
      PENDING)
        echo "$name ($id): waits again for $dependency"
        scontrol update JobId="$id" Dependency="$dependency"
        ;;
      RUNNING | COMPLETING | CONFIGURING)
        echo "submit.sh rerun: $name ($id) is running already; it started before the rerun" >&2
        ;;
      *)
        if [ "$array" != "-" ]; then
          echo "submit.sh rerun: $name ($id) is an array that has ended; rerun its tasks by id" >&2
          continue
        fi
        echo "$name ($id, $state): requeued, after $dependency"
        scontrol requeuehold "$id"
        scontrol update JobId="$id" Dependency="$dependency"
        scontrol update JobId="$id" StartTime=now >/dev/null 2>&1 || true
        scontrol release "$id"
        ;;
    esac
  done < <(recorded_jobs)
}
