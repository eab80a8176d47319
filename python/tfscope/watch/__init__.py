"""tfscope.watch: explains every trace of a real TensorFlow program's tf.functions.

    with tfscope.watch() as w:          # or tfscope.watch.start() ... tfscope.watch.stop()
        run_the_model()
    print(w.summary())

    python -m tfscope watch script.py [args]      # text summary at exit, --json FILE
    TFSCOPE_WATCH=1 python script.py              # the same through the installed .pth hook

Each call of a real tf.function is a hit or a trace (TF's own trace count decides); each trace
carries its reason, as the difference of TF's trace key from the closest earlier trace of the same
function, the call site in the user's code, and a fix hint. TensorFlow is not a dependency: watch
patches the user's own TF when the program imports it. A budget (max_traces, TFSCOPE_MAX_TRACES,
fail_on_retrace) makes the trace past it raise RetraceError naming its reason. The self-check
(on unless self_check=False) has tfscope's own tracing rules predict every call, and reports each
call where TF's trace count differs (write_cases turns them into conformance cases).
"""
import os
import sys
import types

from . import _hooks
from . import _report
from . import _selfcheck
from ._session import RetraceError, Session

__all__ = ["start", "stop", "active", "Watch", "RetraceError"]


def _env_max_traces():
    v = os.environ.get("TFSCOPE_MAX_TRACES")
    if not v:
        return None
    try:
        n = int(v)
    except ValueError:
        raise ValueError("TFSCOPE_MAX_TRACES must be a whole number of traces, not %r" % v)
    if n < 1:
        raise ValueError("TFSCOPE_MAX_TRACES must be at least 1, not %d" % n)
    return n


class Watch:
    """One watch session: a context manager, and the report of what it saw."""

    def __init__(self, max_traces=None, fail_on_retrace=False, budget_source=None,
                 self_check=True):
        """max_traces: per Python function, the trace past it raises RetraceError (default:
        $TFSCOPE_MAX_TRACES); fail_on_retrace: any trace after a function's first call raises
        (a first call's two traces when it creates variables count as one); self_check:
        tfscope's rules predict each call and the report names where TF disagrees."""
        if max_traces is None:
            max_traces = _env_max_traces()
            if max_traces is not None:
                budget_source = "TFSCOPE_MAX_TRACES=%d" % max_traces
        elif not isinstance(max_traces, int) or max_traces < 1:
            raise ValueError("max_traces must be a whole number >= 1, not %r" % (max_traces,))
        self.session = Session(max_traces=max_traces, fail_on_retrace=bool(fail_on_retrace),
                               budget_source=budget_source, self_check=bool(self_check))

    def start(self):
        if _hooks.current() is not None and _hooks.current() is not self.session:
            raise RuntimeError("tfscope watch: another watch is already running")
        self.session.active = True
        if self.session.self_check:
            _selfcheck.enable()
        _hooks.install(self.session)
        return self

    def stop(self, release=True):
        """Stops watching; release=False keeps the self-check's tfscope twins for a later
        start() of this Watch (they are released at exit at the latest)."""
        self.session.active = False
        if _hooks.current() is self.session:
            _hooks.uninstall()
            _selfcheck.disable()
            if release:
                _selfcheck.release(self.session)
        return self

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()
        return False

    # the report
    @property
    def functions(self):
        """FunctionRecords: name, calls, traced_calls, traces (TraceRecords), trace_seconds..."""
        return self.session.functions()

    def function(self, name):
        """The record of the tf.function whose Python function is `name` (qualified or not)."""
        for r in self.session.functions():
            if r.name == name or r.name.rsplit(".", 1)[-1] == name:
                return r
        raise KeyError("tfscope watch saw no tf.function named %r" % name)

    def summary(self):
        return _report.summary(self.session)

    def to_dict(self):
        return _report.to_dict(self.session)

    def write_json(self, path):
        _report.write_json(self.session, path)

    def self_check(self):
        """(compared, agreed, not modelled, disagreements) over every function."""
        return _report.self_check_totals(self.session)

    def write_cases(self, folder):
        """Writes each self-check disagreement as a conformance case in `folder`; the paths."""
        return _selfcheck.write_cases(self.session, folder)

    def write_html(self, path):
        """One self-contained page: per function its calls' timeline and its graphs drawn."""
        from . import _html
        _html.write(self.session, path)

    def write_chrome_trace(self, path):
        """Calls and traces as spans, for Perfetto or chrome://tracing."""
        _report.write_chrome_trace(self.session, path)


_current = None


def start(max_traces=None, fail_on_retrace=False, self_check=True):
    """Starts watching (one watch at a time) and returns the Watch."""
    global _current
    if _current is not None:
        raise RuntimeError("tfscope watch: already started (call tfscope.watch.stop() first)")
    _current = Watch(max_traces=max_traces, fail_on_retrace=fail_on_retrace,
                     self_check=self_check).start()
    return _current


def stop():
    """Stops the watch that start() began and returns it (None if none was running)."""
    global _current
    w, _current = _current, None
    if w is not None:
        w.stop()
    return w


def active():
    """The Watch start() began, or None."""
    return _current


class _CallableModule(types.ModuleType):
    def __call__(self, max_traces=None, fail_on_retrace=False, self_check=True):
        return Watch(max_traces=max_traces, fail_on_retrace=fail_on_retrace,
                     self_check=self_check)


sys.modules[__name__].__class__ = _CallableModule
