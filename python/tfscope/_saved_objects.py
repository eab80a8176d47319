"""The object graph of a TF 2 SavedModel rebuilt as tf.saved_model.load rebuilds it.

User objects get their children as attributes (variables restored from variables/, nested
objects, functions); a restored function is a tf.function whose body picks the first saved
concrete function the call's inputs fit, first without converting Python values to tensors and
then with (TF's function_deserialization.recreate_function), and raises TF's "Could not find
matching concrete function" error otherwise. The call itself is a (Stateful)PartitionedCall of
the restored concrete function, inside the trace of the restored function. Printed, a restored
function lists its saved traces and a bare concrete function is a ConcreteFunction, as TF prints
them (the text itself is src/function/signature_text.cc's).
"""
import inspect as _inspect
import pprint as _pprint

from . import _core
from ._function import Function as _Function


class _UserObject:
    """A restored user object (TF's _UserObject): its saved children as attributes."""


class Asset:
    """tf.saved_model.Asset: a file the SavedModel carries in assets/; asset_path is a string
    tensor with its path (after loading, the copy's)."""

    def __init__(self, path):
        from . import constant
        if not isinstance(path, str):
            path = path.numpy().decode()
        self.asset_path = constant(path)

    def __repr__(self):
        return "<tfscope.saved_model.Asset %r>" % (self.asset_path.numpy().decode(),)


def _is_tensor(x):
    from . import Tensor
    return isinstance(x, Tensor)


def _flatten_up_to(shallow, value):
    """nest.flatten_up_to with check_types: TypeError/ValueError where value does not fit."""
    if isinstance(shallow, dict):
        if not isinstance(value, dict):
            raise TypeError("expected a dict")
        if sorted(shallow) != sorted(value):
            raise ValueError("dict keys differ")
        out = []
        for k in sorted(shallow):
            out.extend(_flatten_up_to(shallow[k], value[k]))
        return out
    if isinstance(shallow, (list, tuple)):
        if type(shallow) is not type(value):
            is_nt = hasattr(shallow, "_fields")
            if not (is_nt and hasattr(value, "_fields") and
                    type(value).__name__ == type(shallow).__name__ and
                    tuple(value._fields) == tuple(shallow._fields)):
                raise TypeError("sequence types differ")
        if len(shallow) != len(value):
            raise ValueError("lengths differ")
        out = []
        for s, v in zip(shallow, value):
            out.extend(_flatten_up_to(s, v))
        return out
    return [value]


def _flatten(structure):
    from . import nest
    return nest.flatten(structure)


def _try_convert_to_spec(arg, dtype_hint):
    from . import TensorSpec, convert_to_tensor
    if _is_tensor(arg):
        return TensorSpec(arg.shape, arg.dtype)
    try:
        t = convert_to_tensor(arg, dtype_hint=dtype_hint)
    except (TypeError, ValueError):
        return None
    return TensorSpec(t.shape, t.dtype)


def _callable_with(cf, inputs, allow_conversion):
    from . import TensorSpec
    expected = cf.input_signature
    try:
        flat_inputs = _flatten_up_to(expected, inputs)
    except (TypeError, ValueError):
        return False
    for arg, spec in zip(flat_inputs, _flatten(expected)):
        if isinstance(spec, TensorSpec):
            if allow_conversion:
                arg = _try_convert_to_spec(arg, spec.dtype)
            if not _is_tensor(arg) and not isinstance(arg, TensorSpec):
                return False
            if arg.dtype != spec.dtype:
                return False
            if not spec.shape.is_compatible_with(arg.shape):
                return False
        elif _is_tensor(arg):
            if arg is not spec:
                return False
        elif arg != spec:
            return False
    return True


def _call(cf, inputs):
    from . import TensorSpec, convert_to_tensor, nest
    expected = cf.input_signature
    flat = []
    for arg, spec in zip(_flatten_up_to(expected, inputs), _flatten(expected)):
        if isinstance(spec, TensorSpec):
            flat.append(convert_to_tensor(arg, dtype_hint=spec.dtype))
    if cf.import_error:
        raise NotImplementedError(cf.import_error)
    outs = cf.call_flat(flat)
    structure = cf.output_signature
    if structure is None:
        return None
    return nest.pack_sequence_as(structure, list(outs))


