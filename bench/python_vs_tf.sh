#!/usr/bin/env bash
# make bench's Python half: tfscope's Python API vs tf.function, one run, JSON to $1.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
OUT="${1:-$ROOT/build/bench/python_vs_tf.json}"
mkdir -p "$(dirname "$OUT")"
"$ROOT/.venv/bin/python" -m pip install -q --disable-pip-version-check --no-build-isolation "$ROOT"
ORACLE_PY="$("$ROOT/conformance/oracle_env.sh")"
"$ROOT/.venv/bin/python" "$ROOT/bench/python_vs_tf.py" "$OUT" "$ROOT/.venv/bin/python" "$ORACLE_PY"
