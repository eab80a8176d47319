"""tf.lite over tfscope's C++ TFLite converter and interpreter (tfs::lite).

TFLiteConverter.from_concrete_functions / from_saved_model convert as TF 2.21's converter does
(FULLY_CONNECTED with fused bias and activation, variables frozen); optimizations=[Optimize.DEFAULT]
gives dynamic-range quantization (int8 weights of at least 1024 elements, per output channel).
Interpreter runs a model with LiteRT's reference kernels (bit-exact hybrid FULLY_CONNECTED).
convert_tflite_dynamic is the lab's report: what quantization changed on random probes.
"""
import enum as _enum
import json as _json
import os as _os

import numpy as _np

from . import _core


class Optimize:
    DEFAULT = "DEFAULT"
    OPTIMIZE_FOR_SIZE = "OPTIMIZE_FOR_SIZE"
    OPTIMIZE_FOR_LATENCY = "OPTIMIZE_FOR_LATENCY"
    EXPERIMENTAL_SPARSITY = "EXPERIMENTAL_SPARSITY"


def _core_cf(fn):
    from ._function import ConcreteFunction, Function
    if isinstance(fn, Function):
        fn = fn.get_concrete_function()
    if not isinstance(fn, ConcreteFunction):
        raise ValueError("This converter can only convert a concrete function (got %r)" % (fn,))
    return fn._core


class TFLiteConverter:
    """tf.lite.TFLiteConverter for concrete functions (from_saved_model gives the SavedModel
    converter, as TF's)."""

    def __init__(self, funcs, trackable_obj=None):
        self._funcs = funcs
        self._trackable_obj = trackable_obj
        self._saved_model_dir = None
        self._signature_key = "serving_default"
        self.optimizations = []
        self.representative_dataset = None
        self.target_spec = None

    @classmethod
    def from_concrete_functions(cls, funcs, trackable_obj=None):
        funcs = list(funcs)
        if len(funcs) != 1:
            raise ValueError("tfscope.lite converts one concrete function (got %d)" % len(funcs))
        return cls(funcs, trackable_obj)

    @classmethod
    def from_saved_model(cls, saved_model_dir, signature_keys=None, tags=None):
        del tags
        key = signature_keys[0] if signature_keys else "serving_default"
        return _SavedModelConverter(_os.fspath(saved_model_dir), key)

    def _dynamic_range(self):
        if self.representative_dataset is not None:
            raise ValueError("tfscope.lite: full-integer quantization (representative_dataset) "
                             "is not supported; only dynamic-range")
        return any(o in (Optimize.DEFAULT, Optimize.OPTIMIZE_FOR_SIZE,
                         Optimize.OPTIMIZE_FOR_LATENCY) for o in self.optimizations)

    def convert(self):
        dynamic = self._dynamic_range()
        if self._saved_model_dir is not None:
            return _core.lite_convert_saved_model(self._saved_model_dir, dynamic,
                                                  self._signature_key)
        return _core.lite_convert(_core_cf(self._funcs[0]), dynamic, "serving_default")


class _SavedModelConverter(TFLiteConverter):
    """What TFLiteConverter.from_saved_model returns (TF's TFLiteSavedModelConverterV2)."""

    def __init__(self, saved_model_dir, signature_key="serving_default"):
        super().__init__([])
        self._saved_model_dir = saved_model_dir
        self._signature_key = signature_key


class OpResolverType(_enum.Enum):
    """tf.lite.experimental.OpResolverType. tfscope's interpreter runs its own kernels, bit for
    bit LiteRT's reference ones (BUILTIN_REF), whichever is asked for."""
    AUTO = 0
    BUILTIN = 1
    BUILTIN_REF = 2
    BUILTIN_WITHOUT_DEFAULT_DELEGATES = 3


class experimental:  # noqa: N801 (TF's namespace name)
    OpResolverType = OpResolverType


_FLOAT32 = 0  # tflite::TensorType_FLOAT32