def _signature_of(fullargspec, is_method):
    """inspect.Signature of a saved FullArgSpec, self dropped as TF drops it."""
    P = _inspect.Parameter
    if fullargspec is None:
        return _inspect.Signature([P("args", P.VAR_POSITIONAL), P("kwargs", P.VAR_KEYWORD)])
    fields = ("args", "varargs", "varkw", "defaults", "kwonlyargs", "kwonlydefaults")
    if not all(hasattr(fullargspec, f) for f in fields):  # a damaged or foreign saved_model.pb
        raise ValueError("malformed SavedModel: a function's function_spec.fullargspec is a %s, "
                         "not a FullArgSpec" % type(fullargspec).__name__)
    args = list(fullargspec.args or [])
    if is_method or (args and args[0] == "self"):
        args = args[1:]
    defaults = list(fullargspec.defaults or [])
    params = []
    first_default = len(args) - len(defaults)
    for i, a in enumerate(args):
        if i >= first_default:
            params.append(P(a, P.POSITIONAL_OR_KEYWORD, default=defaults[i - first_default]))
        else:
            params.append(P(a, P.POSITIONAL_OR_KEYWORD))
    if fullargspec.varargs:
        params.append(P(fullargspec.varargs, P.VAR_POSITIONAL))
    kwdefaults = fullargspec.kwonlydefaults or {}
    for a in fullargspec.kwonlyargs or []:
        params.append(P(a, P.KEYWORD_ONLY, default=kwdefaults.get(a, P.empty)))
    if fullargspec.varkw:
        params.append(P(fullargspec.varkw, P.VAR_KEYWORD))
    return _inspect.Signature(params)


def _canonical(sig, args, kwargs):
    """(args, kwargs) as TF canonicalizes them: positional-or-keyword parameters by position,
    defaults filled in; keyword-only and **kwargs as keywords."""
    bound = sig.bind(*args, **kwargs)
    bound.apply_defaults()
    pos, kw = [], {}
    P = _inspect.Parameter
    for name, p in sig.parameters.items():
        if name not in bound.arguments:
            continue
        v = bound.arguments[name]
        if p.kind == P.POSITIONAL_OR_KEYWORD or p.kind == P.POSITIONAL_ONLY:
            pos.append(v)
        elif p.kind == P.VAR_POSITIONAL:
            pos.extend(v)
        elif p.kind == P.KEYWORD_ONLY:
            kw[name] = v
        else:
            kw.update(v)
    return tuple(pos), kw


def _positional_text(positional):
    return "Positional arguments ({} total):\n    * {}".format(
        len(positional), "\n    * ".join(_pprint.pformat(a) for a in positional))


def _no_match_error(cfs, args, kwargs):
    options = []
    for i, cf in enumerate(cfs):
        positional, keyword = cf.input_signature
        options.append("Option {}:\n  {}\n  Keyword arguments: {}".format(
            i + 1, _positional_text(positional), keyword))
    return ValueError(
        "Could not find matching concrete function to call loaded from the SavedModel. Got:\n"
        "  {}\n  Keyword arguments: {}\n\n Expected these arguments to match one of the "
        "following {} option(s):\n\n{}".format(_positional_text(args), kwargs, len(cfs),
                                                "\n\n".join(options)))


