"""tf.function for Python callables, over the C++ engine (tfscope._core.FunctionCore)."""
import collections
import functools
import inspect
import json as _json
import logging as _logging
import os as _os
import sys as _sys
import weakref

import numpy as _np

from . import _compiler_ir, _core, _nest, _trace_type, _types
from ._types import TensorSpec
from .autograph import convert as _autograph_convert

_KINDS = {
    inspect.Parameter.POSITIONAL_ONLY: 0,
    inspect.Parameter.POSITIONAL_OR_KEYWORD: 1,
    inspect.Parameter.VAR_POSITIONAL: 2,
    inspect.Parameter.KEYWORD_ONLY: 3,
    inspect.Parameter.VAR_KEYWORD: 4,
}


def _innermost(fn):
    while True:
        if hasattr(fn, "__wrapped__"):
            fn = fn.__wrapped__
        elif hasattr(fn, "__func__"):
            fn = fn.__func__
        else:
            return fn


# TF's frequent-retracing detectors live in a WeakKeyDictionary keyed by the code object (by code
# equality, which includes the first line but not the file): the functions one `def` makes share
# one, two defs do not, even with the same name and text. Each key gets a number the engine's
# detector table is keyed by; hash(code) would not do (it leaves out the line).
_detector_numbers = weakref.WeakKeyDictionary()
_detector_next = [0]


def _detector_key(fn):
    # TF's _get_key_for_call_stats: through __wrapped__, then one __func__, then __code__.
    target = fn
    while hasattr(target, "__wrapped__"):
        target = target.__wrapped__
    if hasattr(target, "__func__"):
        target = target.__func__
    key = getattr(target, "__code__", fn)
    try:
        number = _detector_numbers.get(key)
        if number is None:
            _detector_next[0] += 1
            number = _detector_numbers[key] = _detector_next[0]
    except TypeError:  # neither weakly referenceable nor hashable: its own detector
        return "id:%d" % id(fn)
    return "key:%d" % number


# Every live tf.Variable by its state's uid, so that a trace's captured handles give the user's
# Variable objects back (cf.variables).
_live_variables = weakref.WeakValueDictionary()

_PACKAGE_DIR = _os.path.dirname(_os.path.abspath(__file__))

_RUN_EAGERLY = _core.RUN_EAGERLY  # what call_positional returns under run_functions_eagerly


def _call_site():
    # The user's frame that made the call being traced: the first frame outside this package.
    frame = _sys._getframe(1)
    while frame is not None:
        path = frame.f_code.co_filename
        if not _os.path.abspath(path).startswith(_PACKAGE_DIR + _os.sep):
            return "%s:%d" % (path, frame.f_lineno)
        frame = frame.f_back
    return ""


def _has_mutation(before, after):
    """TF's func_graph.has_mutation: another structure, or a leaf that is not the same object."""
    try:
        _nest.assert_same_structure(before, after)
    except ValueError:
        return True
    return any(x is not y for x, y in zip(_nest.flatten(before), _nest.flatten(after)))


def _check_not_mutated(func, args_before, args, kwargs_before, kwargs):
    """TF's check_func_mutation: the body may not change the nests it was given."""
    if not _has_mutation((args_before, kwargs_before), (args, kwargs)):
        return
    name = getattr(func, "__qualname__", getattr(func, "__name__", func))
    sig = inspect.signature(func)
    old = sig.bind(*args_before, **kwargs_before).arguments
    new = sig.bind(*args, **kwargs).arguments
    changed = ", ".join(k for k in new if _has_mutation(old[k], new[k]))
    raise ValueError("%s%s should not modify its Python input arguments. Modifying a copy is "
                     "allowed. The following parameter(s) were modified: %s" % (name, sig, changed))


def _absl_warning(message):
    """A warning TF logs through absl: to its handlers when the program set some, else the line
    absl writes to stderr before its flags are parsed."""
    logger = _logging.getLogger("absl")
    if logger.hasHandlers():
        logger.warning(message)
    else:
        print("WARNING:absl:" + message, file=_sys.stderr)


_sanitization_warnings = [0]  # TF warns for the first five names it renames in a process


