#!/usr/bin/env bash
# Tsuru's jobs on a Slurm cluster (docs/cluster.md): writes the batch scripts into a run
# directory on a shared file system and submits them with sbatch.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=tools/cluster/jobs.sh
source "$here/jobs.sh"

usage() {
  cat <<'EOF'
usage: tools/cluster/submit.sh COMMAND --run-dir DIR [options] [-- tsuru options]

commands:
  selfplay --shards N [-- SELFPLAY-OPTIONS]
      a job array of N shards (tsuru selfplay SELFPLAY-OPTIONS --shard I/N, the same options for
      every shard), then the merge (after every shard has ended: afterany), the training of new
      weights (afterok) and a gating match of them against the shipped ones (afterok)
        --cpus C              threads of each shard (1)
        --grace S             seconds between SIGTERM and the time limit (120): a shard stopped
                              by its limit writes the games it finished
        --no-train, --no-gate stop after the merge, or after the training
        --relabel DIR         after the merge, give each game the result of its first
                              position the endgame databases in DIR know (tsuru selfplay
                              relabel; the merged file stays as selfplay.raw.samples)
        --train-args "..."    more tsuru train options, passed as written (e.g. "--epochs 20
                              --init old.weights")
        --train-data FILE     more sample files to train on (repeatable)
        --train-cpus C        threads of the training (4)
        --gate-args "..."     the gating match's options (default: --games 1000 --movetime 0.1
                              --sprt 0,10,0.05,0.05)
        --gate-against W      the opponent's eval-file (default: default, the shipped evaluation)
        --gate-cpus C         games the gate plays at once (2)
  egdb --variant V --pieces N [--db-dir DIR] [--threads T] [--distance-pieces D]
       [--check-samples K]
      one job per build unit of `tsuru egdb plan`, each after the units it needs (afterok), with
      the memory the plan gives; the database goes to --db-dir (RUN/egdb). Each unit's job then
      checks K sampled positions of each of its slices against their children (tsuru egdb
      check, 2000; 0: none), and fails when one is wrong
  match --shards N [--batch K] [--cpus C] [-- MATCH-OPTIONS]
      a job array of N shards (tsuru match MATCH-OPTIONS --shard I/N --results FILE), then the
      merge (afterany) into RUN/match.txt; MATCH-OPTIONS give --games, the whole match. With
      --sprt among them, the shards go in batches of K (N/10, at least 1), each followed by a
      job that merges every result so far and submits the next batch until the test decides
      (RUN/sprt.txt); --cpus C: games each shard plays at once (1)
  train [--cpus C] [-- TRAIN-OPTIONS]
      one job: tsuru train TRAIN-OPTIONS
  status   every job of the run and its state
  wait [--timeout S]
           until no job of the run is pending or running (pending jobs whose dependency failed
           excepted); exit 0 when every job completed, 1 otherwise, 3 on the timeout
  rerun [JOB...]
           requeue the failed jobs of the run (or the jobs and array tasks named, e.g. 123_4)
           and make the jobs after them wait for them again

The jobs run in the run directory: files named in the tsuru options (weights, openings,
engines) need paths every node sees, best absolute.

where and how the jobs run (an option, else the environment variable):
  --run-dir DIR         scripts, logs, jobs.tsv and the outputs (a directory every node sees)
  --tsuru PATH          TSURU_BIN: the binary the jobs run (default: this checkout's build/tsuru)
  --partition P         TSURU_SLURM_PARTITION
  --account A           TSURU_SLURM_ACCOUNT
  --qos Q               TSURU_SLURM_QOS
  --time T              TSURU_SLURM_TIME: every job's time limit (Slurm's format, e.g. 2:00:00)
  --mem M               TSURU_SLURM_MEM: memory of every job (default: estimated per job)
  --sbatch-args "..."   TSURU_SLURM_ARGS: more sbatch options for every job
  --max-running K       the most tasks of an array that run at once (--array=...%K)
  --dry-run             write the scripts and print the sbatch commands; submit nothing
EOF
}

# shellcheck source=tools/cluster/commands.sh
source "$here/commands.sh"

