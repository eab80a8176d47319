"""Fidelity self-check: tfscope's own tracing rules predict every observed call of a real
tf.function, and the report says where TF's trace count disagrees.

Each real Function object gets a twin: a tfscope Function with the same parameters (names, kinds,
defaults), input_signature and reduce_retracing, and a body that does nothing but create one
variable on its first trace when TF's body created variables on its first call (the only fact of
the body TF's tracing rules read). After each call of the real Function, the twin is given the
same arguments, mapped to tfscope values (a TF tensor becomes a tfscope TensorSpec of its shape and
dtype, a TF variable a tfscope variable of the same shape, dtype and trainability, Python values
and other objects themselves, a RaggedTensor or tf.RaggedTensorSpec a tfscope RaggedTensorSpec of
its shape, dtype and row_splits_dtype), through get_concrete_function (a call made inside
tf.saved_model.save is asked inside tfscope's save context, whose traces are keyed apart as
TF's); the twin's trace count before and after is tfscope's prediction. Calls the twin cannot
take (a TF value tfscope has no type for, a call in TF1 graph mode or in a graph inside the save,
a Function traced before the watch started) are counted as not modelled,
with the reason. A disagreement is kept with the calls that led to it, and can be written as a
conformance case (write_cases).

The hot path (a hit in TF): once the twin has taken a call, a later call of the same Function
object from the same thread whose arguments are equal in everything tfscope's tracing rules read
(tensors by dtype and shape, Python numbers, strings, None and bools by type and value, tuples,
lists and string-keyed dicts of those) is answered from a memo (HIT_MEMO_KEPT keys per object):
the call is recorded, and off the hot path (when the report is made, and before the twin is
released) the twin is asked about one repeat of each memoized call that was repeated. Where
tfscope would trace or raise there, the first repeat is a disagreement like any other (the twin's
cache only grows: it has no max_cache_entries, and its context is the same eager one, so one
repeat answers for all of them). Every call TF traced, raised on or ran eagerly, or whose
arguments hold anything else (variables, objects, composites, NaN), is predicted by the twin
itself when it is made. A hit whose first argument is of a type the twin found not modelled by
its type alone (Keras's step functions take their iterator, every step) is counted as not
modelled with that reason again, without mapping the arguments.

A Function object made again and again (tf.data makes its map functions anew at every Keras
`fit` epoch, traced through get_concrete_function) does not cost a twin trace each: the first
twin of a kind (parameters, defaults, input_signature, reduce_retracing, name) traces, and a
later fresh twin of the kind takes the first answer for an equal first call from it
(FreshTwins); it is made, and its first call replayed, only when it is asked anything more.
"""
import atexit
import inspect
import os
import threading
import types
import weakref

from tfscope import _core

CALLS_KEPT = 2000  # argument lists kept per Function object, for the conformance case
HIT_MEMO_KEPT = 4096  # argument keys per Function object whose repeat is a hit for tfscope

_state = {"tf": None, "quiet": threading.local(), "sink": None}
# TF's class, modules and functions the hit memo (python/src/watch_bindings.cc) reads, set by _tf()
_EagerTensor = _eager_run = _in_save = _eager = _eager_outside = None
_context_module = _save_state = None
_call_key = None  # _core._watch_call_key, set by _tf()


_specs = {}  # (TF dtype, shape tuple) -> the tfscope TensorSpec of a tensor argument


class NotModelled(Exception):
    """A call the twin cannot take; its text is the reason."""


class NotModelledType(NotModelled):
    """An argument not modelled for its type alone (a composite, an attrs class...)."""


def _tf():
    """TF's classes the mapping tests against, loaded once (TF is imported: watch patched it)."""
    t = _state["tf"]
    if t is None:
        from tensorflow.python.eager import context
        from tensorflow.python.eager.polymorphic_function import polymorphic_function as pf
        from tensorflow.python.framework import composite_tensor, ops, tensor, tensor_spec
        from tensorflow.python.ops import resource_variable_ops
        from tensorflow.python.saved_model import save_context
        t = _state["tf"] = {
            "Tensor": tensor.Tensor, "TensorSpec": tensor_spec.TensorSpec,
            "Variable": resource_variable_ops.BaseResourceVariable,
            "Composite": composite_tensor.CompositeTensor, "Function": pf.Function,
            "eager": context.executing_eagerly,
            "eager_outside": ops.executing_eagerly_outside_functions,
            "in_save": save_context.in_save_context}
        from tensorflow.python.data.ops import dataset_ops, iterator_ops
        from tensorflow.python.ops.ragged import ragged_tensor
        t["Ragged"] = ragged_tensor.RaggedTensor
        t["RaggedSpec"] = ragged_tensor.RaggedTensorSpec
        t["Dataset"] = dataset_ops.DatasetV2
        t["Iterator"] = iterator_ops.OwnedIterator
        from tensorflow.python.eager.polymorphic_function import eager_function_run
        global _EagerTensor, _eager_run, _in_save, _eager, _eager_outside
        global _context_module, _save_state
        _EagerTensor, _eager_run = ops.EagerTensor, eager_function_run
        global _call_key
        from tfscope import _core
        _call_key = _core._watch_call_key
        _in_save, _eager, _eager_outside = t["in_save"], t["eager"], t["eager_outside"]
        # what executing_eagerly() and in_save_context() read, read directly on the hot path
        # (both are per-thread state); where TF's internals differ, the public functions
        if (hasattr(context, "_context") and
                hasattr(save_context._save_context, "_in_save_context")):
            _context_module, _save_state = context, save_context._save_context
    return t