def _sanitize_arg_name(name):
    """TF's function_type.sanitize_arg_name: what is not alphanumeric becomes _, and a name
    that does not start with a letter gets an arg_ prefix."""
    swapped = "".join(c if c.isalnum() else "_" for c in name)
    result = swapped if swapped[0].isalpha() else "arg_" + swapped
    if result != name and _sanitization_warnings[0] < 5:
        _absl_warning("`%s` is not a valid tf.function parameter name. Sanitizing to `%s`." %
                      (name, result))
        _sanitization_warnings[0] += 1
    return result


def _sanitize_kwargs(kwargs):
    """The keyword arguments under their sanitized names; TF's error when two collide."""
    out = {_sanitize_arg_name(k): v for k, v in kwargs.items()}
    if len(out) != len(kwargs):
        raise ValueError("Name collision after sanitization. Please rename tf.function input "
                         "parameters. Original: %s, Sanitized: %s" % (sorted(kwargs), sorted(out)))
    return out


_PARAM_KINDS = {v: k for k, v in _KINDS.items()}


class _TypeConstraint:
    """A parameter's type constraint (a TraceType), shown as TF shows it."""

    __slots__ = ("_repr",)

    def __init__(self, text):
        self._repr = text

    def __repr__(self):
        return self._repr


class _Parameter:
    """One parameter of a ConcreteFunction's FunctionType (TF's function_type.Parameter)."""

    __slots__ = ("name", "kind", "optional", "type_constraint")

    def __init__(self, name, kind, type_text):
        self.name = name
        self.kind = _PARAM_KINDS[kind]
        # A trace's type binds every parameter (defaults are literals of it): none is optional.
        self.optional = False
        self.type_constraint = _TypeConstraint(type_text)

    def __repr__(self):
        return "Parameter(name=%s, kind=%s, optional=%s, type_constraint=%r)" % (
            self.name, self.kind, self.optional, self.type_constraint)


class _FunctionType:
    """cf.function_type: prints as TF's FunctionType does (the short signature)."""

    def __init__(self, text, core=None):
        self._text = text
        self._core = core

    @property
    def parameters(self):
        import types
        return types.MappingProxyType(collections.OrderedDict(
            (name, _Parameter(name, kind, text))
            for name, kind, text in _core.function_type_params(self._core)))

    def __str__(self):
        return self._text

    def __repr__(self):
        return self._text


# One Python object per concrete function, as TF returns the same ConcreteFunction each time.
_wrappers = weakref.WeakValueDictionary()


def _wrap_concrete(core):
    key = core.name
    cf = _wrappers.get(key)
    if cf is None:
        cf = ConcreteFunction(core)
        _wrappers[key] = cf
    return cf


class _TraceView:
    """What a ConcreteFunction and its FuncGraph both show of one trace (TF's ConcreteFunction
    forwards these to its graph)."""

    def __init__(self, core):
        self._core = core

    @property
    def variables(self):
        # The variables the trace captured, in capture order, as the user's Variable objects.
        out = []
        for t in self._core.captured_inputs:
            uid = t._variable_uid
            v = None if uid is None else _live_variables.get(uid)
            if v is not None and all(v is not w for w in out):
                out.append(v)
        return tuple(out)

    @property
    def trainable_variables(self):
        return tuple(v for v in self.variables if v.trainable)

    @property
    def inputs(self):
        return list(self._core.inputs)

    @property
    def outputs(self):
        return list(self._core.outputs)

    @property
    def structured_input_signature(self):
        return self._core.structured_input_signature

    @property
    def structured_outputs(self):
        return self._core.structured_outputs


class ConcreteFunction(_TraceView):
    """A traced graph for one input signature (TF's ConcreteFunction)."""

    @property
    def function_type(self):
        return _FunctionType(self._core.pretty_printed_signature(False), self._core)

    @property
    def inference_fn(self):
        return _AtomicFunction(self._core)

    @property
    def name(self):
        return self._core.name.encode()

    @property
    def graph(self):
        return FuncGraph(self._core)

    @property
    def captured_inputs(self):
        return list(self._core.captured_inputs)

    @property
    def output_shapes(self):
        return _nest.map_structure(lambda t: t.shape, self.structured_outputs)

    @property
    def output_dtypes(self):
        return _nest.map_structure(lambda t: t.dtype, self.structured_outputs)

    def pretty_printed_signature(self, verbose=True):
        return self._core.pretty_printed_signature(verbose)

    def __call__(self, *args, **kwargs):
        return self._core.call(*args, **kwargs)

    def __repr__(self):
        return "<ConcreteFunction %s at 0x%X>" % (self.pretty_printed_signature(False), id(self))

    def __str__(self):
        return "ConcreteFunction " + self.pretty_printed_signature(True)


