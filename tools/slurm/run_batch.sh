#!/usr/bin/env bash
# tools/slurm/run_batch.sh [--shards N] [--scene FILE] [--out DIR] [--keep] [--keep-cluster] [--allow-skip]
#                          [--state DIR] [--task-args "ARGS"] [--single-args "ARGS"] [--timeout SECONDS]
#                          [--kill-requeue K] [LUXEL=build/luxel]
#
# End-to-end check of sharded `luxel batch` under a local single-node Slurm:
#   1. brings the cluster up (tools/slurm/cluster.sh up STATE_DIR)
#   2. `sbatch --array=0-(N-1) --wait` running `luxel batch SCENE -o OUT/shard-$SLURM_ARRAY_TASK_ID`
#      (luxel takes its shard from SLURM_ARRAY_TASK_ID / SLURM_ARRAY_TASK_COUNT), one CPU per task
#   3. `luxel batch --merge OUT/shard-0 ... -o OUT/merged`
#   4. a single-process `luxel batch SCENE -o OUT/single`
#   5. merged == single: the same set of files, every file except manifest.json and index.html (it shows
#      per-run render times) byte-identical (cmp),
#      manifest.json equal once timing keys (TIMING_KEYS below) and the shard block are removed
#   6. prints the wall times; shuts the cluster down on exit (also on failure) if this script brought it up
#   With --kill-requeue K, array task K is killed mid-way (`scancel --signal=KILL --full`, once its shard's journal
#   shows 3 maps done) and requeued (`scontrol requeue`): its rerun must resume (maps up to date) and the merged
#   result must still equal the single run, image for image.
# Exit: 0 all equal, 1 a mismatch or a failed step (with a message), 2 bad usage / luxel unusable.
#
#   --shards N        array size (default 4)                --scene FILE   default scenes/openarena.toml
#   --out DIR         output root (default: a new /tmp/luxel-slurm-run.XXXXXX; removed on success unless --keep)
#   --keep            keep the output root                  --keep-cluster leave the cluster running
#   --allow-skip      exit 0 with "skipped: ..." when slurm-wlm/munge are not installed (else exit 1)
#   --state DIR       cluster state dir (default /tmp/luxel-slurm)
#   --task-args ARGS  extra luxel arguments per array task (default "--jobs 1 --threads 1")
#   --single-args A   extra luxel arguments for the single-process run (default: none, all cores)
#   --timeout S       give up on the array job after S seconds (default 1800)
#   --kill-requeue K  kill array task K mid-way and requeue it (see above)
#   LUXEL=PATH        the luxel binary (default build/luxel; also taken from $LUXEL)
set -euo pipefail

# Manifest keys that hold timings or other per-run measurements, dropped at any depth before comparing
# (shell glob patterns against the key name). Extend with LUXEL_IGNORE_KEYS="key1 key2*".
TIMING_KEYS=(ms seconds wall 'wall_*' '*_ms' '*_seconds' 'time_*' '*_time' timings elapsed 'elapsed_*'
             started finished 'started_at' 'finished_at' 'peak_rss*' 'rss_*')
# Blocks that differ by construction between a merged and a single run.
SHARD_KEYS=(shard)
# shellcheck disable=SC2206
EXTRA_KEYS=(${LUXEL_IGNORE_KEYS:-})

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
CLUSTER="$ROOT/tools/slurm/cluster.sh"

shards=4
scene=scenes/openarena.toml
out=""
keep=0
keep_cluster=0
allow_skip=0
state=${LUXEL_SLURM_STATE:-/tmp/luxel-slurm}
task_args="--jobs 1 --threads 1"
single_args=""
wait_timeout=1800
kill_task=-1
luxel=${LUXEL:-build/luxel}