def _eager_not_saving():
    """executing_eagerly() and not in_save_context(), the context the hit memo answers in."""
    if _context_module is not None:
        ctx = _context_module._context
        if ctx is not None:
            return ctx._thread_local_data.is_eager and not _save_state._in_save_context
    return _eager() and not _in_save()


def _quiet_sink(msg):
    """tfscope's retracing warning, silent while a twin runs (the user's program prints TF's)."""
    if not getattr(_state["quiet"], "on", False):
        _state["sink"](msg)


def enable():
    import tfscope
    from tfscope import _core
    if _state["sink"] is None:
        _state["sink"] = tfscope._retracing_warning
        _core.set_warning_sink(_quiet_sink)


def disable():
    from tfscope import _core
    if _state["sink"] is not None:
        _core.set_warning_sink(_state["sink"])
        _state["sink"] = None


FRESH_KEPT = 256  # kinds of fresh twin per session whose first answers are kept (FreshTwins)
FRESH_ANSWERS_KEPT = 64  # first calls kept per kind


class FreshTwins:
    """The first answers of fresh twins of one kind (equal in everything a twin is made of).

    A twin is made of its Function's parameters, input_signature, reduce_retracing and name, and
    its first call meets an empty cache, so two fresh twins of one kind given equal first calls
    (equal hit-memo keys, the same kind of call and variable creation) answer alike. A program
    that makes the same tf.function again and again (tf.data makes its map functions again at
    every `fit` epoch) has the first twin of the kind traced; each later one takes its first
    answer from here and is made (and its first call replayed) only when it is asked more."""

    __slots__ = ("refused", "answers")

    def __init__(self, refused):
        self.refused = refused  # why tfscope's tf.function refused this kind, or None
        self.answers = {}       # (kind, eagerly, saving, creates a variable, call key) -> answer


_PLAIN_DEFAULTS = (type(None), bool, int, str, bytes)
_NO_KEY = object()


def _spec_key(v):
    """A hashable key of a mapped input_signature (TensorSpecs in lists and tuples), _NO_KEY for
    anything else."""
    import tfscope
    if v is None:
        return None
    if isinstance(v, tfscope.TensorSpec):
        dims = None if v.shape.rank is None else tuple(v.shape.as_list())
        return ("spec", dims, v.dtype.name, v.name)
    if type(v) in (list, tuple):
        items = tuple(_spec_key(c) for c in v)
        return _NO_KEY if _NO_KEY in items else (type(v).__name__, items)
    return _NO_KEY


_FunctionType = types.FunctionType
_plain_signatures = {}  # code object -> its inspect.Signature, for functions _plain_signature takes
PLAIN_SIGNATURES_KEPT = 256


def _plain_signature(pyf):
    """inspect.signature of a plain Python function (no defaults, annotations, __wrapped__ or
    __signature__: then its signature is its code's), kept per code object; None for any other.
    tf.data makes a new such function (its wrapped_fn) for every transformation, each traced."""
    if type(pyf) is not _FunctionType or pyf.__defaults__ is not None or pyf.__kwdefaults__:
        return None
    attrs = pyf.__dict__
    if "__wrapped__" in attrs or "__signature__" in attrs or pyf.__annotations__:
        return None
    code = pyf.__code__
    sig = _plain_signatures.get(code)
    if sig is None:
        try:
            sig = inspect.signature(pyf)
        except (TypeError, ValueError):
            return None
        if len(_plain_signatures) < PLAIN_SIGNATURES_KEPT:
            _plain_signatures[code] = sig
    return sig


