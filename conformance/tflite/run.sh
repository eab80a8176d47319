#!/usr/bin/env bash
# tfscope's TFLite export against real TF 2.21 and LiteRT (see run.py).
#   conformance/tflite/run.sh [BUILD_DIR]      BUILD_DIR defaults to ./build; needs lite_tool built
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
BUILD="${1:-$ROOT/build}"
TOOL="$BUILD/tests/lite/lite_tool"
if [ ! -x "$TOOL" ]; then
  echo "conformance/tflite: $TOOL not built (cmake --build $BUILD --target lite_tool)" >&2
  exit 1
fi
PY="$("$ROOT/conformance/oracle_env.sh")"
exec "$PY" "$HERE/run.py" "$TOOL"