class _AtomicFunction:
    """cf.inference_fn: the traced graph as one callable function (TF's AtomicFunction)."""

    def __init__(self, core):
        self._core = core

    @property
    def name(self):
        return self._core.name.encode()

    @property
    def function_type(self):
        return _FunctionType(self._core.pretty_printed_signature(False), self._core)

    def __call__(self, *args):
        # TF's AtomicFunction takes the flat tensors (captures included) and returns flat outputs.
        n = len(self._core.captured_inputs)
        return self._core.call_flat(list(args[:len(args) - n] if n else args))

    def __str__(self):
        return "<AtomicFunction> %s%s" % (self._core.name,
                                          self._core.pretty_printed_signature(False))


class _Func:
    __slots__ = ("name",)

    def __init__(self, name):
        self.name = name


class _AttrList:
    __slots__ = ("type", "i", "s")

    def __init__(self, type=(), i=(), s=()):  # noqa: A002
        self.type, self.i, self.s = list(type), list(i), list(s)


class _AttrValue:
    """One NodeDef attr, as TF's AttrValue proto reads: .func.name, .list.type, .list.i, .s, ..."""

    def __init__(self, kind, value):
        self._kind = kind
        self.func = _Func(value if kind == "func" else "")
        self.list = _AttrList(type=value if kind == "list_type" else (),
                              i=value if kind == "list_i" else (),
                              s=value if kind == "list_s" else ())
        self.s = value if kind == "s" else b""
        self.type = value if kind == "type" else 0
        self.i = value if kind == "i" else 0
        self.b = value if kind == "b" else False
        self.f = value if kind == "f" else 0.0

    def HasField(self, name):  # noqa: N802  (the proto API)
        if name == "list":
            return self._kind in ("list_type", "list_i", "list_s")
        return self._kind == name

    def WhichOneof(self, _):  # noqa: N802
        return "list" if self._kind in ("list_type", "list_i", "list_s") else self._kind


class _NodeDef:
    __slots__ = ("name", "op", "input", "attr")

    def __init__(self, name, op, inputs, attrs=None):
        self.name, self.op, self.input = name, op, list(inputs)
        self.attr = {k: _AttrValue(*v) for k, v in (attrs or {}).items()}

    def __repr__(self):
        return "node { name: %r op: %r }" % (self.name, self.op)


class _ArgDef:
    __slots__ = ("name",)

    def __init__(self, name):
        self.name = name


class _FunctionDef:
    def __init__(self, name, args, nodes):
        self.signature = type("Sig", (), {})()
        self.signature.name = name
        self.signature.input_arg = [_ArgDef(a) for a in args]
        self.node_def = [_NodeDef(*n) for n in nodes]


class _GraphDef:
    def __init__(self, core):
        self._core = core
        self.node = [_NodeDef(*n) for n in core.nodes()]
        self.library = type("Lib", (), {})()
        self.library.function = [_FunctionDef(*f) for f in core.library()]

    def __str__(self):
        return _core.graph_def_text(self._core)


class _OpNodeDef:
    """op.node_def: name, op and inputs, printed as TF's NodeDef text proto."""

    def __init__(self, op):
        self._op = op
        self.name, self.op, self.device = op.name, op.type, ""
        # As a GraphDef writes inputs: "x" for output 0, "split:1", then "^name" sorted.
        self.input = ([t.name[:-2] if t.name.endswith(":0") else t.name for t in op._inputs] +
                      ["^" + c for c in sorted(op._control)])

    def __str__(self):
        return self._op._node_text()


class _TensorShapeProto:
    """A shape attr as TF's get_attr returns it (TensorShapeProto): .dim[i].size, .unknown_rank."""

    def __init__(self, shape):
        dims = shape.as_list() if shape.rank is not None else None
        self.unknown_rank = dims is None
        self.dim = [type("Dim", (), {"size": -1 if d is None else d})() for d in dims or ()]

    def __str__(self):
        if self.unknown_rank:
            return "unknown_rank: true\n"
        return "".join("dim {\n  size: %d\n}\n" % d.size for d in self.dim)


