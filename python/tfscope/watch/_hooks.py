"""The seams in TF 2.21's tf.function where watch listens (TF's own Python, patched in place).

- polymorphic_function.Function.__init__: a Function object is made (its creation site).
- polymorphic_function.Function.__call__: a call; TF's trace count before and after says hit or
  trace, as TF's own retracing warning decides it.
- polymorphic_function.Function.get_concrete_function: traces outside a call, which the
  self-check's twin must see too (see _selfcheck); and _get_concrete_function_garbage_collected,
  the private form TF's own code also calls directly (tf.saved_model.save traces a tf.function
  given as `signatures=` so), checked only when no get_concrete_function of this thread is in
  flight (the public one runs through it).
- tracing_compilation._create_concrete_function: TF traces (after a cache miss); its
  TracingOptions name the Function's cache, its scope and whether reduce_retracing generalized;
  its caller's frame holds the FunctionType TF looked the call up by (lookup_func_type).

A call runs through C++ (Function.__call__ becomes _core._watch_call_object(), a method
descriptor of python/src/watch_bindings.cc): a hit's bookkeeping, its call site and the
self-check's hit memo are done there, with no Python of the watch's own and no frame added to the
program's stack; a call that traced or raised is finished by `finish` below, one the memo cannot
answer by _check. The call in flight that a trace belongs to is the innermost of this thread's watched
calls (_core._watch_call_in_flight).

TensorFlow is imported only when it is already imported or when the watched program imports it:
before that, a finder on sys.meta_path waits for TF's polymorphic_function module.
"""
import importlib.abc
import logging
import os
import sys
import threading
import time
import weakref

from . import _selfcheck
from . import _session

_PF = "tensorflow.python.eager.polymorphic_function.polymorphic_function"

_state = {"session": None, "patched": None, "finder": None}

# The handlers on the `tensorflow` logger before TF is imported are tfscope's own (tfscope/__init__
# gives the logger TF's default handler): TF adds the same one at its first log, so a program that
# imports tfscope first (python -m tfscope watch, TFSCOPE_WATCH=1) would print TF's warnings twice.
_early_handlers = ([] if "tensorflow" in sys.modules else
                   list(logging.getLogger("tensorflow").handlers))


def _one_log_handler():
    """Leaves the `tensorflow` logger's default handler to TF, as without tfscope: tfscope's is
    dropped when TF has added its own, or before TF adds it."""
    from tensorflow.python.platform import tf_logging

    def default(h):
        return (isinstance(h, logging.StreamHandler) and
                getattr(h.formatter, "_fmt", None) == logging.BASIC_FORMAT)

    logger = logging.getLogger("tensorflow")
    tf_set_up = getattr(tf_logging, "_logger", None) is not None
    theirs = [h for h in logger.handlers if default(h) and h not in _early_handlers]
    if not tf_set_up or theirs:
        for h in _early_handlers:
            if h in logger.handlers and default(h):
                logger.removeHandler(h)
    del _early_handlers[:]


def current():
    return _state["session"]


def _in_effect(session):
    """The session calls are watched by, here and in the C++ call path's copy."""
    _state["session"] = session
    from tfscope import _core
    _core._watch_session(session, session.t0 if session else 0.0,
                         bool(session and session.self_check), bool(session and session.active))


def install(session):
    _in_effect(session)
    if _PF in sys.modules:
        _patch()
    elif _state["finder"] is None:
        finder = _Finder()
        _state["finder"] = finder
        sys.meta_path.insert(0, finder)


def uninstall():
    _in_effect(None)
    finder = _state["finder"]
    if finder is not None:
        try:
            sys.meta_path.remove(finder)
        except ValueError:
            pass
        _state["finder"] = None
    patched = _state["patched"]
    if patched is not None:
        for owner, name, original in patched:
            setattr(owner, name, original)
        _state["patched"] = None


class _Finder(importlib.abc.MetaPathFinder):
    """Patches TF right after its polymorphic_function module has run."""

    def find_spec(self, name, path, target=None):
        if name != _PF:
            return None
        for finder in sys.meta_path:
            if finder is self or not hasattr(finder, "find_spec"):
                continue
            spec = finder.find_spec(name, path, target)
            if spec is not None:
                break
        else:
            return None
        loader = spec.loader
        exec_module = loader.exec_module

        def exec_then_patch(module):
            exec_module(module)
            if _state["session"] is not None:
                _patch()

        loader.exec_module = exec_then_patch
        return spec