class Twin:
    """The tfscope Function standing for one real Function object, and what it predicted."""

    def __init__(self, fn, rec, obj_index, fresh_twins=None):
        self.rec = rec
        self.obj_index = obj_index
        self.creates_variables = False  # TF's body created variables in some trace (for the case)
        self.create_next = False        # the twin's next trace creates a variable, as TF's did
        self.seen_created = 0           # len(TF's Function._created_variables) at the last call
        self.hot = _core._WatchHot()  # its thread and memo_hits, read by the C++ call path
        self.hot.thread = threading.get_ident()
        self.concurrent = False         # called from several threads: compared by totals
        # Counts of a concurrent twin, read after each call: per-call deltas overlap when two
        # threads' calls do (a trace made by one thread shows in the other's delta as well), the
        # tracing counts themselves only grow.
        self.tf_count = 0
        self.predicted_count = 0
        self.totals_error = None
        self.function = None
        self.signature = None
        self.not_modelled = None   # the reason every call of this object is not modelled
        self.calls = []            # (kind "call"/"concrete", mapped args, kwargs) for the case
        self.variables = {}        # id(TF variable) -> (weakref, tfscope variable)
        self.objects = {}          # id(object) -> its number in the case, for the case's text
        self.input_signature = None
        self.memo = {}             # call key -> its recorded (kind, args, kwargs): a repeat hits
        self.last = None           # the last call's recorded (kind, args, kwargs)
        self.unmodelled_first = {}  # type of a first argument -> why no call with it is modelled
        self.fresh = None          # the FreshTwins of this twin's kind, None when not keyed
        self.answered = 0          # calls predicted (asked, or answered from self.fresh)
        self.pending = []          # calls answered from self.fresh, replayed when it is made
        self.pending_traces = 0    # the traces those answers counted
        if any(t.obj_index == obj_index for t in rec.prewatch):
            self.not_modelled = "traced before the watch started"
            return
        pyf = getattr(fn, "_python_function", None)
        if pyf is None:
            self.not_modelled = "no Python function"
            return
        plain = _plain_signature(pyf)
        if plain is not None:
            sig = plain
        else:
            try:
                sig = inspect.signature(pyf)
            except (TypeError, ValueError):
                self.not_modelled = "its Python function has no signature"
                return
        try:
            if plain is None:
                params = [p.replace(default=self.map(p.default)) if p.default is not p.empty
                          else p for p in sig.parameters.values()]
            in_sig = fn.input_signature
            if in_sig is not None:
                in_sig = self.map(list(in_sig))
        except NotModelled as e:
            self.not_modelled = str(e)
            return
        self.signature = sig if plain is not None else sig.replace(parameters=params)
        self.input_signature = in_sig
        self.reduce_retracing = bool(fn._reduce_retracing)
        self.name = getattr(pyf, "__name__", "f")
        key = self._fresh_key(rec) if fresh_twins is not None else None
        known = fresh_twins.get(key) if key is not None else None
        if known is not None:  # a twin of this kind was made: this one is made when asked more
            self.not_modelled = known.refused
            self.fresh = None if known.refused else known
            return
        self._make()
        if key is not None and len(fresh_twins) < FRESH_KEPT:
            self.fresh = fresh_twins[key] = FreshTwins(self.not_modelled)

    def _fresh_key(self, rec):
        """The key of this twin's kind (FreshTwins), or None when its parameters' defaults or
        input_signature are not plain values."""
        parts = []
        for p in self.signature.parameters.values():
            d = p.default
            if d is not p.empty and type(d) not in _PLAIN_DEFAULTS:
                return None
            parts.append((p.name, p.kind, type(d), d, p.annotation))
        sig = _spec_key(self.input_signature)
        if sig is _NO_KEY:
            return None
        key = (rec.key, self.name, self.reduce_retracing, tuple(parts), sig)
        try:
            hash(key)
        except TypeError:
            return None
        return key

    def _make(self):
        """Makes the tfscope Function, and replays the calls answered before it was made."""
        import tfscope
        ref = weakref.ref(self)  # the engine holds the body: no cycle through it

        def body(*args, **kwargs):
            twin = ref()
            if twin is not None and twin.create_next:
                twin.create_next = False
                tfscope.Variable(0.0)
            return None

        body.__signature__ = self.signature
        body.__name__ = self.name
        try:
            self.function = tfscope.function(body, input_signature=self.input_signature,
                                             autograph=False,
                                             reduce_retracing=self.reduce_retracing)
        except Exception as e:  # noqa: BLE001  (TF took this tf.function; tfscope did not)
            self.not_modelled = "tfscope's tf.function refused it: %s: %s" % (
                type(e).__name__, str(e).strip().splitlines()[0] if str(e).strip() else "")
            return
        pending, self.pending = self.pending, []
        for kind, margs, mkw, eagerly, create, saving in pending:
            self.create_next = create
            self.ask(kind, margs, mkw, eagerly, saving)

    def traced_count(self):
        """tfscope's tracing count of the twin (the answers' traces while it is not made)."""
        if self.function is not None:
            return self.function.experimental_get_tracing_count()
        return self.pending_traces

    @property
    def thread(self):
        return self.hot.thread

    @property
    def memo_hits(self):
        """Hits the C++ hit memo answered (compared and agreed)."""
        return self.hot.memo_hits

    @memo_hits.setter
    def memo_hits(self, n):
        self.hot.memo_hits = n

    def settle(self, ledger):
        """Off the hot path (at report time, and before release): the twin is asked about one
        repeat of each memoized call that was repeated; where tfscope would not hit (a trace or
        an error), the first repeat becomes a disagreement. The twin's cache only grows, so one
        repeat answers for all of them."""
        if self.function is None and self.fresh is None:
            return
        for entry in list(self.memo.values()):
            if entry.settled or not entry.first_call:
                continue
            entry.settled = True
            kind, margs, mkw = entry.recorded
            try:
                predicted, error = self.ask(kind, margs, mkw, False)
            except NotModelled:  # a twin made late that tfscope refused: nothing to compare
                return
            if predicted or error is not None:
                self.agreed -= 1
                ledger.agreed -= 1
                d = Disagreement(self, entry.first_call, kind, 0, predicted, error, entry.site)
                d.upto = entry.upto
                ledger.disagreements.append(d)

    def release(self):
        """Drops the tfscope objects (the watch stopped): the recorded calls keep variables as
        VarTokens, enough for the conformance case."""
        if self.function is None and self.fresh is None:
            return
        if self.rec.selfcheck is not None:
            self.settle(self.rec.selfcheck)
        tokens = {}

        def walk(v):
            if _is_tfscope_variable(v):
                t = tokens.get(id(v))
                if t is None:
                    t = tokens[id(v)] = VarToken(v, len(tokens) + 1)
                return t
            if isinstance(v, tuple):
                items = [walk(c) for c in v]
                return type(v)(*items) if hasattr(v, "_fields") else tuple(items)
            if isinstance(v, list):
                return [walk(c) for c in v]
            if isinstance(v, dict):
                return dict((k, walk(c)) for k, c in v.items())
            return v

        self.calls = [(k, walk(a), walk(kw)) for k, a, kw in self.calls]
        self.memo = {}
        self.last = None
        self.unmodelled_first = {}
        self.function = None
        self.fresh = None
        self.pending = []
        self.variables = {}
        if not self.not_modelled:
            self.not_modelled = "the watch was stopped"

    # TF values -> tfscope values ----------------------------------------------------------------
    def map(self, v):
        t = _tf()
        if isinstance(v, t["Tensor"]):
            # the hit path: one spec per shape and dtype (an EagerTensor's dtype property builds
            # a DType each time; its enum is a plain C call)
            enum = getattr(v, "_datatype_enum", None)
            key = (enum() if enum is not None else v.dtype, v._shape_tuple())
            spec = _specs.get(key)
            if spec is None:
                if len(_specs) > 10000:
                    _specs.clear()
                spec = _specs[key] = self._spec(v.shape, v.dtype, None)
            return spec
        if isinstance(v, t["TensorSpec"]):
            return self._spec(v.shape, v.dtype, v.name)
        if isinstance(v, t["Variable"]):
            return self._variable(v)
        if v is None or isinstance(v, (bool, int, float, complex, str, bytes)):
            return v
        if isinstance(v, tuple):
            items = [self.map(c) for c in v]
            return type(v)(*items) if hasattr(v, "_fields") else tuple(items)
        if isinstance(v, list):
            return [self.map(c) for c in v]
        if isinstance(v, dict):
            return dict((k, self.map(c)) for k, c in v.items())
        if isinstance(v, t["Function"]):
            return v  # a Function passed as an argument: an object, by identity, in both
        if isinstance(v, t["Dataset"]):  # tfscope's DatasetSpec of the mapped element spec
            shape = getattr(getattr(v, "_type_spec", None), "_dataset_shape", None)
            dims = () if shape is None or shape.rank is None else tuple(shape.as_list())
            return _StandIn(_data().DatasetSpec(self.map(v.element_spec), dims), v)
        if isinstance(v, t["Iterator"]):  # tfscope's IteratorSpec of the mapped element spec
            return _StandIn(_data().IteratorSpec(self.map(v.element_spec)), v)
        if isinstance(v, t["Ragged"]):  # traces as its RaggedTensorSpec, in TF and in tfscope
            return self._ragged_spec(v._type_spec)
        if isinstance(v, t["RaggedSpec"]):  # an input_signature's, or passed as itself
            return self._ragged_spec(v)
        if hasattr(type(v), "__tf_tracing_type__") and not isinstance(v, t["Composite"]):
            # the tracing protocol: tfscope keys its cache on TF's own TraceType of the value
            # (the class's rules), so the self-check compares how each uses the protocol
            return _StandIn(_protocol_type(v), v)
        if isinstance(v, t["Composite"]):
            raise NotModelledType("tfscope has no trace type for a %s argument" % type(v).__name__)
        if hasattr(v, "__attrs_attrs__"):
            raise NotModelledType("tfscope has no trace type for an attrs class (%s)" %
                                  type(v).__name__)
        mod = type(v).__module__ or ""
        if mod.startswith(("tensorflow", "keras", "tf_keras")) and not callable(v):
            raise NotModelledType("tfscope has no trace type for a %s argument" % type(v).__name__)
        return v  # numpy values and other Python objects: tfscope's own rules

    def _spec(self, shape, dtype, name):
        import tfscope
        try:
            d = tfscope.as_dtype(dtype.name)
        except (KeyError, TypeError, ValueError):
            raise NotModelled("tfscope has no dtype %s" % dtype.name)
        dims = None if shape.rank is None else shape.as_list()
        return tfscope.TensorSpec(dims, d, name)

    def _ragged_spec(self, spec):
        """tfscope's RaggedTensorSpec of TF's (the trace type of a RaggedTensor and of the spec
        itself): shape, dtype, ragged_rank and row_splits_dtype, what TF's TypeSpec compares."""
        import tfscope
        if spec._ragged_rank != 1 or spec._flat_values_spec is not None or \
                spec._shape.rank not in (None, 2):
            raise NotModelledType("tfscope's RaggedTensorSpec has one ragged dimension over 1-D "
                                  "values (got ragged_rank %d of rank %s)" % (
                                      spec._ragged_rank, spec._shape.rank))
        dims = None if spec._shape.rank is None else spec._shape.as_list()
        try:
            dtype = tfscope.as_dtype(spec._dtype.name)
        except (KeyError, TypeError, ValueError):
            raise NotModelled("tfscope has no dtype %s" % spec._dtype.name)
        return tfscope.RaggedTensorSpec(dims, dtype, 1, spec._row_splits_dtype.name)

    def _variable(self, v):
        entry = self.variables.get(id(v))
        if entry is not None and entry[0]() is v:
            return entry[1]
        import numpy as np
        import tfscope
        if v.shape.rank is None or None in v.shape.as_list():
            raise NotModelled("a variable of unknown shape")
        try:
            dtype = tfscope.as_dtype(v.dtype.name)
        except (KeyError, TypeError, ValueError):
            raise NotModelled("tfscope has no dtype %s" % v.dtype.name)
        mirror = tfscope.Variable(np.zeros(v.shape.as_list(), dtype.as_numpy_dtype),
                                  trainable=bool(v.trainable))
        self.variables[id(v)] = (weakref.ref(v), mirror)
        return mirror

    # Predictions ----------------------------------------------------------------------------------
    def predict(self, kind, args, kwargs, eagerly, saving=False):
        """(tfscope's trace count for this call: the twin's count after minus before, the text of
        the error tfscope raised or None)."""
        if self.not_modelled:
            raise NotModelled(self.not_modelled)
        try:
            margs = [self.map(a) for a in args]
            mkw = {k: self.map(v) for k, v in kwargs.items()}
        except RecursionError:
            raise NotModelled("arguments nested deeper than Python's recursion limit")
        except NotModelledType as e:
            if args and len(self.unmodelled_first) < 64:
                try:
                    self.map(args[0])
                except NotModelledType as first:  # the first argument's type decides
                    self.unmodelled_first[type(args[0])] = str(first)
            raise e
        self.last = (kind, margs, mkw)
        if len(self.calls) < CALLS_KEPT:
            self.calls.append(self.last)
        fresh, key = self.fresh, None
        if fresh is not None and not self.answered:  # a first call: maybe a known answer
            ck = _call_key(args, kwargs)
            if ck is not None:
                key = (kind, eagerly, saving, self.create_next, ck)
                answer = fresh.answers.get(key)
                if answer is not None:
                    self.answered += 1
                    self.pending.append((kind, margs, mkw, eagerly, self.create_next, saving))
                    self.create_next = False
                    self.pending_traces += answer[0]
                    return answer
        self.answered += 1
        answer = self.ask(kind, margs, mkw, eagerly, saving)
        if key is not None and len(fresh.answers) < FRESH_ANSWERS_KEPT:
            fresh.answers[key] = answer
        return answer

    def ask(self, kind, margs, mkw, eagerly, saving=False):
        """The twin's trace count for one call of mapped arguments, and tfscope's error text
        (the twin made first, if it was not); `saving`: the call was made inside
        tf.saved_model.save, asked inside tfscope's save context (whose traces are keyed apart,
        as TF's function context holds the save options' variable policy there)."""
        if self.function is None:
            self._make()
            if self.function is None:
                raise NotModelled(self.not_modelled)
        f = self.function
        core = f._core
        before = core.experimental_get_tracing_count()
        quiet = _state["quiet"]
        quiet.on = True
        error = None
        save = None
        try:
            if saving:
                from tfscope import _function
                save = _function._save_context()
                save.__enter__()
            if eagerly:  # run_functions_eagerly(True): tfscope's __call__ decides (no trace)
                from tfscope import _core
                was = _core.functions_run_eagerly()
                _core.run_functions_eagerly(True)
                try:
                    f(*margs, **mkw)
                finally:
                    _core.run_functions_eagerly(was)
            else:
                from tfscope import _function
                if kind == "call" and f._input_signature is not None:
                    # a call's RaggedTensor as a value: the signature casts values, not specs
                    margs = [_ragged_value(a) for a in margs]
                    mkw = {k: _ragged_value(v) for k, v in mkw.items()}
                    if margs:
                        margs = _function._convert_numpy_to_signature(margs,
                                                                      f._input_signature)
                if mkw:  # keyword names as tf.function sanitizes them (or its collision error)
                    mkw = _function._sanitize_kwargs(mkw)
                core.get_concrete_function(*margs, **mkw)
        except Exception as e:  # noqa: BLE001  (tfscope raised: compared with what TF did)
            text = str(e).strip()
            error = "%s: %s" % (type(e).__name__, text.splitlines()[0] if text else "")
        finally:
            if save is not None:
                save.__exit__(None, None, None)
            quiet.on = False
            self.create_next = False
        return core.experimental_get_tracing_count() - before, error


