#!/usr/bin/env bash
# The Python half of `make test` (after the C++ build and ctest): builds and installs the tfscope
# package into .venv, runs its pytest suite, then every conformance suite against real TF 2.21
# (the oracle's virtual environment is made on first use by conformance/oracle_env.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD="${BUILD:-build}"
.venv/bin/python -m pip install -q --disable-pip-version-check --no-build-isolation .
.venv/bin/python -m pytest -q python/tests
status=0
run() {
  echo "== $*"
  "$@" || { echo "FAILED: $*"; status=1; }
}
run conformance/run.sh --quiet
run .venv/bin/python conformance/watch_selfcheck.py   # every case's TF side under tfscope watch
[ -x conformance/autograph/run_runtime.sh ] && run conformance/autograph/run_runtime.sh
[ -x conformance/saved_model/run.sh ] && run conformance/saved_model/run.sh
[ -x conformance/tflite/run.sh ] && run conformance/tflite/run.sh "$BUILD"
exit $status
