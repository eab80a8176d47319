#!/usr/bin/env bash
# SavedModel conformance against real TF 2.21: finds (or makes) the oracle venv, then runs run.py.
#   conformance/saved_model/run.sh [--tool PATH/TO/saved_model_tool]
# Exit status: non-zero when a check of run.py or objects.py fails or the oracle cannot be set up.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
PY="$("$HERE/../oracle_env.sh")"
status=0
"$PY" "$HERE/run.py" "$@" || status=$?
# SavedModel objects both ways (needs the tfscope package: TFSCOPE_PYTHON or the worktree's .venv).
"$PY" "$HERE/objects.py" || status=$?
exit $status