def _ragged_value(v):
    """A mapped call argument with each RaggedTensorSpec of known rows made a tfscope RaggedTensor
    of its type (its rows empty: the values' count is no part of the type)."""
    import tfscope
    if isinstance(v, tfscope.RaggedTensorSpec):
        rows = v.shape[0]
        if rows is None:
            return v
        return tfscope.RaggedTensor.from_row_splits(tfscope.zeros([0], v.dtype),
                                                    tfscope.zeros([rows + 1], v.row_splits_dtype))
    if type(v) in (list, tuple):
        return type(v)(_ragged_value(c) for c in v)
    if type(v) is dict:
        return {k: _ragged_value(c) for k, c in v.items()}
    return v


def _data():
    import tfscope.data
    return tfscope.data


class _StandIn:
    """A TF value the twin is given in its place: its tfscope trace type is `trace_type` (the
    tracing protocol), and it keeps the value for the conformance case's text."""

    __slots__ = ("trace_type", "value", "__weakref__")

    def __init__(self, trace_type, value):
        self.trace_type = trace_type
        self.value = value

    def __tf_tracing_type__(self, context):
        return self.trace_type


def _protocol_type(v):
    """tfscope's TraceType standing for TF's TraceType of a protocol value."""
    from tensorflow.core.function.trace_type import trace_type_builder
    return _TFTraceType(v.__tf_tracing_type__(trace_type_builder.InternalTracingContext()))