class Operation:
    """tf.Operation: a node of a traced graph (Tensor.op, graph.get_operations())."""

    def __init__(self, view, source, graph=None):
        # view: (name, type, input tensors, output tensors, control input names, attrs) from
        # _core; source: the tensor or function core whose graph holds the node.
        self._name, self._type, self._inputs, self._outputs, self._control, self._attrs = view
        self._source = source
        self._graph = graph

    name = property(lambda self: self._name)
    type = property(lambda self: self._type)
    inputs = property(lambda self: list(self._inputs))
    outputs = property(lambda self: list(self._outputs))
    device = property(lambda self: "")
    graph = property(lambda self: self._graph)

    def values(self):
        return tuple(self._outputs)

    @property
    def control_inputs(self):
        return [Operation(_operation_view(self._source, n), self._source, self._graph)
                for n in self._control]

    @property
    def node_def(self):
        return _OpNodeDef(self)

    def _node_text(self):
        return str(_core.node_def_text(self._source, self._name))

    def get_attr(self, name):
        if name not in self._attrs:
            raise ValueError("Operation '%s' has no attr named '%s'." % (self._name, name))
        kind, value = self._attrs[name]
        if kind == "type":
            return _types.as_dtype(value)
        if kind == "list_type":
            return [_types.as_dtype(v) for v in value]
        if kind == "shape":
            return _TensorShapeProto(value)
        if kind == "func":
            return _Func(value)
        return value

    # Equal by name: each view of a node is built afresh.
    def __eq__(self, other):
        return isinstance(other, Operation) and other._name == self._name

    def __hash__(self):
        return hash(self._name)

    def __str__(self):
        return self._node_text()

    def __repr__(self):
        return "<tf.Operation '%s' type=%s>" % (self._name, self._type)


_core.Tensor.op = property(lambda t: Operation(_core.operation_of(t), t))


def _operation_view(source, name):
    """The view of node `name` in the graph of `source` (a function core or a symbolic tensor),
    or None."""
    if isinstance(source, _core.Tensor):
        return _core.graph_operation(source, name)
    return source.operation(name)


class FuncGraph(_TraceView):
    """The graph of a ConcreteFunction (read-only view)."""

    @property
    def name(self):
        return self._core.graph_name

    def as_graph_def(self):
        return _GraphDef(self._core)

    @property
    def captures(self):
        # (external, internal) per captured tensor: the captured value and its graph input.
        ext = self._core.captured_inputs
        ins = self._core.inputs
        return list(zip(ext, ins[len(ins) - len(ext):])) if ext else []

    def get_operations(self):
        return [Operation(v, self._core, self) for v in self._core.operations()]

    def get_operation_by_name(self, name):
        view = self._core.operation(name)
        if view is None:
            raise KeyError("The name %s refers to an Operation not in the graph." % repr(name))
        return Operation(view, self._core, self)

    def get_tensor_by_name(self, name):
        if ":" not in name:
            raise ValueError(
                "The name %s refers to an Operation, not a Tensor. Tensor names must be of the "
                "form \"<op_name>:<output_index>\"." % repr(name))
        op_name, _, index = name.rpartition(":")
        view = self._core.operation(op_name)
        if view is None:
            raise KeyError("The name %s refers to a Tensor which does not exist. The operation, "
                           "%s, does not exist in the graph." % (repr(name), repr(op_name)))
        outs = view[3]
        k = int(index)
        if not 0 <= k < len(outs):
            raise KeyError("The name %s refers to a Tensor which does not exist. The operation, "
                           "%s, exists but only has %d outputs." % (repr(name), repr(op_name),
                                                                    len(outs)))
        return outs[k]

    def __repr__(self):
        return "<FuncGraph %s>" % self.name