def _saved_parameters(sig, has_input_signature, input_signature):
    """The parameters TF gives a saved trace when it restores it (canonicalize_to_monomorphic
    over the saved function's parameters): (name, kind name, value) each. With a VAR_POSITIONAL
    every positional parameter is POSITIONAL_ONLY and *args unrolls into <name>_0, <name>_1..;
    under an input_signature *args unrolls into POSITIONAL_OR_KEYWORD args_0..; keyword
    arguments are KEYWORD_ONLY, a **kwargs' in sorted order."""
    P = _inspect.Parameter
    args, kwargs = input_signature
    params = list(sig.parameters.values())
    positional = [p for p in params if p.kind in (P.POSITIONAL_ONLY, P.POSITIONAL_OR_KEYWORD)]
    var = next((p for p in params if p.kind == P.VAR_POSITIONAL), None)
    out = []
    for i, value in enumerate(args):
        if i < len(positional):
            name = positional[i].name
            kind = P.POSITIONAL_ONLY if var is not None and not has_input_signature \
                else positional[i].kind
        else:
            name = "%s_%d" % (var.name if var is not None else "args", i - len(positional))
            kind = P.POSITIONAL_OR_KEYWORD if has_input_signature else P.POSITIONAL_ONLY
        out.append((name, kind.name, value))
    keyword_only = [p.name for p in params if p.kind == P.KEYWORD_ONLY]
    for name in keyword_only + sorted(k for k in kwargs if k not in keyword_only):
        if name in kwargs:
            out.append((name, P.KEYWORD_ONLY.name, kwargs[name]))
    return out


def saved_signature_text(cf, sig, has_input_signature, verbose):
    """A saved trace's pretty_printed_signature as TF prints it restored: its saved input and
    output specs (names included), `Captures: None` (TF restores the captures apart)."""
    params = _saved_parameters(sig, has_input_signature, cf.input_signature)
    return _core.signature_text(params, cf.output_signature, verbose)


def restored_function(model, node):
    """A tf.function over the concrete functions a SavedFunction lists."""
    cfs = [model.concrete_function(name) for name in node["concrete_functions"]]
    sig = _signature_of(node["fullargspec"], node["is_method"])

    def restored_function_body(*args, **kwargs):
        if not cfs:
            raise ValueError("Found zero restored functions for caller function.")
        args, kwargs = _canonical(sig, args, kwargs)
        inputs = (args, kwargs)
        for allow_conversion in (False, True):
            for cf in cfs:
                if _callable_with(cf, inputs, allow_conversion):
                    return _call(cf, inputs)
        raise _no_match_error(cfs, args, kwargs)

    restored_function_body.__signature__ = sig
    restored_function_body._model = model  # the C++ model outlives the function
    spec = node["input_signature"]
    return RestoredFunction(restored_function_body, cfs, sig,
                            input_signature=None if spec is None else list(spec))


class RestoredFunction(_Function):
    """TF's RestoredFunction: a tf.function whose concrete functions, as it lists and prints
    them, are the saved traces (in the saved order), whatever it has traced since."""

    def __init__(self, body, saved, sig, input_signature):
        super().__init__(body, name="restored_function_body", input_signature=input_signature,
                         autograph=False, _detector="omit:restored_function_body")
        self._saved = saved
        self._saved_sig = sig

    def pretty_printed_concrete_signatures(self, verbose=True):
        has_spec = self.input_signature is not None
        return ("\n\n" if verbose else "\n").join(
            saved_signature_text(cf, self._saved_sig, has_spec, verbose) for cf in self._saved)