def _tf_trace_type_class():
    import tfscope

    class TFTraceType(tfscope.types.experimental.TraceType):
        """TF's TraceType of a value (its class's __tf_tracing_type__), in tfscope's protocol:
        equality, subtyping and supertypes are TF's own; the value holds no tensors for the
        twin (its body reads nothing)."""

        def __init__(self, tf_type):
            self.tf_type = tf_type

        def is_subtype_of(self, other):
            return type(other) is type(self) and bool(self.tf_type.is_subtype_of(other.tf_type))

        def most_specific_common_supertype(self, others):
            if any(type(o) is not type(self) for o in others):
                return None
            r = self.tf_type.most_specific_common_supertype([o.tf_type for o in others])
            return None if r is None else type(self)(r)

        def placeholder_value(self, placeholder_context):
            return None

        def to_tensors(self, value):
            return []

        def flatten(self):
            return []

        def cast(self, value, cast_context):
            return value

        def __eq__(self, other):
            return type(other) is type(self) and self.tf_type == other.tf_type

        def __hash__(self):
            return hash(self.tf_type)

        def __repr__(self):
            return repr(self.tf_type)

    return TFTraceType


_TFTraceTypeClass = None


def _TFTraceType(tf_type):  # noqa: N802  (a class made once, on first use)
    global _TFTraceTypeClass
    if _TFTraceTypeClass is None:
        _TFTraceTypeClass = _tf_trace_type_class()
    return _TFTraceTypeClass(tf_type)