class Function:
    """The polymorphic function tf.function returns."""

    def __init__(self, python_function, name=None, input_signature=None, reduce_retracing=False,
                 autograph=True, jit_compile=None, _bound_instance=None, _detector=None,
                 max_cache_entries=None):
        self._python_function = python_function
        self._name = name or getattr(python_function, "__name__", "function")
        self._input_signature = input_signature
        self._reduce_retracing = reduce_retracing
        self._autograph = autograph
        self._jit_compile = jit_compile
        self._max_cache_entries = max_cache_entries
        if max_cache_entries is not None and (not isinstance(max_cache_entries, int) or
                                              isinstance(max_cache_entries, bool) or
                                              max_cache_entries < 1):
            raise ValueError("max_cache_entries must be a positive int or None, got %r" %
                             (max_cache_entries,))
        self._descriptor_cache = weakref.WeakKeyDictionary()
        self._trace_sites = []  # the call site of each trace, for ledger_json
        functools.update_wrapper(self, python_function, updated=())
        target = python_function
        sig = inspect.signature(target)
        params = []
        for p in sig.parameters.values():
            if _bound_instance is None and p.name == "self" and input_signature is not None:
                continue  # a method: the signature covers the parameters after self
            has_default = p.default is not inspect.Parameter.empty
            params.append((p.name, _KINDS[p.kind], has_default, p.default if has_default else None))
        if input_signature is not None:
            if not isinstance(input_signature, (list, tuple)):
                raise TypeError("input_signature must be either a tuple or a list, got %s." %
                                type(input_signature))
            _check_signature(input_signature)
        self._param_names = [p[0] for p in params]
        display = str(_innermost(python_function)) if _bound_instance is not None else str(python_function)
        # The engine holds the body; a weak reference back to this Function keeps the pair
        # collectable (a C++-held Python callable is invisible to Python's cycle collector).
        this = weakref.ref(self)

        def body(args, kwargs):
            return this()._body(args, kwargs)

        self._core = _core.FunctionCore(
            self._name, params, body,
            None if input_signature is None else list(input_signature),
            bool(reduce_retracing), _detector or _detector_key(python_function), display,
            max_cache_entries or 0)

    def _body(self, args, kwargs):
        self._trace_sites.append(_call_site())
        copy = _nest.pack_sequence_as((args, kwargs), _nest.flatten((args, kwargs)))
        target = self._python_function
        if self._autograph:  # AutoGraph: run the converted function (tfscope.autograph)
            target = _autograph_convert(target)
        result = target(*args, **kwargs)
        _check_not_mutated(self._python_function, copy[0], args, copy[1], kwargs)
        return result

    @property
    def python_function(self):
        return self._python_function

    @property
    def input_signature(self):
        return self._input_signature

    def __call__(self, *args, **kwargs):
        if not kwargs and self._input_signature is None:
            # The common call: no keyword dict to pass along, and the engine checks
            # tf.config.run_functions_eagerly itself (RUN_EAGERLY when it is on).
            r = self._core.call_positional(*args)
            if r is not _RUN_EAGERLY:
                return r
        if _core.functions_run_eagerly():
            # tf.config.run_functions_eagerly(True): the Python function itself, no tracing.
            return self._python_function(*args, **kwargs)
        if kwargs:
            kwargs = _sanitize_kwargs(kwargs)
        if self._input_signature is not None and args:
            args = _convert_numpy_to_signature(args, self._input_signature)
        return self._core.call(*args, **kwargs)

    def get_concrete_function(self, *args, **kwargs):
        if kwargs:
            kwargs = _sanitize_kwargs(kwargs)
        return _wrap_concrete(self._core.get_concrete_function(*args, **kwargs))

    def experimental_get_tracing_count(self):
        return self._core.experimental_get_tracing_count()

    def experimental_get_compiler_ir(self, *args, **kwargs):
        return _compiler_ir.compiler_ir_getter(self, args, kwargs)

    def pretty_printed_concrete_signatures(self, verbose=True):
        return self._core.pretty_printed_concrete_signatures(verbose)

    def concrete_functions(self):
        return [_wrap_concrete(c) for c in self._core.concrete_functions()]

    # tfscope's extras.
    def ledger(self):
        """Why each call traced or hit, one entry per call (text)."""
        return self._core.ledger_text()

    def ledger_json(self):
        """The ledger as JSON, with the function's name and def (file, first line, as
        __code__ gives them) and the call site ("file:line") of each traced entry: what
        `tfscope lint --ledger` joins its findings with."""
        data = _json.loads(self._core.ledger_json())
        code = getattr(_innermost(self._python_function), "__code__", None)
        data["function"] = self._name
        if code is not None:
            data["file"] = code.co_filename
            data["line"] = code.co_firstlineno
        sites = iter(self._trace_sites)
        for entry in data.get("entries", []):
            if entry.get("traced") or entry.get("error"):
                entry["call_site"] = next(sites, "")
        return _json.dumps(data)

    def fail_on_retrace(self, on=True):
        """From now on every trace raises, naming the reason."""
        self._core.set_fail_on_retrace(on)
        return self

    def __get__(self, instance, owner=None):
        if instance is None:
            return self
        fn = self._descriptor_cache.get(instance)
        if fn is None:
            bound = types_method(self._python_function, instance)
            fn = Function(bound, name=self._name, input_signature=self._input_signature,
                          reduce_retracing=self._reduce_retracing, autograph=self._autograph,
                          jit_compile=self._jit_compile, _bound_instance=instance,
                          _detector=_detector_key(self._python_function),
                          max_cache_entries=self._max_cache_entries)
            self._descriptor_cache[instance] = fn
        return fn

    def __repr__(self):
        return "<tfscope.Function %s>" % self._name