class RestoredConcreteFunction:
    """A bare concrete function of the object graph (a function's trace_N, a signature):
    called with its arguments by position (up to allowed_positional_arguments) or keyword."""

    def __init__(self, model, node):
        self._model = model
        self._cf = model.concrete_function(node["concrete_functions"][0])
        self._keywords = list(node["argument_keywords"])
        self._positional = int(node["allowed_positional_arguments"])
        spec = node["fullargspec"]
        self._sig = None if spec is None else _signature_of(spec, node["is_method"])

    @property
    def name(self):
        return self._cf.name

    @property
    def structured_input_signature(self):
        return self._cf.input_signature

    @property
    def structured_outputs(self):
        return self._cf.output_signature

    def __call__(self, *args, **kwargs):
        if len(args) > self._positional:
            raise TypeError("%s() takes at most %d positional arguments (%d given)"
                            % (self.name, self._positional, len(args)))
        values = dict(zip(self._keywords, args))
        for k, v in kwargs.items():
            if k not in self._keywords:
                raise TypeError("%s() got an unexpected keyword argument '%s'" % (self.name, k))
            if k in values:
                raise TypeError("%s() got multiple values for argument '%s'" % (self.name, k))
            values[k] = v
        positional, keyword = self._cf.input_signature
        n = len(positional)
        pos = tuple(values[k] for k in self._keywords[:n] if k in values)
        kw = {k: values[k] for k in self._keywords[n:] if k in values}
        inputs = (pos, kw)
        if not _callable_with(self._cf, inputs, True):
            raise _no_match_error([self._cf], pos, kw)
        return _call(self._cf, inputs)

    def pretty_printed_signature(self, verbose=True):
        """As TF prints a restored bare concrete function: with its saved function_spec the
        parameters a restored trace has, else TF's from_structured_signature ones (arg_<i>
        positional-only, then keyword-only); its bound inputs as its captures."""
        if self._sig is not None:
            params = _saved_parameters(self._sig, False, self._cf.input_signature)
        else:
            positional, keyword = self._cf.input_signature
            params = [("arg_%d" % i, "POSITIONAL_ONLY", v) for i, v in enumerate(positional)]
            params += [(k, "KEYWORD_ONLY", v) for k, v in keyword.items()]
        return _core.signature_text(params, self._cf.output_signature, verbose,
                                    list(self._cf.captured_inputs))

    def __str__(self):
        return "ConcreteFunction " + self.pretty_printed_signature(True)

    def __repr__(self):
        return "<ConcreteFunction %s at 0x%X>" % (self.pretty_printed_signature(False), id(self))


def restore(model, root, reserved=()):
    """Rebuilds the object graph of `model` (a LoadedModelCore) under `root` (node 0)."""
    from . import Variable
    nodes = _core.saved_model_objects(model)
    built = []
    for i, n in enumerate(nodes):
        kind = n["kind"]
        if i == 0:
            obj = root
        elif kind == "variable":
            obj = Variable._wrap(n["variable"])
        elif kind == "constant":
            obj = n["constant"]
        elif kind == "function":
            obj = restored_function(model, n)
        elif kind == "bare_concrete_function":
            obj = RestoredConcreteFunction(model, n)
        elif kind == "asset":
            obj = Asset(n["asset_path"])
        elif kind == "user_object" and n["identifier"] == "signature_map":
            obj = {}
        else:
            # Each its own class, so that a saved __call__ makes that object callable (TF's
            # _recreate_base_user_object does the same).
            obj = type("_UserObject", (_UserObject,), {})()
        built.append(obj)
    for i, n in enumerate(nodes):
        obj = built[i]
        for name, child in n["children"]:
            if isinstance(obj, dict):
                obj[name] = built[child]
            elif i == 0 and name in reserved:
                continue
            else:
                try:
                    setattr(obj, name, built[child])
                except AttributeError:
                    continue
                if name == "__call__":
                    if i == 0:
                        obj.__class__ = type(type(obj).__name__, (type(obj),), {})
                    type(obj).__call__ = _call_attribute
    return built


def signature_concrete_functions(model):
    """{key: the concrete function (its wrapper) a signature runs}, from the object graph's
    signature map; empty for a model without one."""
    nodes = _core.saved_model_objects(model)
    for name, child in nodes[0]["children"] if nodes else []:
        if name == "signatures" and nodes[child]["identifier"] == "signature_map":
            return {key: model.concrete_function(nodes[i]["concrete_functions"][0])
                    for key, i in nodes[child]["children"] if nodes[i]["concrete_functions"]}
    return {}


def _call_attribute(self, *args, **kwargs):
    return self.__dict__["__call__"](*args, **kwargs)


def _fullargspec(fn):
    """The FullArgSpec TF saves for a tf.function: the Python function's, self dropped."""
    import collections
    FullArgSpec = collections.namedtuple(
        "FullArgSpec", ["args", "varargs", "varkw", "defaults", "kwonlyargs", "kwonlydefaults",
                        "annotations"])
    spec = _inspect.getfullargspec(fn.python_function)
    args = list(spec.args)
    if args and args[0] == "self":
        args = args[1:]
    return FullArgSpec(args, spec.varargs, spec.varkw,
                       None if spec.defaults is None else tuple(spec.defaults),
                       list(spec.kwonlyargs), spec.kwonlydefaults, {})