def _patch():
    if _state["patched"] is not None:
        return
    _one_log_handler()
    from tensorflow.python.eager.polymorphic_function import polymorphic_function as pf
    from tensorflow.python.eager.polymorphic_function import tracing_compilation as tc
    from tensorflow.python.eager.polymorphic_function import function_context

    Function = pf.Function
    orig_init = Function.__init__
    orig_call = Function.__call__
    orig_gcf = Function.get_concrete_function
    orig_gcf_gc = Function._get_concrete_function_garbage_collected
    orig_create = tc._create_concrete_function
    # get_concrete_function runs through _get_concrete_function_garbage_collected, which TF's
    # own code also calls directly (tf.saved_model.save's signatures= with a tf.function): each
    # thread's depth of the public call, so the private one is checked only when called alone
    in_public_gcf = threading.local()
    # id(FunctionCache) -> weakref to its Function, for traces naming only the cache; kept across
    # a stop and start of the same watch (its Functions are not registered again)
    caches = _state.setdefault("caches", {})
    perf = time.perf_counter
    get_ident = threading.get_ident
    from tfscope import _core
    _session.setup_fast_site()
    site_of = _core._watch_user_site
    timeline_cap = _session.TIMELINE_CAP

    def __init__(self, *args, **kwargs):
        orig_init(self, *args, **kwargs)
        s = _state["session"]
        if s is not None and s.active:
            s.record_of(self, site_of(1))
            caches[id(self._function_cache)] = weakref.ref(self)

    def registered(s, fn):
        """The record of a Function object's first call under this watch."""
        rec, _ = s.record_of(fn)
        caches[id(fn._function_cache)] = weakref.ref(fn)
        return rec

    def finish(s, fn, rec, frame, args, kwds, ok, t0, dt, tid):
        """The bookkeeping of a call that traced or raised (a hit's is the C++ call path's)."""
        traced = frame[3]
        rec.call_seconds += dt
        if traced:
            rec.traced_calls += 1
            rec.call_trace_seconds += frame[4]
            rec.tf_counts[fn.__dict__["_tfscope_watch"][2]] = len(fn._function_cache)
        elif not ok:
            rec.failed_calls += 1
        if len(rec.timeline) < timeline_cap:
            rec.timeline.append((t0 - s.t0, dt, traced, frame[2], tid, not ok))
        if s.self_check and not frame[5]:
            _check(s, fn, rec, "call", args, kwds, traced, frame[1], frame[2], ok)

    def get_concrete_function(self, *args, **kwargs):
        s = _state["session"]
        if s is None or not s.active or not s.self_check:
            return orig_gcf(self, *args, **kwargs)
        in_public_gcf.depth = getattr(in_public_gcf, "depth", 0) + 1
        try:
            return _checked_gcf(s, self, orig_gcf, args, kwargs)
        finally:
            in_public_gcf.depth -= 1

    def _get_concrete_function_garbage_collected(self, *args, **kwargs):
        s = _state["session"]
        if (s is None or not s.active or not s.self_check or
                getattr(in_public_gcf, "depth", 0)):
            return orig_gcf_gc(self, *args, **kwargs)
        return _checked_gcf(s, self, orig_gcf_gc, args, kwargs)

    def _checked_gcf(s, self, orig, args, kwargs):
        rec, _ = s.record_of(self)
        caches[id(self._function_cache)] = weakref.ref(self)
        before = len(self._function_cache)
        failed = len(rec.failed) + len(rec.refused)
        ok = False
        try:
            concrete = orig(self, *args, **kwargs)
            ok = True
            return concrete
        finally:
            if failed == len(rec.failed) + len(rec.refused):
                _check(s, self, rec, "concrete", args, kwargs, len(self._function_cache) - before,
                       0, site_of(1), ok)

    def _create_concrete_function(function_type, type_context, func_graph, tracing_options):
        s = _state["session"]
        cache = tracing_options.function_cache
        ref = caches.get(id(cache)) if cache is not None else None
        fn = ref() if ref is not None else None
        if s is None or not s.active or fn is None or fn._function_cache is not cache:
            return orig_create(function_type, type_context, func_graph, tracing_options)
        # the type TF looked the call up by, before reduce_retracing generalized it
        lookup = sys._getframe(1).f_locals.get("lookup_func_type") or function_type
        scope = tracing_options.scope_type
        context = function_context.make_function_context(scope)
        trace = s.begin_trace(fn, lookup, context, scope, tracing_options.name)
        rss0 = _session._rss()
        t0 = perf()
        trace.start = t0 - s.t0
        trace.tid = threading.get_ident()
        try:
            concrete = orig_create(function_type, type_context, func_graph, tracing_options)
        except BaseException as e:
            s.fail_trace(trace, perf() - t0, e)
            raise
        s.end_trace(trace, perf() - t0, _session._rss() - rss0, concrete)
        return concrete

    # The wrappers' frames are filed under TF's own directory, so TF's stack filters drop them as
    # they drop TF's frames: error texts ("defined at" stacks) and tracebacks stay as without watch.
    tf_file = os.path.join(os.path.dirname(pf.__file__), "tfscope_watch_hooks.py")
    _core._watch_call_setup(orig_call, registered, finish, _check, vars(_selfcheck),
                            timeline_cap, _selfcheck.CALLS_KEPT)
    __call__ = _core._watch_call_object()  # a C++ method descriptor: a call adds no Python frame
    for f in (__init__, get_concrete_function, _get_concrete_function_garbage_collected,
              _checked_gcf, _create_concrete_function):
        f.__code__ = f.__code__.replace(co_filename=tf_file)
    Function.__init__ = __init__
    Function.__call__ = __call__
    Function.get_concrete_function = get_concrete_function
    Function._get_concrete_function_garbage_collected = _get_concrete_function_garbage_collected
    tc._create_concrete_function = _create_concrete_function
    _state["patched"] = [(Function, "__init__", orig_init), (Function, "__call__", orig_call),
                         (Function, "get_concrete_function", orig_gcf),
                         (Function, "_get_concrete_function_garbage_collected", orig_gcf_gc),
                         (tc, "_create_concrete_function", orig_create)]


def _check(session, fn, rec, kind, args, kwargs, tf_traces, call, site, ok):
    """The self-check of one call; its own failure is a not-modelled reason, never the program's."""
    try:
        idx = fn.__dict__["_tfscope_watch"][2]
        _selfcheck.observe(session, fn, rec, idx, kind, args, kwargs, tf_traces, call, site, ok)
    except Exception as e:  # noqa: BLE001
        led = rec.selfcheck
        if led is not None:
            why = "self-check error: %s: %s" % (type(e).__name__, e)
            led.not_modelled[why] = led.not_modelled.get(why, 0) + 1