usage() { sed -n '2,25p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
while (($#)); do
  case "$1" in
    --shards) shards=${2:?}; shift 2 ;;
    --scene) scene=${2:?}; shift 2 ;;
    --out) out=${2:?}; shift 2 ;;
    --keep) keep=1; shift ;;
    --keep-cluster) keep_cluster=1; shift ;;
    --allow-skip) allow_skip=1; shift ;;
    --state) state=${2:?}; shift 2 ;;
    --task-args) task_args=${2?}; shift 2 ;;
    --single-args) single_args=${2?}; shift 2 ;;
    --timeout) wait_timeout=${2:?}; shift 2 ;;
    --kill-requeue) kill_task=${2:?}; shift 2 ;;
    LUXEL=*) luxel=${1#LUXEL=}; shift ;;
    -h | --help) usage ;;
    *) echo "run_batch.sh: unknown argument '$1'" >&2; usage ;;
  esac
done
[[ "$shards" =~ ^[1-9][0-9]*$ ]] || { echo "run_batch.sh: --shards needs a positive integer" >&2; exit 2; }

say() { echo "run_batch.sh: $*"; }
fail() { echo "run_batch.sh: FAIL: $*" >&2; exit 1; }
now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }

# --- prerequisites -------------------------------------------------------------------------------------------
export PATH="$PATH:/usr/sbin:/sbin"
missing=()
for b in munged slurmctld slurmd sbatch sinfo squeue scancel scontrol; do command -v "$b" >/dev/null 2>&1 || missing+=("$b"); done
if ((${#missing[@]})); then
  if ((allow_skip)); then
    echo "skipped: slurm-wlm/munge not installed (missing: ${missing[*]})"
    exit 0
  fi
  echo "run_batch.sh: slurm-wlm/munge not installed (missing: ${missing[*]}); apt-get install -y slurm-wlm munge," \
    "or pass --allow-skip to skip" >&2
  exit 1
fi
command -v jq >/dev/null 2>&1 || fail "jq is needed to compare manifests (apt-get install -y jq)"

cd "$ROOT"
abspath() { case "$1" in /*) echo "$1" ;; *) echo "$ROOT/$1" ;; esac; }
luxel=$(abspath "$luxel")
scene=$(abspath "$scene")
[[ -x "$luxel" ]] || { echo "run_batch.sh: $luxel is not an executable (build it: tools/setup.sh)" >&2; exit 2; }
[[ -f "$scene" ]] || { echo "run_batch.sh: scene $scene not found" >&2; exit 2; }
# The default scene renders the Debian OpenArena install (tools/setup.sh installs it).
if [[ "$scene" == */scenes/openarena.toml && ! -d /usr/share/games/openarena/baseoa ]]; then
  if ((allow_skip)); then
    echo "skipped: /usr/share/games/openarena/baseoa missing (openarena-data not installed)"
    exit 0
  fi
  echo "run_batch.sh: /usr/share/games/openarena/baseoa missing: run tools/setup.sh" >&2
  exit 1
fi
# Not grep -q: it stops reading at the first match, and luxel writing the rest of its help then dies of SIGPIPE,
# which pipefail counts as the pipeline failing.
"$luxel" batch --help 2>&1 | grep -- --merge > /dev/null \
  || { echo "run_batch.sh: $luxel has no 'batch' command with --merge ('$luxel batch --help')" >&2; exit 2; }

created_out=0
if [[ -z "$out" ]]; then
  out=$(mktemp -d /tmp/luxel-slurm-run.XXXXXX)
  created_out=1
else
  out=$(abspath "$out")
  mkdir -p "$out"
  rm -rf "$out"/shard-* "$out/merged" "$out/single" "$out/logs" "$out/tasks"
fi
mkdir -p "$out/logs" "$out/tasks"

# --- cluster, torn down on every exit path -----------------------------------------------------------------------
started_cluster=0
ok=0
cleanup() {
  local rc=$?
  if ((started_cluster && !keep_cluster)); then
    say "shutting the cluster down"
    "$CLUSTER" down "$state" || echo "run_batch.sh: cluster.sh down failed" >&2
  fi
  if ((ok && created_out && !keep)); then
    rm -rf "$out"
  else
    say "outputs kept in $out"
  fi
  exit $rc
}
trap cleanup EXIT
trap 'exit 130' INT TERM

if "$CLUSTER" status "$state" >/dev/null 2>&1; then
  say "cluster in $state was already running; it will be left running"
else
  started_cluster=1
fi
"$CLUSTER" up "$state" >"$out/logs/cluster-up.log" 2>&1 || { cat "$out/logs/cluster-up.log" >&2; fail "cluster.sh up failed"; }
export SLURM_CONF="$state/slurm.conf"
# the array tasks inherit this environment: no stray shard settings from the caller
unset LUXEL_SHARDS JOB_COMPLETION_INDEX

# --- sharded run -----------------------------------------------------------------------------------------------
cat >"$out/task.sh" <<EOF
#!/usr/bin/env bash
# one array task: shard \$SLURM_ARRAY_TASK_ID of \$SLURM_ARRAY_TASK_COUNT (luxel reads both itself)
id=\${SLURM_ARRAY_TASK_ID:?not an array task}
date +%s.%N >"$out/tasks/\$id.start"
rc=0
"$luxel" batch "$scene" -o "$out/shard-\$id" $task_args || rc=\$?
date +%s.%N >"$out/tasks/\$id.end"
echo \$rc >"$out/tasks/\$id.rc"
exit \$rc
EOF
chmod +x "$out/task.sh"

say "sbatch --array=0-$((shards - 1)) ($shards shards of $(basename "$scene"), per task: ${task_args:-no extra args})"
t0=$(now)
sb_rc=0
if ((kill_task < 0)); then
  timeout "$wait_timeout" sbatch --wait --parsable --array="0-$((shards - 1))" --cpus-per-task=1 \
    --job-name=luxel-batch --chdir="$ROOT" --output="$out/logs/shard-%a.log" "$out/task.sh" \
    >"$out/logs/sbatch.out" 2>"$out/logs/sbatch.err" || sb_rc=$?
else
  ((kill_task < shards)) || { echo "run_batch.sh: --kill-requeue $kill_task: no such task (0-$((shards - 1)))" >&2; exit 2; }
  sbatch --parsable --requeue --open-mode=append --array="0-$((shards - 1))" --cpus-per-task=1 \
    --job-name=luxel-batch --chdir="$ROOT" --output="$out/logs/shard-%a.log" "$out/task.sh" \
    >"$out/logs/sbatch.out" 2>"$out/logs/sbatch.err" || fail "sbatch failed: $(cat "$out/logs/sbatch.err")"
  array_id=$(head -n 1 "$out/logs/sbatch.out" | cut -d';' -f1)
  journal="$out/shard-$kill_task/journal.jsonl"
  deadline=$((SECONDS + wait_timeout))
  # Mid-way: the task's journal shows 3 maps done (its manifest is not written yet).
  until [[ -f "$journal" ]] && (($(grep -c '^{"done"' "$journal" || true) >= 3)); do
    ((SECONDS < deadline)) || fail "task $kill_task never got 3 maps done"
    [[ -f "$out/shard-$kill_task/manifest.json" ]] && fail "task $kill_task finished before it could be killed (use a larger scene)"
    sleep 0.1
  done
  done_before=$(grep -c '^{"done"' "$journal" || true)
  scancel --signal=KILL --full "${array_id}_${kill_task}"
  # The task ends (killed) before it can be requeued; a finished job's record lives MinJobAge (5 s) seconds.
  for _ in $(seq 100); do
    state=$(squeue -h -j "${array_id}_${kill_task}" -o %T 2>/dev/null || true)
    [[ -z "$state" || "$state" != RUNNING ]] && break
    sleep 0.05
  done
  scontrol requeue "${array_id}_${kill_task}" || fail "scontrol requeue ${array_id}_${kill_task} failed"
  say "killed task $kill_task (SIGKILL, $done_before maps done in its journal) and requeued it"
  # Slurm gives a requeued job a begin time two minutes ahead; once it is pending again, start it now instead.
  for _ in $(seq 200); do
    reason=$(squeue -h -j "${array_id}_${kill_task}" -o '%T %r' 2>/dev/null || true)
    if [[ "$reason" == "PENDING BeginTime" ]]; then
      scontrol update JobId="${array_id}_${kill_task}" StartTime=now >/dev/null 2>&1 || true
    elif [[ "$reason" == RUNNING* || -z "$reason" ]]; then
      break
    fi
    sleep 0.1
  done
  until [[ -z "$(squeue -h -j "$array_id" 2>/dev/null)" ]]; do
    ((SECONDS < deadline)) || { sb_rc=124; break; }
    sleep 0.5
  done
  echo "$array_id" >"$out/logs/sbatch.out"
  resumed=$(grep -o '[0-9]* up to date' "$out/logs/shard-$kill_task.log" | tail -n 1 | cut -d' ' -f1)
  say "requeued task $kill_task: ${resumed:-no} maps up to date on its rerun"
  [[ -n "$resumed" && "$resumed" -ge "$done_before" ]] \
    || fail "the requeued task did not resume: ${resumed:-no} maps up to date, $done_before were done before the kill"
fi
t1=$(now)
job_id=$(head -n 1 "$out/logs/sbatch.out" 2>/dev/null | cut -d';' -f1)
if ((sb_rc == 124)); then fail "array job ${job_id:-?} not done after ${wait_timeout}s"; fi
task_fail=()
for ((k = 0; k < shards; k++)); do
  if [[ ! -f "$out/tasks/$k.rc" ]]; then
    task_fail+=("$k(never finished)")
  elif [[ $(cat "$out/tasks/$k.rc") != 0 ]]; then
    task_fail+=("$k(exit $(cat "$out/tasks/$k.rc"))")
  fi
done
if ((${#task_fail[@]})); then
  for ((k = 0; k < shards; k++)); do [[ -f "$out/logs/shard-$k.log" ]] && { echo "---- shard $k log" >&2; tail -n 20 "$out/logs/shard-$k.log" >&2; }; done
  cat "$out/logs/sbatch.err" >&2
  fail "array job ${job_id:-?}: tasks ${task_fail[*]} (sbatch exit $sb_rc)"
fi
((sb_rc == 0)) || { cat "$out/logs/sbatch.err" >&2; fail "sbatch --wait exited $sb_rc"; }
# first task start to last task end: the work itself, without submission and sbatch's 2 s polling
span=$(cat "$out"/tasks/*.start "$out"/tasks/*.end | sort -n | awk 'NR == 1 { a = $1 } { b = $1 } END { printf "%.2f", b - a }')

merge_args=()
for ((k = 0; k < shards; k++)); do
  [[ -f "$out/shard-$k/manifest.json" ]] || fail "shard $k wrote no $out/shard-$k/manifest.json"
  merge_args+=("$out/shard-$k")
done
t2=$(now)
"$luxel" batch --merge "${merge_args[@]}" -o "$out/merged" >"$out/logs/merge.log" 2>&1 \
  || { cat "$out/logs/merge.log" >&2; fail "luxel batch --merge failed"; }
t3=$(now)

# --- single-process run -------------------------------------------------------------------------------------------
single_rc=0
# shellcheck disable=SC2086
"$luxel" batch "$scene" -o "$out/single" $single_args >"$out/logs/single.log" 2>&1 || single_rc=$?
t4=$(now)
((single_rc == 0)) || { tail -n 20 "$out/logs/single.log" >&2; fail "single-process luxel batch exited $single_rc"; }

# --- compare ------------------------------------------------------------------------------------------------------
mismatch=()
(cd "$out/merged" && find . -type f | LC_ALL=C sort) >"$out/logs/files.merged"
(cd "$out/single" && find . -type f | LC_ALL=C sort) >"$out/logs/files.single"
if ! diff -u "$out/logs/files.single" "$out/logs/files.merged" >"$out/logs/files.diff"; then
  mismatch+=("the file sets differ (- single, + merged):")
  mismatch+=("$(grep -E '^[-+][^-+]' "$out/logs/files.diff" | head -n 20)")
fi
compared=0
while IFS= read -r f; do
  [[ "$f" == ./manifest.json ]] && continue
  # index.html shows each map's render time (a per-run figure); its maps, links and errors come from the
  # manifest, which is compared below.
  [[ "$f" == ./index.html ]] && continue
  [[ -f "$out/merged/$f" ]] || continue
  compared=$((compared + 1))
  cmp -s "$out/single/$f" "$out/merged/$f" || mismatch+=("${f#./} differs (cmp $out/single/${f#./} $out/merged/${f#./})")
done <"$out/logs/files.single"

# glob -> anchored regex, for jq
to_regex() { local g=$1 r; r=$(printf '%s' "$g" | sed -e 's/[][\.^$+?(){}|]/\\&/g' -e 's/\*/.*/g'); echo "^$r\$"; }
pats=()
for k in "${TIMING_KEYS[@]}" "${SHARD_KEYS[@]}" "${EXTRA_KEYS[@]}"; do pats+=("$(to_regex "$k")"); done
pats_json=$(printf '%s\n' "${pats[@]}" | jq -R . | jq -s -c .)
# drop the listed keys at any depth; paths below an output dir are written relative to it ("<out>")
# shellcheck disable=SC2016  # jq variables, not shell ones
JQ_FILTER='
  def strip($dirs): if type == "string" then reduce $dirs[] as $d (.; sub("^" + $d; "<out>")) else . end;
  walk(if type == "object"
       then with_entries(select(.key as $k | any($pats[]; . as $p | $k | test($p)) | not))
       else strip($dirs) end)'
normalize() {
  local dirs
  dirs=$(printf '%s\n' "$out/merged" "$out/single" "$out"/shard-* | sed 's/[][\.^$*+?(){}|]/\\&/g' | jq -R . | jq -s -c .)
  jq -S --argjson pats "$pats_json" --argjson dirs "$dirs" "$JQ_FILTER" "$1"
}
if [[ -f "$out/single/manifest.json" && -f "$out/merged/manifest.json" ]]; then
  normalize "$out/single/manifest.json" >"$out/logs/manifest.single.json" || fail "single manifest.json is not JSON"
  normalize "$out/merged/manifest.json" >"$out/logs/manifest.merged.json" || fail "merged manifest.json is not JSON"
  if ! diff -u "$out/logs/manifest.single.json" "$out/logs/manifest.merged.json" >"$out/logs/manifest.diff"; then
    mismatch+=("manifest.json differs beyond timings (- single, + merged; ignored keys: ${TIMING_KEYS[*]} ${SHARD_KEYS[*]} ${EXTRA_KEYS[*]}):")
    mismatch+=("$(tail -n +3 "$out/logs/manifest.diff" | head -n 40)")
  fi
else
  mismatch+=("manifest.json missing from $([[ -f "$out/single/manifest.json" ]] || echo single) $([[ -f "$out/merged/manifest.json" ]] || echo merged)")
fi

sharded_wall=$(secs "$t0" "$t1")
merge_wall=$(secs "$t2" "$t3")
single_wall=$(secs "$t3" "$t4")
echo
echo "sharded ($shards Slurm array tasks, job ${job_id:-?}): ${sharded_wall} s wall submit->done (tasks' own span ${span} s), merge ${merge_wall} s"
echo "single process:                           ${single_wall} s wall"
echo "files compared byte for byte: $compared (+ manifest.json without timings)"

if ((${#mismatch[@]})); then
  echo "run_batch.sh: FAIL: merged result != single-process result:" >&2
  printf '  %s\n' "${mismatch[@]}" >&2
  exit 1
fi
ok=1
echo "run_batch.sh: OK: merged shards == single run"
