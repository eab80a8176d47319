#!/usr/bin/env bash
# Installs what tfscope needs to build and test, and nothing that is already there.
# Debian packages through apt-get (as root, as on the project's machines); Python packages into
# the project's virtual environment (.venv). The TensorFlow oracle has its own environment,
# made by conformance/oracle_env.sh when the conformance suite first needs it.
set -euo pipefail
cd "$(dirname "$0")/.."

debs=(cmake ninja-build g++ ccache libeigen3-dev libgtest-dev libgmock-dev libbenchmark-dev
      protobuf-compiler libprotobuf-dev flatbuffers-compiler libflatbuffers-dev
      nlohmann-json3-dev libcli11-dev python3-venv
      libre2-dev libfarmhash-dev  # the string ops' regex engine and fingerprint hash, as TF's
      chromium)  # headless, for the watch HTML report's test
missing=()
for p in "${debs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "install-deps: apt-get install ${missing[*]}"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi

py=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$py" -m venv .venv
fi
# tensorboard: its event-file loader reads the files tf.summary writes (the summary tests).
want=(numpy pytest nanobind scikit-build-core jsonschema tensorboard)
need=()
for m in "${want[@]}"; do
  .venv/bin/python -m pip show -q "$m" >/dev/null 2>&1 || need+=("$m")
done
if [ ${#need[@]} -gt 0 ]; then
  echo "install-deps: pip install ${need[*]}"
  .venv/bin/python -m pip install -q --disable-pip-version-check "${need[@]}"
fi