# All of it in a function, read whole before it runs: a job may run this script while the
# checkout changes under it.
main() {
  [ $# -ge 1 ] || {
    usage >&2
    exit 2
  }
  command="$1"
  shift
  case "$command" in
    -h | --help)
      usage
      exit 0
      ;;
    selfplay | egdb | match | train | status | wait | rerun | match-step) ;;
    *) die "unknown command '$command' (selfplay, egdb, match, train, status, wait, rerun)" ;;
  esac

  run_dir=""
  tsuru="${TSURU_BIN:-}"
  partition="${TSURU_SLURM_PARTITION:-}"
  account="${TSURU_SLURM_ACCOUNT:-}"
  qos="${TSURU_SLURM_QOS:-}"
  time_limit="${TSURU_SLURM_TIME:-}"
  mem="${TSURU_SLURM_MEM:-}"
  sbatch_extra="${TSURU_SLURM_ARGS:-}"
  dry_run=0
  max_running="${TSURU_SLURM_MAX_RUNNING:-}"
  shards="" cpus="" grace=120 batch="" timeout=0
  train=1 gate=1 train_args="" train_cpus=4 gate_cpus=2 gate_against=default
  gate_args="--games 1000 --movetime 0.1 --sprt 0,10,0.05,0.05"
  train_data=()
  relabel=""
  variant="" pieces="" db_dir="" threads=1 distance_pieces="" step_batch="" check_samples=2000
  positional=() passthrough=()

  need() {
    [ $# -ge 2 ] || die "$1 needs a value"
  }
  while [ $# -gt 0 ]; do
    case "$1" in
      --) shift; passthrough=("$@"); break ;;
      -h | --help) usage; exit 0 ;;
      --dry-run) dry_run=1 ;;
      --no-train) train=0; gate=0 ;;
      --no-gate) gate=0 ;;
      --run-dir | --tsuru | --partition | --account | --qos | --time | --mem | --sbatch-args | \
        --max-running | \
        --shards | --cpus | --grace | --batch | --timeout | --train-args | --train-data | \
        --train-cpus | --gate-args | --gate-against | --gate-cpus | --relabel | --variant | \
        --pieces | \
        --db-dir | --threads | --distance-pieces | --step-batch | --check-samples)
        need "$@"
        case "$1" in
          --run-dir) run_dir="$2" ;;
          --tsuru) tsuru="$2" ;;
          --partition) partition="$2" ;;
          --account) account="$2" ;;
          --qos) qos="$2" ;;
          --time) time_limit="$2" ;;
          --mem) mem="$2" ;;
          --sbatch-args) sbatch_extra="$2" ;;
          --max-running) max_running="$2" ;;
          --shards) shards="$2" ;;
          --cpus) cpus="$2" ;;
          --grace) grace="$2" ;;
          --batch) batch="$2" ;;
          --timeout) timeout="$2" ;;
          --train-args) train_args="$2" ;;
          --train-data) train_data+=("$2") ;;
          --train-cpus) train_cpus="$2" ;;
          --gate-args) gate_args="$2" ;;
          --gate-against) gate_against="$2" ;;
          --gate-cpus) gate_cpus="$2" ;;
          --relabel) relabel="$2" ;;
          --variant) variant="$2" ;;
          --pieces) pieces="$2" ;;
          --db-dir) db_dir="$2" ;;
          --threads) threads="$2" ;;
          --distance-pieces) distance_pieces="$2" ;;
          --step-batch) step_batch="$2" ;;
          --check-samples) check_samples="$2" ;;
        esac
        shift
        ;;
      -*) die "unknown option '$1' (submit.sh --help)" ;;
      *) positional+=("$1") ;;
    esac
    shift
  done

  [ -n "$run_dir" ] || die "give --run-dir DIR (a directory every node of the cluster sees)"
  if [ -n "$max_running" ] && ! [[ "$max_running" =~ ^[1-9][0-9]*$ ]]; then
    die "--max-running must be a whole number >= 1, not '$max_running'"
  fi
  is_count() {
    if ! [[ "$2" =~ ^[0-9]+$ ]] || [ "$2" -lt 1 ]; then
      die "$1 must be a whole number >= 1, not '$2'"
    fi
  }

  case "$command" in
    status | wait | rerun)
      [ -d "$run_dir" ] || die "no run directory $run_dir"
      run_dir="$(cd "$run_dir" && pwd)"
      [ -s "$run_dir/jobs.tsv" ] || die "$run_dir/jobs.tsv: no jobs recorded in this run directory"
      ;;
  esac
  case "$command" in
    status)
      cmd_status
      exit 0
      ;;
    wait)
      [[ "$timeout" =~ ^[0-9]+$ ]] || die "--timeout must be seconds"
      cmd_wait "$timeout"
      exit $?
      ;;
    rerun)
      cmd_rerun "${positional[@]}"
      exit 0
      ;;
  esac
  [ ${#positional[@]} -eq 0 ] || die "unexpected argument '${positional[0]}' (tsuru's options go after --)"
  if [ "$command" = match-step ]; then
    # A step of an SPRT run, submitted by the run itself: its settings are the run's.
    run_dir="$(cd "$run_dir" && pwd)"
    # shellcheck source=/dev/null
    source "$run_dir/settings.sh"
  fi

  if [ -z "$tsuru" ]; then
    tsuru="$(cd "$here/../.." && pwd)/build/tsuru"
  fi
  [ -x "$tsuru" ] || die "no tsuru binary at $tsuru (build it, or give --tsuru PATH / TSURU_BIN)"
  tsuru="$(cd "$(dirname "$tsuru")" && pwd)/$(basename "$tsuru")"
  if [ "$dry_run" = 0 ]; then
    command -v sbatch >/dev/null || die "no sbatch here: is this a Slurm submit host? (--dry-run writes the scripts only)"
  fi
  if [ "$command" != match-step ]; then
    [ ! -s "$run_dir/jobs.tsv" ] || [ "$dry_run" = 1 ] ||
      die "$run_dir holds a run already ($run_dir/jobs.tsv): give each run a directory of its own"
    run_dir="$(realpath -m "$run_dir")"
  fi

  # The value of option NAME among the words (--name V or --name=V), or empty.
  option_value() {
    local name=$1 prev=""
    shift
    local w
    for w in "$@"; do
      if [ "$prev" = "$name" ]; then
        echo "$w"
        return
      fi
      case "$w" in "$name="*) echo "${w#*=}"; return ;; esac
      prev="$w"
    done
  }
  has_option() {
    local name=$1 w
    shift
    for w in "$@"; do
      case "$w" in "$name" | "$name="*) return 0 ;; esac
    done
    return 1
  }
  refuse_options() {
    local what=$1 name
    shift
    for name in "$@"; do
      has_option "$name" "${passthrough[@]}" && die "$what: $name is set by submit.sh; leave it out"
    done
    return 0
  }

  # The run directory's parts, once the options have been checked. The run keeps its own copy
  # of these scripts: its jobs call them (an SPRT step submits the next batch), whatever
  # happens to the checkout meanwhile.
  prepare_run_dir() {
    mkdir -p "$run_dir/scripts" "$run_dir/logs" "$run_dir/tools" ||
      die "cannot make the run directory $run_dir"
    if [ "$here" != "$run_dir/tools" ]; then
      cp "$here/submit.sh" "$here/jobs.sh" "$here/commands.sh" "$run_dir/tools/"
    fi
  }

  # The settings a later step of the run needs (the SPRT step submits batches).
  save_settings() {
    {
      echo "# The settings of this run, for its later steps (tools/cluster/submit.sh)."
      printf 'tsuru=%q\npartition=%q\naccount=%q\nqos=%q\ntime_limit=%q\nmem=%q\n' \
        "$tsuru" "$partition" "$account" "$qos" "$time_limit" "$mem"
      printf 'sbatch_extra=%q\nmax_running=%q\nshards=%q\nbatch=%q\ncpus=%q\n' \
        "$sbatch_extra" "$max_running" "$shards" "$batch" "$cpus"
      printf 'passthrough=(%s)\n' "$(quote "${passthrough[@]}")"
    } >"$run_dir/settings.sh"
  }


  case "$command" in
    selfplay) cmd_selfplay ;;
    egdb) cmd_egdb ;;
    match) cmd_match ;;
    match-step) cmd_match_step ;;
    train) cmd_train ;;
  esac
  }

main "$@"
