#!/usr/bin/env bash
# AutoGraph runtime conformance: the functions of runtime_cases.py run through tf.function under
# TensorFlow 2.21 (the oracle) and under tfscope; outputs, errors, trace counts and op counts
# (graph and function library) must be equal.
#
#   conformance/autograph/run_runtime.sh [CASE ...]
#
# The TF side is cached in conformance/out/autograph/ keyed by a hash of the cases, the runner
# and the corpus; tfscope runs live with the project's .venv python (after
# `.venv/bin/python -m pip install --no-build-isolation .`). Exit status: 0 when all match,
# 1 on a difference, 2 when tfscope cannot be imported.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
OUT="$ROOT/conformance/out/autograph"
mkdir -p "$OUT"
ORACLE_PY="$("$ROOT/conformance/oracle_env.sh")"
KEY="$( { echo "cases=$*"; cd "$HERE" && cat runtime.py runtime_cases.py runtime_extra.py corpus/*.py; } \
        | sha256sum | cut -c1-16)"
TF_JSON="$OUT/runtime-tf-$KEY.json"
if [ -s "$TF_JSON" ]; then
  echo "autograph runtime: TF results reused from $TF_JSON"
else
  echo "autograph runtime: running the cases under TensorFlow ($ORACLE_PY)"
  ls -t "$OUT"/runtime-tf-*.json 2>/dev/null | tail -n +4 | xargs -r rm -f || true
  "$ORACLE_PY" "$HERE/runtime.py" --backend tf --out "$TF_JSON.partial" "$@" 2>/dev/null
  mv "$TF_JSON.partial" "$TF_JSON"
fi
PY="${TFSCOPE_PY:-$ROOT/.venv/bin/python}"
if ! "$PY" -c 'import tfscope' >/dev/null 2>&1; then
  echo "autograph runtime: FAILED: 'import tfscope' fails with $PY; run" \
       "'$PY -m pip install --no-build-isolation .' first" >&2
  exit 2
fi
echo "autograph runtime: running the cases under tfscope ($PY)"
"$PY" "$HERE/runtime.py" --backend tfscope --out "$OUT/runtime-tfscope.json" "$@"
"$PY" "$HERE/runtime.py" --compare "$TF_JSON" "$OUT/runtime-tfscope.json"
