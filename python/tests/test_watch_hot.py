"""The counters the C++ call path writes on every watched call (_core._WatchHot) and the Python
records that read them: a FunctionRecord's calls and call_seconds, a twin's thread and memo_hits,
and a session's active flag as the call path sees it. Runs without TF."""
import threading

import pytest

from tfscope import _core
from tfscope.watch import _selfcheck, _session


def test_hot_fields_start_at_zero_and_take_only_numbers():
    hot = _core._WatchHot()
    assert (hot.calls, hot.seconds, hot.memo_hits, hot.thread) == (0, 0.0, 0, 0)
    hot.calls, hot.seconds, hot.memo_hits = 3, 0.25, 2
    hot.thread = threading.get_ident()
    assert (hot.calls, hot.seconds, hot.memo_hits) == (3, 0.25, 2)
    assert hot.thread == threading.get_ident()
    with pytest.raises(TypeError):
        hot.calls = "3"
    with pytest.raises(TypeError):
        hot.seconds = None
    with pytest.raises(AttributeError):
        hot.other = 1  # no instance dict: the fields are the whole object


def test_record_reads_its_counts_from_its_hot_fields():
    rec = _session.FunctionRecord("k", "f", "x.py:1", "user")
    assert (rec.calls, rec.call_seconds) == (0, 0.0)
    rec.hot.calls = 5  # as the C++ call path counts a call
    rec.call_seconds += 0.5  # as _hooks.finish adds a traced call's time
    assert (rec.calls, rec.hot.seconds) == (5, 0.5)
    assert rec.to_json()["calls"] == 5 and rec.to_json()["hits"] == 5


def test_twin_keeps_its_thread_and_memo_hits_in_hot_fields():
    twin = _selfcheck.Twin.__new__(_selfcheck.Twin)  # the fields only, no tfscope function
    twin.hot = _core._WatchHot()
    twin.hot.thread = threading.get_ident()
    twin.memo_hits = 4
    assert twin.hot.memo_hits == 4 and twin.thread == threading.get_ident()


def test_the_call_path_watches_only_while_the_session_in_effect_is_active():
    from tfscope.watch import _hooks
    if _hooks._state["patched"] is not None:
        pytest.skip("TF's Function is patched in this process: the call path is in use")
    forwarded = []

    def orig_call(fn, *args):
        forwarded.append(args)
        return "result"

    def registered(session, fn):
        raise LookupError("registered")  # the watch's first sight of the Function

    def not_reached(*args):
        raise AssertionError("a call that is not watched reached the watch's bookkeeping")

    _core._watch_call_setup(orig_call, registered, not_reached, not_reached, {}, 10, 10)

    class Function:
        __call__ = _core._watch_call_object()

    a, b, f = _session.Session(), _session.Session(), Function()
    try:
        _core._watch_session(a, a.t0, a.self_check, True)
        b.active = False  # not the session in effect: a still watches
        with pytest.raises(LookupError):
            f(1)
        a.active = False
        assert f(2) == "result" and forwarded == [(2,)]  # TF's call alone
        a.active = True
        with pytest.raises(LookupError):
            f(3)
        _core._watch_session(None, 0.0, False, False)
        assert f(4) == "result" and forwarded == [(2,), (4,)]
    finally:
        _core._watch_session(None, 0.0, False, False)
