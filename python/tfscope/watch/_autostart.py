"""TFSCOPE_WATCH=1 python script.py: the installed tfscope_watch.pth imports this module when the
variable is set (and nothing when it is not). Options from the environment:
TFSCOPE_WATCH_JSON=FILE (the JSON report), TFSCOPE_WATCH_HTML=FILE, TFSCOPE_WATCH_CHROME_TRACE=FILE,
TFSCOPE_MAX_TRACES=N, TFSCOPE_FAIL_ON_RETRACE=1, TFSCOPE_WATCH_SELF_CHECK=0 (no self-check),
TFSCOPE_WATCH_CASES=DIR (where self-check disagreements go as conformance cases),
TFSCOPE_WATCH_QUIET=1 (no text summary at exit)."""
import atexit
import os
import sys

from . import Watch

_watch = None


def _finish():
    w = _watch
    if w is None:
        return
    w.stop()
    from ._cli import CASES_DIR, finish
    env = os.environ.get
    finish(w, env("TFSCOPE_WATCH_JSON"), env("TFSCOPE_WATCH_HTML"),
           env("TFSCOPE_WATCH_CHROME_TRACE"), env("TFSCOPE_WATCH_CASES", CASES_DIR),
           env("TFSCOPE_WATCH_QUIET", "") not in ("", "0"))


def cancel():
    """Stops the environment's watch without a report (python -m tfscope watch takes over)."""
    global _watch
    if _watch is not None:
        _watch.stop()
        _watch = None
    atexit.unregister(_finish)


def _start():
    global _watch
    if os.environ.get("TFSCOPE_WATCH", "") in ("", "0"):
        return
    try:
        w = Watch(fail_on_retrace=os.environ.get("TFSCOPE_FAIL_ON_RETRACE", "") not in ("", "0"),
                  self_check=os.environ.get("TFSCOPE_WATCH_SELF_CHECK", "") != "0")
    except ValueError as e:
        sys.stderr.write("tfscope watch: %s (watch is off)\n" % e)
        return
    _watch = w.start()
    atexit.register(_finish)


_start()