class _save_context:  # noqa: N801  (a context manager)
    """While alive, this thread is inside tf.saved_model.save: traces are keyed apart."""

    def __enter__(self):
        _core.enter_save_context()

    def __exit__(self, *exc):
        _core.exit_save_context()
        return False


def _trace_for_saving(obj, _seen=None):
    """tf.saved_model.save traces every tf.function reachable from the saved object again, in its
    save context (TF 2.21: a function traced once has a tracing count of 2 after the save; a
    second save adds nothing). The traces are kept apart from the others in the cache."""
    seen = set() if _seen is None else _seen
    if id(obj) in seen:
        return
    seen.add(id(obj))
    if isinstance(obj, Function):
        obj._core.trace_for_saving()
        return
    if isinstance(obj, (list, tuple)):
        for x in obj:
            _trace_for_saving(x, seen)
        return
    if isinstance(obj, dict):
        for x in obj.values():
            _trace_for_saving(x, seen)
        return
    from . import Module  # the package's tf.Module (imported late: it imports this file)
    if not isinstance(obj, Module):
        return
    for name in sorted(dir(type(obj))):
        if isinstance(inspect.getattr_static(type(obj), name, None), Function):
            _trace_for_saving(getattr(obj, name), seen)
    for name, value in sorted(vars(obj).items()):
        if name != "_descriptor_cache":
            _trace_for_saving(value, seen)


def _convert_numpy_to_signature(args, signature):
    # TF converts numpy arrays to the signature's dtype (a tf.Tensor of another dtype fails).
    out = list(args)
    for i, (a, spec) in enumerate(zip(args, signature)):
        if isinstance(a, _np.ndarray) and isinstance(spec, TensorSpec) and spec.dtype is not None:
            try:
                out[i] = _core.constant_from_value(a, spec.dtype)
            except Exception:  # leave it to the binding to report
                pass
    return tuple(out)


def types_method(fn, instance):
    import types
    return types.MethodType(fn, instance)


def _check_signature(sig):

    def leaves(x):
        if isinstance(x, (list, tuple)):
            for y in x:
                yield from leaves(y)
        elif isinstance(x, dict):
            for y in x.values():
                yield from leaves(y)
        else:
            yield x

    def is_spec(x):  # a TensorSpec, or a TypeSpec that traces as itself (tf.RaggedTensorSpec)
        return isinstance(x, TensorSpec) or (isinstance(x, _trace_type.TraceType) and
                                             hasattr(type(x), "__tf_tracing_type__"))

    bad = [x for x in leaves(sig) if not is_spec(x)]
    if bad:
        raise TypeError("input_signature must be a possibly nested sequence of TensorSpec objects, "
                        "got invalid args %s with types %s." % (bad, [type(b) for b in bad]))


def function(func=None, input_signature=None, autograph=True, jit_compile=None,
             reduce_retracing=False, experimental_implements=None,
             experimental_autograph_options=None, experimental_attributes=None,
             experimental_relax_shapes=None, experimental_compile=None,
             experimental_follow_type_hints=None, *, name=None, max_cache_entries=None):
    """tf.function: returns a Function that traces ``func`` by TF 2.21's rules.

    ``max_cache_entries`` is a tfscope extension (TF's cache is unbounded): at most that many
    traces are kept, the least recently used one is evicted, and the ledger names each eviction.
    """
    if experimental_relax_shapes:
        reduce_retracing = True

    def decorate(f):
        return Function(f, name=name, input_signature=input_signature,
                        reduce_retracing=reduce_retracing, autograph=autograph,
                        jit_compile=jit_compile, max_cache_entries=max_cache_entries)

    if func is None:
        return decorate
    return decorate(func)
