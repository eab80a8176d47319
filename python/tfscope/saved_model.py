"""tf.saved_model over tfscope's C++ SavedModel writer and reader (tfs::saved_model).

save() writes what TF 2.21's tf.saved_model.load reads (one MetaGraph tagged "serve", a
SignatureDef per exported function, variables restored from variables/); load() reads those and
the SavedModels TF 2.21 writes, returning an object whose .signatures run on tfscope's executor.
"""
import os as _os

from . import _core
from . import _saved_objects
from ._function import ConcreteFunction as _ConcreteFunction
from ._function import Function as _Function
from ._function import _save_context, _trace_for_saving

Asset = _saved_objects.Asset

SERVING = "serve"
DEFAULT_SERVING_SIGNATURE_DEF_KEY = "serving_default"


def _concrete(fn, key):
    if isinstance(fn, _ConcreteFunction):
        return fn
    if isinstance(fn, _Function):
        if fn.input_signature is not None:
            return fn.get_concrete_function()
        traced = [c for c in fn.concrete_functions() if not c._core.for_saving]
        if len(traced) == 1:
            return traced[0]
        raise ValueError(
            "Function %s (signature %r) has no input_signature and %d concrete functions; give it "
            "an input_signature or pass one ConcreteFunction" % (fn.__name__, key, len(traced)))
    raise ValueError(
        "Expected a TensorFlow function for which to generate a signature (but got %r). Only "
        "`tf.functions` with an input signature or concrete functions can be used as a signature."
        % (fn,))


def _exported_functions(obj):
    """The @tf.function attributes of obj that have an input signature (TF's default export)."""
    found = []
    for name in sorted(dir(type(obj))):
        attr = getattr(type(obj), name, None)
        if isinstance(attr, _Function) and attr.input_signature is not None:
            found.append(getattr(obj, name))
    for name, value in sorted(vars(obj).items()) if hasattr(obj, "__dict__") else []:
        if isinstance(value, _Function) and value.input_signature is not None:
            found.append(value)
    return found


def _signatures(obj, signatures):
    if signatures is None:
        if isinstance(obj, (_Function, _ConcreteFunction)):
            signatures = obj
        else:
            found = _exported_functions(obj)
            if len(found) != 1:
                raise ValueError(
                    "tfscope.saved_model.save: found %d @tf.function methods with an "
                    "input_signature on %r; pass signatures= to choose what to export"
                    % (len(found), obj))
            signatures = found[0]
    if not isinstance(signatures, dict):
        signatures = {DEFAULT_SERVING_SIGNATURE_DEF_KEY: signatures}
    return [(key, _concrete(fn, key)._core) for key, fn in signatures.items()]


def save(obj, export_dir, signatures=None, options=None):
    """Exports signatures of `obj` (a Module with one @tf.function with an input_signature, a
    Function, a ConcreteFunction, or an explicit `signatures` dict) as a SavedModel directory.
    The files go into export_dir (other files there stay, as with TF); they are written to a
    staging folder first and renamed in when all are written, so a failed save keeps the old
    model."""
    del options
    # As TF's save does: inside its save context every function of obj is traced again (a
    # function traced once has count 2 after saving), and a signature function with no trace yet
    # is traced there only.
    if isinstance(obj, (_Function, _ConcreteFunction)):
        # A lone function: the v1 form (its signature only; no object to restore).
        with _save_context():
            _trace_for_saving(obj)
            exported = _signatures(obj, signatures)
        _core.saved_model_save(exported, _os.fspath(export_dir))
        return
    # An object: TF 2's form, its object graph (variables, nested modules, every tf.function with
    # the traces made for saving) restored by tf.saved_model.load with its methods.
    with _save_context():
        _trace_for_saving(obj)
        exported = _object_signatures(obj, signatures)
        objects = _saved_objects.collect(obj)
    _core.saved_model_save_objects(objects, exported, _os.fspath(export_dir),
                                   _named_after_function(signatures))


def _named_after_function(signatures):
    """The keys whose signature wrapper TF names after the function (signature_wrapper_<fn>_N):
    those signatures= gave a tf.function. A ConcreteFunction's and the default export's wrapper
    is signature_wrapper_N."""
    if signatures is None:
        return set()
    if not isinstance(signatures, dict):
        signatures = {DEFAULT_SERVING_SIGNATURE_DEF_KEY: signatures}
    return {k for k, fn in signatures.items() if isinstance(fn, _Function)}


def _object_signatures(obj, signatures):
    """TF's signatures for an object: the given ones, else its one @tf.function with an
    input_signature as serving_default (none when it has zero or several)."""
    if signatures is None:
        found = _exported_functions(obj)
        if len(found) != 1:
            return []
        signatures = found[0]
    if not isinstance(signatures, dict):
        signatures = {DEFAULT_SERVING_SIGNATURE_DEF_KEY: signatures}
    return [(key, _concrete(fn, key)._core) for key, fn in signatures.items()]