class VarToken:
    """A tfscope variable of a recorded call, once the tfscope objects are released."""

    def __init__(self, v, serial):
        self.shape = list(v.shape.as_list())
        self.dtype = v.dtype.name
        self.trainable = bool(v.trainable)
        self.serial = serial


def _is_tfscope_variable(v):
    import tfscope
    return isinstance(v, tfscope.Variable)


_sessions = weakref.WeakSet()  # sessions with twins, released at exit at the latest


def release(session):
    for rec in session.functions():
        if rec.selfcheck is not None:
            for twin in rec.selfcheck.twins:
                twin.release()
    _sessions.discard(session)


@atexit.register
def _release_all():
    """tfscope objects must not outlive the interpreter's teardown (nanobind reports leaks)."""
    for session in list(_sessions):
        release(session)


def modelled_context():
    """(None when tfscope can model the call's context, else the reason; whether it was made
    inside tf.saved_model.save)."""
    t = _tf()
    if t["in_save"]():
        if not t["eager"]():
            return "inside tf.saved_model.save (its save context), in a graph", True
        from tensorflow.python.saved_model import save_context, save_options
        policy = save_context.get_save_options().experimental_variable_policy
        if policy != save_options.VariablePolicy.NONE:
            return ("inside tf.saved_model.save with experimental_variable_policy %s" %
                    policy.name, True)
        return None, True
    if not t["eager"]() and not t["eager_outside"]():
        return "called in TF1 graph mode (a tf.Graph as default)", False
    return None, False


class Disagreement:
    def __init__(self, twin, call, kind, tf_traces, predicted, error, site, text=None):
        self.twin = twin
        self.fixed_text = text
        self.call = call            # the record's call number (0: get_concrete_function)
        self.kind = kind
        self.tf_traces = tf_traces
        self.predicted = predicted  # None when tfscope raised
        self.error = error
        self.site = site
        self.upto = len(twin.calls)  # the calls of the case: the object's calls up to this one
        self.case_file = None

    def text(self):
        if self.fixed_text:
            return self.fixed_text
        what = "call %d" % self.call if self.call else "get_concrete_function"
        tf_says = "traced %d time%s" % (self.tf_traces, "" if self.tf_traces == 1 else "s") \
            if self.tf_traces else "hit"
        if self.error is not None:
            ours = "raised %s" % self.error
            if self.predicted:
                ours += " after %d trace%s" % (self.predicted, "" if self.predicted == 1 else "s")
        elif self.predicted:
            ours = "predicted %d trace%s" % (self.predicted, "" if self.predicted == 1 else "s")
        else:
            ours = "predicted a hit"
        return "%s at %s: TF %s, tfscope %s" % (what, self.site, tf_says, ours)

    def to_json(self):
        return {"function_object": self.twin.obj_index, "call": self.call, "site": self.site,
                "tf_traces": self.tf_traces, "tfscope_traces": self.predicted,
                "tfscope_error": self.error, "text": self.text(), "case_file": self.case_file}