def _trackable(value):
    """An object TF tracks as an attribute: variables, modules, functions, assets, and every list,
    tuple or dict (TF wraps them, so they are nodes even when they hold nothing trackable)."""
    from . import Module, Variable
    from ._function import Function
    from ._checkpoint import Checkpoint
    return isinstance(value, (Variable, Module, Function, Asset, Checkpoint, list, tuple, dict))


def _container_children(o):
    items = enumerate(o) if isinstance(o, (list, tuple)) else o.items()
    return [(str(k), x) for k, x in items if _trackable(x)]


def checkpoint_children(o):
    """An object's children in a checkpoint (its tf.functions left out), as (local name, child)."""
    from . import Variable
    if isinstance(o, (list, tuple, dict)):
        return _container_children(o)
    if isinstance(o, (Variable, Asset)) or not hasattr(o, "__dict__"):
        return []
    return _children(o, functions=False)


def _children(obj, functions=True):
    """What TF's AutoTrackable lists: trackable attributes in assignment order, then (for a
    SavedModel, not a checkpoint) the object's tf.functions by name."""
    from ._function import Function
    out = []
    names = set()
    for name, value in vars(obj).items():
        if (name == "_descriptor_cache" or name.startswith("_tfscope_") or not _trackable(value)
                or isinstance(value, Function)):
            continue
        out.append((name, value))
        names.add(name)
    if not functions:
        return out
    functions = []
    for name in sorted(dir(obj)):
        if name in names:
            continue
        static = _inspect.getattr_static(type(obj), name, None)
        value = vars(obj).get(name, static)
        if isinstance(value, Function) or isinstance(static, Function):
            functions.append((name, getattr(obj, name)))
    return out + functions


def number_objects(root, describe):
    """The objects reachable from `root`, each numbered at its first visit, depth first (root 0),
    as both of TF's object-graph writers take them (SavedModel, checkpoint): `describe(o, i)`
    gives an object's entry, the list its children's (local name, index) go into, and its
    children as (local name, object). Returns the entries by index."""
    entries, index = [], {}

    def visit(o):
        if id(o) in index:
            return index[id(o)]
        i = len(entries)
        index[id(o)] = i
        entry, slot, children = describe(o, i)
        entries.append(entry)
        for name, child in children:
            slot.append((name, visit(child)))
        return i

    visit(root)
    return entries


def collect(root):
    """The object tree under `root` for _core.saved_model_save_objects, root first."""
    from . import Module, Variable
    from ._function import Function

    def describe(o, i):
        entry = ["user_object", "_generic_user_object", [], None, [], None, None]
        children = []
        if isinstance(o, Variable):
            entry[0], entry[3] = "variable", o
        elif isinstance(o, Asset):
            entry[0], entry[1] = "asset", o.asset_path.numpy().decode()
        elif isinstance(o, Function):
            entry[0] = "function"
            saved = [c._core for c in o.concrete_functions() if c._core.for_saving]
            if not saved and o.input_signature is not None:
                # TF traces a function with an input_signature in the save even when nothing
                # calls it (its tracing count is 1 after the save).
                o.get_concrete_function()
                saved = [c._core for c in o.concrete_functions() if c._core.for_saving]
            entry[4] = saved
            entry[5] = _fullargspec(o)
            entry[6] = None if o.input_signature is None else tuple(o.input_signature)
        elif isinstance(o, (list, tuple, dict)):
            entry[1] = "trackable_dict_wrapper" if isinstance(o, dict) else "trackable_list_wrapper"
            children = _container_children(o)
        elif isinstance(o, Module) or i == 0:
            children = _children(o)
        return entry, entry[2], children

    return [tuple(e) for e in number_objects(root, describe)]
