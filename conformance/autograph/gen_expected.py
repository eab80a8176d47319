"""Records TensorFlow's `tf.autograph.to_code` output for every corpus function.

Run with the oracle interpreter (real TensorFlow 2.21):
    /work/oracle-venv/bin/python conformance/autograph/gen_expected.py

For corpus/<name>.py, the function named <name> is converted (or the one a module-level
`CORPUS_TARGET = "Class.method"` names). The result goes to
expected/<name>.py; when TF rejects the function, expected/<name>.error holds one line
`<ExceptionType>: <message>`. All functions are converted in one process (importing TF is slow).
"""

import importlib.util
import os
import pathlib
import sys

HERE = pathlib.Path(__file__).resolve().parent


def load_function(path):
  spec = importlib.util.spec_from_file_location("corpus_" + path.stem, path)
  module = importlib.util.module_from_spec(spec)
  spec.loader.exec_module(module)
  obj = module
  for part in getattr(module, "CORPUS_TARGET", path.stem).split("."):
    obj = getattr(obj, part)
  return obj


def convert_all(paths):
  """Returns {name: (kind, text)} with kind 'py' or 'error'."""
  os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
  import tensorflow as tf  # pylint: disable=g-import-not-at-top
  results = {}
  for path in paths:
    fn = load_function(path)
    try:
      results[path.stem] = ("py", tf.autograph.to_code(fn))
    except Exception as e:  # pylint: disable=broad-except
      results[path.stem] = ("error", "%s: %s\n" % (type(e).__name__, e))
  return results


def main(argv):
  names = set(argv[1:])
  paths = sorted(p for p in (HERE / "corpus").glob("*.py") if not names or p.stem in names)
  out = HERE / "expected"
  out.mkdir(exist_ok=True)
  for name, (kind, text) in convert_all(paths).items():
    for stale in out.glob(name + ".*"):
      stale.unlink()
    (out / (name + "." + kind)).write_text(text)
    print("%-24s %s" % (name, kind))


if __name__ == "__main__":
  main(sys.argv)
