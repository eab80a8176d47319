#!/usr/bin/env bash
# SavedModel conformance against real TF 2.21: finds (or makes) the oracle venv, then runs run.py.
#   conformance/saved_model/run.sh [--tool PATH/TO/saved_model_tool]
# Exit status: run.py's (non-zero when a check fails or the oracle cannot be set up).
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
PY="$("$HERE/../oracle_env.sh")"
exec "$PY" "$HERE/run.py" "$@"
