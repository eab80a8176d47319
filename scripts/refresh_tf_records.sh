#!/usr/bin/env bash
# After an op is registered (or a conformance case added): re-records, under TF 2.21, everything
# the project keeps of TF's own answers, so that a new op is its src/ops file, its Python wrapper
# and this one command:
#   src/ops/tf_op_defs.inc        (scripts/gen_tf_op_defs.py: TF's OpDefs of the registered ops)
#   python/tests/tf_raw_ops.json  (scripts/record_tf_raw_ops.py: tf.raw_ops signatures)
#   conformance/expected_tf.json  (conformance/run.sh --tf-only --update-expected)
# Needs the project's .venv with tfscope importable (make python-install, or PYTHONPATH=python
# with the built module) and the oracle environment (conformance/oracle_env.sh installs it).
# Then rebuild: tf_op_defs.inc is compiled in.
set -euo pipefail
cd "$(dirname "$0")/.."
oracle=$(conformance/oracle_env.sh)
ops=$(mktemp)
trap 'rm -f "$ops"' EXIT
.venv/bin/python -c "import json, sys; from tfscope import _core; json.dump(sorted(_core.registered_ops()), open(sys.argv[1], 'w'))" "$ops"
"$oracle" scripts/gen_tf_op_defs.py "$ops"
.venv/bin/python scripts/record_tf_raw_ops.py
conformance/run.sh --tf-only --update-expected --quiet
