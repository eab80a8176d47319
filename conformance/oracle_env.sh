#!/usr/bin/env bash
# Makes (once) and reuses the oracle virtual environment: real TensorFlow 2.21 + LiteRT + numpy,
# and TensorBoard 2.21 (TF 2.21's tf.summary.scalar/histogram/text are TensorBoard's code).
# Prints the path of its python on stdout (everything else goes to stderr).
#   TFSCOPE_ORACLE_VENV   where the venv lives (default: $HOME/.cache/tfscope/oracle-venv)
#   TFSCOPE_PYTHON        the python used to create it (default: python3)
set -euo pipefail
VENV="${TFSCOPE_ORACLE_VENV:-$HOME/.cache/tfscope/oracle-venv}"
TF_VERSION="2.21.0"
TB_VERSION="2.21.0"
PY="$VENV/bin/python"

ready() {
  [ -x "$PY" ] && "$PY" - "$TF_VERSION" >/dev/null 2>&1 <<'PYEOF'
import sys, importlib.metadata as md
want = sys.argv[1]
assert md.version("tensorflow-cpu") == want or md.version("tensorflow") == want
md.version("ai-edge-litert"); md.version("tensorboard"); import numpy
PYEOF
}

if ready; then
  echo "$PY"
  exit 0
fi

echo "oracle_env: creating $VENV (tensorflow-cpu==$TF_VERSION, tensorboard==$TB_VERSION, ai-edge-litert, numpy); this takes a few minutes" >&2
mkdir -p "$(dirname "$VENV")"
if [ ! -x "$PY" ]; then
  "${TFSCOPE_PYTHON:-python3}" -m venv "$VENV" >&2 || {
    echo "oracle_env: 'python3 -m venv' failed; on Debian/Ubuntu install python3-venv" >&2; exit 1; }
fi
"$PY" -m pip install --quiet --upgrade pip >&2
"$PY" -m pip install --quiet "tensorflow-cpu==$TF_VERSION" "tensorboard==$TB_VERSION" ai-edge-litert numpy >&2
if ! ready; then
  echo "oracle_env: $VENV was set up but tensorflow-cpu==$TF_VERSION / ai-edge-litert do not import" >&2
  exit 1
fi
echo "$PY"