class Interpreter:
    """A subset of tf.lite.Interpreter: float32 inputs and outputs of the first subgraph."""

    def __init__(self, model_path=None, model_content=None, experimental_delegates=None,
                 num_threads=None, experimental_op_resolver_type=OpResolverType.AUTO,
                 experimental_preserve_all_tensors=False,
                 experimental_disable_delegate_clustering=False,
                 experimental_default_delegate_latest_features=False, *, fast_kernels=False):
        # tfscope's kernels run on one thread, so num_threads and the delegate options change no
        # output; delegates themselves (TF's shared libraries) cannot run here.
        if experimental_delegates:
            raise ValueError("tfscope.lite.Interpreter runs no delegates "
                             "(experimental_delegates=%r)" % (experimental_delegates,))
        if not isinstance(experimental_op_resolver_type, OpResolverType):
            raise ValueError("Unrecognized passed in op resolver type: {}".format(
                experimental_op_resolver_type))
        if num_threads is not None:
            if not isinstance(num_threads, int):
                raise ValueError("type of num_threads should be int")
            if num_threads < 1:
                raise ValueError("num_threads should >= 1")
        if model_content is None:
            with open(model_path, "rb") as f:
                model_content = f.read()
        name = _os.fspath(model_path) if model_path is not None else "model_content"
        self._core = _core.LiteInterpreterCore(bytes(model_content), name, fast_kernels)
        # The per-invoke calls are the core's own C++ methods, handed out as they are: no Python
        # frame between the caller and the interpreter (unless a subclass overrides them).
        for method in ("set_tensor", "invoke", "get_tensor"):
            if getattr(type(self), method) is getattr(Interpreter, method):
                setattr(self, method, getattr(self._core, method))

    def allocate_tensors(self):
        pass

    def get_input_details(self):
        return [{"index": i, "name": self._core.input_name(i),
                 "shape": _np.array(self._core.input_shape(i), dtype=_np.int32),
                 "dtype": _np.float32 if self._core.input_type(i) == _FLOAT32 else _np.int32}
                for i in range(self._core.num_inputs())]

    def get_output_details(self):
        n_in = self._core.num_inputs()
        return [{"index": n_in + i, "shape": _np.array(self._core.output_shape(i), dtype=_np.int32),
                 "dtype": _np.float32} for i in range(self._core.num_outputs())]

    def resize_tensor_input(self, input_index, tensor_size, strict=False):
        del input_index, tensor_size, strict  # inputs take the shape set_tensor's array has

    def set_tensor(self, tensor_index, value):
        """Copies value (as float32: integer inputs, token ids, are exact up to 2^24) into input
        tensor_index, which takes value's shape."""
        self._core.set_tensor(tensor_index, value)

    def invoke(self):
        self._core.invoke()

    def get_tensor(self, tensor_index, subgraph_index=0):
        """An input's array as set_tensor kept it, or a new array of an output's values (tensor
        indices: the inputs, then the outputs; the first subgraph only)."""
        return self._core.get_tensor(tensor_index, subgraph_index)


def convert_tflite_dynamic(fn, probes=16, seed=0):
    """Converts fn float and dynamic-range, runs both on seeded N(0, 1) probes, and returns the
    report as a dict (max_abs_delta, mean_abs_delta, quantized_ops, per-layer error, file sizes),
    with the two models' bytes under "float_model" and "int8_model" and the text under "text"."""
    report, text, float_model, int8_model = _core.lite_delta_report(_core_cf(fn), probes, seed)
    out = _json.loads(report)
    out["text"] = text
    out["float_model"] = float_model
    out["int8_model"] = int8_model
    return out


def compare_models(float_model, int8_model, probes=16, seed=0):
    """The delta report of two model files' bytes (e.g. TF's converter's float and dynamic-range
    models of the same weights), as convert_tflite_dynamic reports it."""
    report, text = _core.lite_compare_models(bytes(float_model), bytes(int8_model), probes, seed)
    out = _json.loads(report)
    out["text"] = text
    return out


def _run_all(model, inputs):
    it = Interpreter(model_content=model)
    for i, x in enumerate(inputs):
        it.set_tensor(i, x)
    it.invoke()
    return it.get_tensor(len(inputs))


def evaluate_accuracy(float_model, int8_model, inputs, labels):
    """Runs a classifier's float and int8 models (bytes) on the same batch (`inputs`: one array
    per model input, e.g. ids, segments, mask) with tfscope's reference kernels and returns
    {"float_accuracy", "int8_accuracy", "accuracy_delta", "max_abs_logit_delta", "examples"}:
    the argmax accuracies against `labels`, int8 minus float, and the largest |float - int8|
    logit."""
    labels = _np.asarray(labels).reshape(-1)
    f = _run_all(float_model, inputs)
    q = _run_all(int8_model, inputs)
    if f.shape[0] != labels.shape[0]:
        raise ValueError("evaluate_accuracy: %d labels for %d examples" % (labels.shape[0],
                                                                          f.shape[0]))
    fa = float(_np.mean(_np.argmax(f, axis=-1) == labels))
    qa = float(_np.mean(_np.argmax(q, axis=-1) == labels))
    return {"float_accuracy": fa, "int8_accuracy": qa, "accuracy_delta": qa - fa,
            "max_abs_logit_delta": float(_np.max(_np.abs(f - q))) if f.size else 0.0,
            "examples": int(labels.shape[0])}


def inspect(path, as_json=False):
    """Tensors, operators and quantization parameters of a .tflite file (text or a dict)."""
    out = _core.lite_inspect(_os.fspath(path), bool(as_json))
    return _json.loads(out) if as_json else out
