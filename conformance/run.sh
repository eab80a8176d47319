#!/usr/bin/env bash
# The conformance suite: every case under real TensorFlow 2.21 (the oracle) and under tfscope, compared.
#
#   conformance/run.sh [--tf-only] [--update-expected] [--quiet] [CASE ...]
#
#   --tf-only          run (or reuse) the TF side only and stop; with --update-expected this refreshes
#                      conformance/expected_tf.json, the committed record of TF's behaviour
#   --quiet            print the tables of failing cases only
#   CASE               case names (or name prefixes) under conformance/cases/; default: all
#
# TF results are cached in conformance/out/ keyed by a hash of the case files, the runner, the TF
# version and the machine (CPU model and flags, CPUs available, and the variables that change TF's
# kernels: TF_ENABLE_ONEDNN_OPTS, ONEDNN_MAX_CPU_ISA, TF_NUM_INTRAOP_THREADS, ...); tfscope always
# runs live, with the project's .venv python. Cases whose TF results depend on the machine carry a
# `# conformance: live-only: REASON` line; conformance/expected_tf.json holds only that reason for
# them. Exit status: 0 when every case
# matches or is listed in conformance/known_differences.md, 1 on a difference, 2 when tfscope cannot
# be imported, 3 when a backend could not run at all.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
export CONFORMANCE_DIR="$HERE"
ROOT="$(cd "$HERE/.." && pwd)"
OUT="$HERE/out"
TF_ONLY=0; UPDATE=0; QUIET=()
CASES=()
for a in "$@"; do
  case "$a" in
    --tf-only) TF_ONLY=1 ;;
    --update-expected) UPDATE=1 ;;
    --quiet) QUIET=(--quiet) ;;
    -h|--help) sed -n '2,15p' "$0"; exit 0 ;;
    -*) echo "run.sh: unknown option $a" >&2; exit 2 ;;
    *) CASES+=("$a") ;;
  esac
done
mkdir -p "$OUT"

ORACLE_PY="$("$HERE/oracle_env.sh")"
TF_VERSION="$("$ORACLE_PY" -c 'import importlib.metadata as m; print(m.version("tensorflow-cpu"))')"

# What changes TF's kernel choices and float sums on this machine (see the header).
machine() {
  grep -m1 '^vendor_id' /proc/cpuinfo || true
  grep -m1 '^model name' /proc/cpuinfo || true
  grep -m1 '^flags' /proc/cpuinfo || true
  echo "cpus=$(nproc)"
  for v in TF_ENABLE_ONEDNN_OPTS ONEDNN_MAX_CPU_ISA DNNL_MAX_CPU_ISA TF_NUM_INTRAOP_THREADS \
           TF_NUM_INTEROP_THREADS TENSORFLOW_USE_CUSTOM_CONTRACTION_KERNEL; do
    echo "$v=${!v-<unset>}"
  done
}
echo "conformance: machine: $(grep -m1 '^model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'), $(nproc) CPUs;" \
  "$(machine | grep '=' | grep -v '<unset>' | grep -v '^cpus=' | tr '\n' ' ')"

# cache key: TF version + runner code + case files (+ the selection) + the machine
KEY="$( { echo "tf=$TF_VERSION"; echo "cases=${CASES[*]:-ALL}"; machine;
          cd "$HERE" && cat runner.py worker.py normalize.py && for f in $(ls cases/*.py | sort); do echo "== $f"; cat "$f"; done; } \
        | sha256sum | cut -c1-16)"
TF_JSON="$OUT/tf-$KEY.json"
if [ -s "$TF_JSON" ]; then
  echo "conformance: TF $TF_VERSION results reused from $TF_JSON"
else
  echo "conformance: running the cases under TensorFlow $TF_VERSION ($ORACLE_PY)"
  # keep the five newest cached TF results (different case selections), drop older ones
  { ls -t "$OUT"/tf-*.json 2>/dev/null || true; } | tail -n +5 | xargs -r rm -f
  "$ORACLE_PY" "$HERE/runner.py" --backend tf --out "$TF_JSON.partial" "${CASES[@]}"
  mv "$TF_JSON.partial" "$TF_JSON"
fi
if [ "$UPDATE" = 1 ]; then
  if [ "${#CASES[@]}" -ne 0 ]; then echo "run.sh: --update-expected needs the full case list" >&2; exit 2; fi
  "$ORACLE_PY" "$HERE/runner.py" --record "$TF_JSON" "$HERE/expected_tf.json"
  echo "conformance: wrote $HERE/expected_tf.json"
fi
# the committed record of TF's behaviour should match the live oracle; say so when it does not
if [ "${#CASES[@]}" -eq 0 ] && [ -f "$HERE/expected_tf.json" ]; then
  "$ORACLE_PY" - "$TF_JSON" "$HERE/expected_tf.json" <<'PYEOF' || true
import json, sys
live = json.load(open(sys.argv[1]))["cases"]
rec = json.load(open(sys.argv[2]))["cases"]
import importlib.util, os
spec = importlib.util.spec_from_file_location("cmp", os.path.join(os.environ["CONFORMANCE_DIR"], "compare.py"))
cmp = importlib.util.module_from_spec(spec); spec.loader.exec_module(cmp)
stale = sorted(c for c in set(live) | set(rec)
               if c not in live or c not in rec
               or ("live_only" not in rec[c] and not cmp.compare_case(live[c], rec[c])[1]))
if stale:
    print(f"conformance: note: conformance/expected_tf.json is stale for {len(stale)} case(s) ({', '.join(stale[:8])}"
          f"{', ...' if len(stale) > 8 else ''}); refresh it with conformance/run.sh --tf-only --update-expected")
PYEOF
fi
[ "$TF_ONLY" = 1 ] && exit 0

PY="${TFSCOPE_PY:-$ROOT/.venv/bin/python}"   # TFSCOPE_PY overrides (tests of the suite itself)
if [ ! -x "$PY" ]; then
  echo "conformance: FAILED: $PY does not exist; build and install the tfscope Python package into .venv first" >&2
  exit 2
fi
# tfscope must be importable by the project's python, installed or from python/ in the tree
PYPATH_EXTRA=""
if ! "$PY" -c 'import tfscope' >/dev/null 2>&1; then
  if [ -d "$ROOT/python/tfscope" ] && PYTHONPATH="$ROOT/python${PYTHONPATH:+:$PYTHONPATH}" "$PY" -c 'import tfscope' >/dev/null 2>&1; then
    PYPATH_EXTRA="$ROOT/python"
  else
    echo "conformance: FAILED: 'import tfscope' fails with $PY:" >&2
    "$PY" -c 'import tfscope' 2>&1 | tail -3 >&2 || true
    echo "conformance: build and install the tfscope package (pip install . into .venv); no comparison was made" >&2
    exit 2
  fi
fi
echo "conformance: running the cases under tfscope ($PY)"
PYTHONPATH="${PYPATH_EXTRA}${PYPATH_EXTRA:+${PYTHONPATH:+:}}${PYTHONPATH:-}" \
  "$PY" "$HERE/runner.py" --backend tfscope --out "$OUT/tfscope.json" "${CASES[@]}" || true
"$PY" "$HERE/runner.py" --compare "$TF_JSON" "$OUT/tfscope.json" "${QUIET[@]}"