class _SignatureFunction:
    """A loaded signature: called with keyword arguments, returns a dict of output tensors."""

    def __init__(self, model, core, wrapper=None):
        self._model = model  # keeps the C++ model alive
        self._core = core
        self._wrapper = wrapper  # the object graph's concrete function for it (TF 2 form)
        self._inputs = core.inputs
        self._outputs = core.outputs

    @property
    def name(self):
        return self._core.key

    @property
    def structured_input_signature(self):
        from ._types import TensorSpec
        return ((), {k: TensorSpec(shape, dtype, name=k) for k, _, dtype, shape in self._inputs})

    @property
    def structured_outputs(self):
        """{key: TensorSpec} named as TF names a signature's outputs ('B' -> 'b')."""
        from ._types import TensorSpec
        return {k: TensorSpec(shape, dtype, name=_core.sanitize_spec_name(k))
                for k, _, dtype, shape in self._outputs}

    def pretty_printed_signature(self, verbose=True):
        """TF's text of a loaded signature, a dict of outputs. From TF 2's object graph: the
        inputs keyword-only, the outputs' specs named, the wrapper's bound inputs (variables,
        constants) its captures. From a v1 SavedModel (TF's load_v1_in_v2): the inputs
        positional-or-keyword in key order, the outputs' specs unnamed, the variables captured."""
        from ._types import TensorSpec
        v1 = self._model.format == "tf1"
        kind = "POSITIONAL_OR_KEYWORD" if v1 else "KEYWORD_ONLY"
        params = [(k, kind, spec) for k, spec in self.structured_input_signature[1].items()]
        if v1:
            outputs = {k: TensorSpec(shape, dtype) for k, _, dtype, shape in self._outputs}
            captured = list(self._core.captured_inputs)
        else:
            outputs = self.structured_outputs
            captured = list(self._wrapper.captured_inputs) if self._wrapper is not None else []
        return _core.signature_text(params, outputs, verbose, captured)

    def __str__(self):
        return "ConcreteFunction " + self.pretty_printed_signature(True)

    def __call__(self, *args, **kwargs):
        from . import convert_to_tensor
        if args:
            raise TypeError("signature_wrapper_%s(*, %s) takes 0 positional arguments but %d were "
                            "given" % (self.name, ", ".join(k for k, *_ in self._inputs), len(args)))
        keys = [k for k, *_ in self._inputs]
        unexpected = [k for k in kwargs if k not in keys]
        if unexpected:
            raise TypeError("signature_wrapper_%s() got an unexpected keyword argument '%s'"
                            % (self.name, unexpected[0]))
        missing = [k for k in keys if k not in kwargs]
        if missing:
            raise TypeError("signature_wrapper_%s() missing required keyword argument '%s'"
                            % (self.name, missing[0]))
        flat = [convert_to_tensor(kwargs[k], dtype=dtype) for k, _, dtype, _ in self._inputs]
        outs = self._core.call_flat(flat)
        return {k: t for (k, *_), t in zip(self._outputs, outs)}

    def report(self, format="text"):
        """GraphReport of the function that runs this signature: "text", "json" or "dot"."""
        formats = {"text": self._core.report_text, "json": self._core.report_json,
                   "dot": self._core.report_dot}
        if format not in formats:
            raise ValueError("[report] unknown format %r; the formats are 'text', 'json' and "
                             "'dot'" % (format,))
        return formats[format]()

    def __repr__(self):
        return "<ConcreteFunction %s at 0x%X>" % (self.pretty_printed_signature(False), id(self))


_RESERVED = ("signatures", "variables", "trainable_variables", "format", "fingerprint")


class _Loaded:
    """What load() returns: .signatures (by key), .variables, and the model's format."""

    def __init__(self, core):
        from . import Variable
        self._core = core
        wrappers = _saved_objects.signature_concrete_functions(core) if core.format == "tf2" else {}
        self.signatures = {k: _SignatureFunction(core, core.signature(k), wrappers.get(k))
                           for k in core.signature_keys()}
        self._variables = [(k, Variable._wrap(v)) for k, v in core.variables()]
        if core.format == "tf2":
            # The object graph: the root's children become attributes (those that would hide
            # this class's own, signatures included, stay as they are).
            _saved_objects.restore(core, self, reserved=_RESERVED)

    @property
    def variables(self):
        return [v for _, v in self._variables]

    @property
    def trainable_variables(self):
        return [v for v in self.variables if v.trainable]

    @property
    def fingerprint(self):
        """fingerprint.pb's fields (TF's read_fingerprint), or None when the model has none."""
        return self._core.fingerprint()

    @property
    def format(self):
        """"tf2" for TF 2.x's object-graph SavedModels, "tf1" for the v1 form (tfscope writes it)."""
        return self._core.format

    def __repr__(self):
        return "<tfscope.saved_model loaded %s (%s): signatures %s>" % (
            self._core.dir, self._core.format, sorted(self.signatures))


def load(export_dir, tags=None, options=None):
    """Loads a SavedModel written by tfscope or TF 2.21; its signatures run on tfscope."""
    del tags, options
    return _Loaded(_core.saved_model_load(_os.fspath(export_dir)))


def roundtrip(fn, probe_inputs, export_dir):
    """Saves fn, loads it back, runs both on each probe (a list of tensor arguments), and
    reports {"exact", "max_abs_delta", "files", "signatures", "probes"}."""
    cf = _concrete(fn, DEFAULT_SERVING_SIGNATURE_DEF_KEY)
    from . import convert_to_tensor
    probes = [[convert_to_tensor(x) for x in p] for p in probe_inputs]
    return _core.roundtrip_savedmodel(cf._core, probes, _os.fspath(export_dir))
