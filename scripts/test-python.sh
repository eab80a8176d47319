#!/usr/bin/env bash
# Builds and installs the Python package into .venv, runs its tests and the conformance suite.
set -euo pipefail
cd "$(dirname "$0")/.."
.venv/bin/python -m pip install -q --disable-pip-version-check --no-build-isolation . 
.venv/bin/python -m pytest -q python/tests
conformance/run.sh --quiet
