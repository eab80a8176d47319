"""Compares tfscope's AutoGraph conversion with TensorFlow's recorded (or live) output.

    python3 conformance/autograph/check.py [--bin build-ag/tests/autograph/autograph_convert]
        [--live] [-v] [NAME ...]

Without --live the reference is expected/<name>.py (or .error), recorded by gen_expected.py.
With --live (needs the oracle interpreter, /work/oracle-venv/bin/python or $TF_PYTHON), TF is
run now on every corpus function instead. Both sides are normalised the same way (see
NOTES.md): within each `nonlocal`/`global` line the names are sorted, each run of consecutive
`x = ag__.Undefined('x')` lines at one indentation is sorted, and `0x...` addresses in error
messages become `0x0`. Exit status 0 when every function matches.
"""

import argparse
import difflib
import os
import pathlib
import re
import subprocess
import sys

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parent.parent
UNDEFINED = re.compile(r"^(\s*)(\w+) = ag__\.Undefined\('\w+'\)$")
DECL = re.compile(r"^(\s*)(nonlocal|global) (.*)$")


def normalise(text):
  text = re.sub(r"0x[0-9a-fA-F]+", "0x0", text)
  lines = text.split("\n")
  out, run = [], []

  def flush():
    out.extend(sorted(run))
    run.clear()

  for line in lines:
    m = DECL.match(line)
    if m:
      line = "%s%s %s" % (m.group(1), m.group(2), ", ".join(sorted(m.group(3).split(", "))))
    m = UNDEFINED.match(line)
    if m and (not run or UNDEFINED.match(run[0]).group(1) == m.group(1)):
      run.append(line)
      continue
    flush()
    if m:
      run.append(line)
      continue
    out.append(line)
  flush()
  return "\n".join(out)


def target(name):
  """The function a corpus file asks for: CORPUS_TARGET = "Class.method", else its name."""
  m = re.search(r'^CORPUS_TARGET = "([\w.]+)"$', (HERE / "corpus" / (name + ".py")).read_text(),
                re.M)
  return m.group(1) if m else name


def expected(names, live):
  if live:
    sys.path.insert(0, str(HERE))
    import gen_expected  # pylint: disable=g-import-not-at-top
    paths = [HERE / "corpus" / (n + ".py") for n in names]
    return {n: text for n, (kind, text) in gen_expected.convert_all(paths).items()}
  out = {}
  for n in names:
    for ext in ("py", "error"):
      p = HERE / "expected" / ("%s.%s" % (n, ext))
      if p.exists():
        out[n] = p.read_text()
  return out


def main():
  ap = argparse.ArgumentParser()
  ap.add_argument("--bin", default=str(ROOT / "build-ag/tests/autograph/autograph_convert"))
  ap.add_argument("--live", action="store_true")
  ap.add_argument("-v", "--verbose", action="store_true")
  ap.add_argument("names", nargs="*")
  args = ap.parse_args()
  if args.live and "tensorflow" not in sys.modules:
    try:
      import tensorflow  # pylint: disable=g-import-not-at-top,unused-import
    except ImportError:
      py = os.environ.get("TF_PYTHON", "/work/oracle-venv/bin/python")
      os.execv(py, [py] + sys.argv)
  names = args.names or sorted(p.stem for p in (HERE / "corpus").glob("*.py"))
  want = expected(names, args.live)
  passed = 0
  for n in names:
    got = subprocess.run([args.bin, str(HERE / "corpus" / (n + ".py")), target(n)],
                         capture_output=True, text=True).stdout
    ok = n in want and normalise(got) == normalise(want[n])
    passed += ok
    print("%-24s %s" % (n, "ok" if ok else "DIFFERS"))
    if not ok and args.verbose:
      sys.stdout.writelines(difflib.unified_diff(
          normalise(want.get(n, "")).splitlines(True), normalise(got).splitlines(True),
          "tf/" + n, "tfscope/" + n))
      print()
  print("%d/%d match" % (passed, len(names)))
  return 0 if passed == len(names) else 1


if __name__ == "__main__":
  sys.exit(main())