class Ledger:
    """A FunctionRecord's self-check: calls compared, agreed, not modelled (by reason). The calls
    of a Function object called from several threads are compared by their totals at the end
    (which call traces is then up to the threads' order; how many is not)."""

    def __init__(self):
        self.compared = 0
        self.agreed = 0
        self.not_modelled = {}
        self.disagreements = []
        self.twins = []

    def final(self):
        """(compared, agreed, disagreements), with the totals of the concurrent twins."""
        for t in self.twins:
            t.settle(self)
        hits = sum(t.memo_hits for t in self.twins)  # the hit memo's agreements
        compared, agreed = self.compared + hits, self.agreed + hits
        out = [d for d in self.disagreements if not d.twin.concurrent]
        for t in self.twins:
            if not t.concurrent:
                continue
            n = t.compared + t.memo_hits
            agreed -= t.agreed + t.memo_hits  # the per-call comparisons give way to the totals
            if t.tf_count == t.predicted_count and t.totals_error is None:
                agreed += n
                continue
            text = ("%d calls from several threads: TF traced %d times, tfscope predicted %d%s" %
                    (n, t.tf_count, t.predicted_count,
                     "" if t.totals_error is None else " (tfscope raised %s)" % t.totals_error))
            out.append(Disagreement(t, 0, "call", t.tf_count, t.predicted_count, None,
                                    t.rec.defined_at, text))
        return compared, agreed, out

    def to_json(self):
        compared, agreed, dis = self.final()
        return {"compared": compared, "agreed": agreed,
                "not_modelled": dict(self.not_modelled),
                "disagreements": [d.to_json() for d in dis]}


def twin_of(session, fn, rec, idx):
    entry = fn.__dict__.get("_tfscope_twin")
    if entry is not None and entry[0] is session:
        return entry[1]
    _tf()
    twin = Twin(fn, rec, idx, session.__dict__.setdefault("fresh_twins", {}))
    twin.compared = twin.agreed = twin.memo_hits = 0
    fn.__dict__["_tfscope_twin"] = (session, twin, twin.hot)  # the call path reads twin.hot
    _sessions.add(session)
    if rec.selfcheck is not None:
        rec.selfcheck.twins.append(twin)
    return twin


def observe(session, fn, rec, idx, kind, args, kwargs, tf_traces, call, site, ok):
    """Compares tfscope's prediction for one finished call (or get_concrete_function) with TF:
    the same number of traces, and tfscope raising only where TF raised."""
    led = rec.selfcheck
    if led is None:
        led = rec.selfcheck = Ledger()
    try:
        why, saving = modelled_context()
        if why is not None:
            raise NotModelled(why)
        twin = twin_of(session, fn, rec, idx)
        created = len(fn._created_variables or ())
        if tf_traces and created > twin.seen_created:
            twin.create_next = twin.creates_variables = True
        twin.seen_created = created
        eagerly = kind == "call" and bool(fn._run_functions_eagerly)
        predicted, error = twin.predict(kind, args, kwargs, eagerly, saving)
    except NotModelled as e:
        reason = str(e)
        led.not_modelled[reason] = led.not_modelled.get(reason, 0) + 1
        return
    if not ok:
        error = None  # both raised, or TF raised at run time after the same lookup
    if threading.get_ident() != twin.thread:
        twin.concurrent = True
    # A function traced before the watch started is not modelled: TF's count is the watch's.
    twin.tf_count = max(twin.tf_count, fn.experimental_get_tracing_count())
    twin.predicted_count = max(twin.predicted_count, twin.traced_count())
    twin.compared += 1
    if error is not None and twin.totals_error is None:
        twin.totals_error = error
    led.compared += 1
    if error is None and predicted == tf_traces:
        led.agreed += 1
        twin.agreed += 1
        if (kind == "call" and ok and not eagerly and not saving and not twin.concurrent and
                len(twin.memo) < HIT_MEMO_KEPT):
            key = call_key(args, kwargs)
            if key is not None and key not in twin.memo:
                twin.memo[key] = MemoEntry(twin.last)
        return
    led.disagreements.append(Disagreement(twin, call, kind, tf_traces, predicted, error, site))


def call_key(args, kwargs):
    """The hit memo's key of a call's arguments, or None when one is not keyed: equal exactly when
    what tfscope's tracing rules read is (tensors by dtype and shape; Python ints, bools, strings,
    bytes and None by exact type and value, floats by their bits, NaN never; tuples, lists and
    string-keyed dicts element by element); computed in C++ (_core._watch_call_key)."""
    from tfscope import _core
    return _core._watch_call_key(args, kwargs)


class MemoEntry:
    """A call the twin took (its recorded arguments) whose repeats the hit memo answers; the first
    repeat's call number, site and place among the recorded calls, for settle()."""

    __slots__ = ("recorded", "first_call", "site", "upto", "settled")

    def __init__(self, recorded):
        self.recorded = recorded
        self.first_call = 0
        self.site = None
        self.upto = 0
        self.settled = False


