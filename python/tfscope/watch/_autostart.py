"""TFSCOPE_WATCH=1 python script.py: the installed tfscope_watch.pth imports this module when the
variable is set (and nothing when it is not). Options from the environment:
TFSCOPE_WATCH_JSON=FILE (the JSON report), TFSCOPE_WATCH_CHROME_TRACE=FILE,
TFSCOPE_MAX_TRACES=N, TFSCOPE_FAIL_ON_RETRACE=1,
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
    path = os.environ.get("TFSCOPE_WATCH_JSON")
    if path:
        w.write_json(path)
    path = os.environ.get("TFSCOPE_WATCH_CHROME_TRACE")
    if path:
        w.write_chrome_trace(path)
    if os.environ.get("TFSCOPE_WATCH_QUIET", "") in ("", "0"):
        sys.stdout.flush()
        sys.stderr.write(w.summary())
        sys.stderr.flush()


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
        w = Watch(fail_on_retrace=os.environ.get("TFSCOPE_FAIL_ON_RETRACE", "") not in ("", "0"))
    except ValueError as e:
        sys.stderr.write("tfscope watch: %s (watch is off)\n" % e)
        return
    _watch = w.start()
    atexit.register(_finish)


_start()
