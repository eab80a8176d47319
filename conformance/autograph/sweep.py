"""Sweeps real-world code: converts every function and method of some pure-Python modules with
TF's tf.autograph.to_code and with tfscope, and reports where they differ.

    "$(conformance/oracle_env.sh)" conformance/autograph/sweep.py [-v] [module ...]

Functions TF cannot convert at all (no source, lambdas assigned to names, ...) are skipped;
when TF raises a conversion error, tfscope must raise the same one. Uses check.py's
normalisation. Exit status 0 when everything compared matches.
"""

import argparse
import difflib
import importlib
import inspect
import os
import pathlib
import subprocess
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import check  # pylint: disable=g-import-not-at-top

DEFAULT_MODULES = [
    "textwrap", "shlex", "heapq", "bisect", "fnmatch", "posixpath", "glob", "colorsys", "base64",
    "html", "urllib.parse", "statistics", "fractions", "copy", "pprint", "difflib", "calendar",
    "string", "json.decoder", "json.encoder", "csv", "gettext", "quopri", "uu", "netrc",
    "graphlib", "dataclasses", "tokenize", "ast", "argparse", "configparser", "getopt",
    "optparse", "wave", "ipaddress", "zipfile", "tarfile", "_pydecimal",
]


def targets(module):
  for name, obj in vars(module).items():
    if inspect.isfunction(obj) and obj.__module__ == module.__name__:
      yield name, obj
    elif inspect.isclass(obj) and obj.__module__ == module.__name__:
      for mname, m in vars(obj).items():
        if inspect.isfunction(m) and m.__qualname__ == "%s.%s" % (name, mname):
          yield "%s.%s" % (name, mname), m


def main():
  ap = argparse.ArgumentParser()
  ap.add_argument("--bin", default=str(check.ROOT / "build-ag/tests/autograph/autograph_convert"))
  ap.add_argument("-v", "--verbose", action="store_true")
  ap.add_argument("modules", nargs="*")
  args = ap.parse_args()
  import tensorflow as tf  # pylint: disable=g-import-not-at-top
  total = same = 0
  for modname in args.modules or DEFAULT_MODULES:
    try:
      module = importlib.import_module(modname)
      path = inspect.getsourcefile(module)
    except Exception:  # pylint: disable=broad-except
      continue
    for qualname, fn in targets(module):
      if "<lambda>" in qualname or "." in qualname and "<locals>" in fn.__qualname__:
        continue
      if inspect.getsourcefile(fn) != path:  # e.g. namedtuple methods, generated elsewhere
        continue
      if fn.__name__ != qualname.split(".")[-1]:  # an alias (gettext.Catalog = translation)
        continue
      try:
        want = tf.autograph.to_code(fn)
      except Exception as e:  # pylint: disable=broad-except
        if type(e).__name__ not in ("ConversionError", "UnsupportedLanguageElementError"):
          continue
        want = "%s: %s\n" % (type(e).__name__, e)
        if "InaccessibleSourceCodeError" in want:  # frozen modules have no source for TF
          continue
      got = subprocess.run([args.bin, path, qualname], capture_output=True, text=True).stdout
      total += 1
      if check.normalise(got) == check.normalise(want):
        same += 1
        continue
      print("DIFFERS %s %s" % (modname, qualname))
      if args.verbose:
        sys.stdout.writelines(difflib.unified_diff(
            check.normalise(want).splitlines(True), check.normalise(got).splitlines(True),
            "tf", "tfscope", n=2))
  print("%d/%d functions match" % (same, total))
  return 0 if same == total else 1


if __name__ == "__main__":
  sys.exit(main())