# Conformance cases --------------------------------------------------------------------------------
def _number_text(v):
    if isinstance(v, float) and (v != v or v in (float("inf"), float("-inf"))):
        return 'float("%r")' % v
    if isinstance(v, complex):
        return "complex(%s, %s)" % (_number_text(v.real), _number_text(v.imag))
    return repr(v)


def _value_text(v, twin, names, unknown):
    """Python source for a mapped argument; `unknown` collects whether a spec has unknown dims."""
    import tfscope

    def sub(c):
        return _value_text(c, twin, names, unknown)

    if isinstance(v, tfscope.TensorSpec):
        dims = None if v.shape.rank is None else v.shape.as_list()
        if dims is not None and None not in dims:
            return "tf.zeros(%r, tf.%s)" % (dims, v.dtype.name)
        unknown.append(True)
        return "tf.TensorSpec(%r, tf.%s)" % (dims, v.dtype.name)
    if isinstance(v, tfscope.RaggedTensorSpec):
        unknown.append(True)
        dims = None if v.shape.rank is None else v.shape.as_list()
        return "tf.RaggedTensorSpec(%r, tf.%s, 1, tf.%s)" % (dims, v.dtype.name,
                                                             v.row_splits_dtype.name)
    if isinstance(v, (tfscope.Variable, VarToken)):
        return names.setdefault(id(v), ("v%d" % (len(names) + 1), v))[0]
    if isinstance(v, (bool, int, float, complex)):
        return _number_text(v)
    if v is None or isinstance(v, (str, bytes)):
        return repr(v)
    if isinstance(v, tuple) and hasattr(v, "_fields"):
        return "%s(%s)" % (type(v).__name__, ", ".join(sub(c) for c in v))
    if isinstance(v, tuple):
        return "(%s%s)" % (", ".join(sub(c) for c in v), "," if len(v) == 1 else "")
    if isinstance(v, list):
        return "[%s]" % ", ".join(sub(c) for c in v)
    if isinstance(v, dict):
        return "{%s}" % ", ".join("%r: %s" % (k, sub(c)) for k, c in v.items())
    try:
        text = repr(v)
        if eval(text, {}) == v:  # a value its repr rebuilds (frozenset, range)
            return text
    except Exception:  # noqa: BLE001
        pass
    return names.setdefault(id(v), ("o%d" % (len(names) + 1), v))[0]


def case_text(rec, d):
    """A conformance case replaying the Function object's calls up to the disagreement: the
    arguments rebuilt from their tfscope mapping (tensors as zeros of their shape and dtype, other
    objects as fresh instances, one per identity), the body reduced to what TF's tracing rules
    read (whether it creates a variable on its first trace)."""
    twin = d.twin
    names = {}
    calls = []
    for i, (kind, args, kwargs) in enumerate(twin.calls[:d.upto], 1):
        unknown = []
        parts = [_value_text(a, twin, names, unknown) for a in args] + [
            "%s=%s" % (k, _value_text(v, twin, names, unknown)) for k, v in kwargs.items()]
        hook = "concrete" if kind == "concrete" or unknown else "call"
        calls.append('%s("%s %d", f%s)' % (hook, kind, i, "".join(", " + p for p in parts)))
    out = ['"""Watch self-check: %s (%s) -- %s."""' % (rec.name, rec.defined_at, d.text()), ""]
    objects = sorted(names.values(), key=lambda nv: int(nv[0][1:]))
    if any(n.startswith("o") for n, _ in objects):
        out += ["", "class _Object:", "    pass", "", ""]
    for n, v in objects:
        if n.startswith("v"):
            out.append("%s = tf.Variable(tf.zeros(%r, tf.%s), trainable=%r)" % (
                n, v.shape.as_list() if hasattr(v.shape, "as_list") else list(v.shape),
                getattr(v.dtype, "name", v.dtype), bool(v.trainable)))
        else:
            out.append("%s = _Object()  # was a %s" % (n, type(v).__name__))
    opts = []
    if twin.input_signature is not None:
        opts.append("input_signature=%s" % _value_text(
            twin.input_signature, twin, {}, []).replace("tf.zeros", "tf.TensorSpec"))
    if getattr(twin, "reduce_retracing", False):
        opts.append("reduce_retracing=True")
    params = str(twin.signature)[1:-1] if twin.signature is not None else "*args, **kwargs"
    out += ["created = []", "", "",
            "@tf.function(%s)" % ", ".join(opts) if opts else "@tf.function",
            "def f(%s):" % params]
    if twin.creates_variables:
        out += ["    if not created:", "        created.append(tf.Variable(0.0))"]
    out += ["    return 0", "", ""] + calls + ['count("traces", f)']
    return "\n".join(out) + "\n"


def write_cases(session, folder):
    """Writes one conformance case per disagreement into `folder`; returns the paths."""
    paths = []
    os.makedirs(folder, exist_ok=True)
    for rec in session.functions():
        led = rec.selfcheck
        if led is None:
            continue
        for i, d in enumerate(led.final()[2], 1):
            stem = "".join(c if c.isalnum() else "_" for c in rec.name).strip("_").lower()
            path = os.path.join(folder, "watch_%s_%d.py" % (stem or "f", i))
            with open(path, "w") as f:
                f.write(case_text(rec, d))
            d.case_file = path
            paths.append(path)
    return paths
