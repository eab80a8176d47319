"""The functions given to map, filter, flat_map, interleave, scan and reduce, traced as TF's
StructuredFunctionWrapper traces them: once, when the dataset is built, through a tf.function's
get_concrete_function with the element's flat specs as its input signature (AutoGraph on for the
user's function), so its Python runs once however many elements flow through it. The element is
unpacked into positional arguments when it is a plain tuple; a list returned becomes a tuple;
what it returns becomes tensors (a dataset returned stays a dataset, its variant tensor)."""
import re

from .. import _core
from .._types import TensorShape, TensorSpec
from ..autograph import convert as _autograph_convert
from ..autograph.api import _is_allowlisted
from . import _nest


def _func_name(func):
    name = getattr(func, "__name__", None)
    if name is None:
        name = type(func).__name__
    return name


class TracedFunction:
    """One traced dataset function: the concrete function, and the structure and specs of what
    it returns (per output leaf a TensorSpec, or the element spec of the dataset it returns)."""

    def __init__(self, func, transformation, input_structure, input_specs, input_inner=None):
        from . import DatasetV2, _VariantDataset

        self.transformation = transformation
        self.output_structure = None
        self.output_inner = None  # per leaf: None (a tensor) or (structure, specs, inner)
        inner = input_inner or [None] * len(input_specs)
        traced = self

        def wrapper_helper(*flat):
            leaves = []
            for t, info in zip(flat, inner):
                if info is None:
                    leaves.append(t)
                else:
                    leaves.append(_dataset_of(t, info, _VariantDataset))
            nested = _nest.pack(input_structure, leaves)
            args = nested if type(nested) is tuple else (nested,)  # noqa: E721 (TF's rule)
            # TF's autograph.tf_convert, not user-requested: code of an allowlisted module (tf's
            # own, as AutoGraph's dataset loop body) runs as it is.
            ret = (func if _is_allowlisted(func) else _autograph_convert(func))(*args)
            if isinstance(ret, list):
                ret = tuple(ret)
            out_leaves, structure = _nest.flatten_values(ret)
            tensors, out_inner = [], []
            for v in out_leaves:
                if isinstance(v, DatasetV2):
                    tensors.append(v._core.variant_tensor)
                    out_inner.append((v._structure, v._leaf_specs(), v._inner))
                else:
                    if v is None:
                        raise TypeError("tfscope: a dataset function returned None, which "
                                        "tf.data cannot hold as an element component")
                    tensors.append(_core.convert_to_tensor(v, None))
                    out_inner.append(None)
            traced.output_structure = structure
            traced.output_inner = out_inner
            return tensors

        names = ["args_%d" % i for i in range(len(input_specs))]
        # TF's wrapped_fn takes *args; its placeholders are args_0, args_1, ...
        src = "def wrapped_fn(%s):\n    return helper(%s)\n" % (", ".join(names), ", ".join(names))
        scope = {"helper": wrapper_helper}
        exec(src, scope)  # noqa: S102 (a fixed text: named parameters for the signature)
        wrapped = scope["wrapped_fn"]
        from .._function import Function

        name = "%s_%s" % (transformation.replace(".", "_").replace("()", ""),
                          re.sub(r"\W", "", _func_name(func)))
        self.function = Function(wrapped, name=name, input_signature=list(input_specs),
                                 autograph=False)
        self.concrete = self.function.get_concrete_function()

    @property
    def core(self):
        return self.concrete._core

    def output_specs(self):
        """Per output leaf: a TensorSpec, or the DatasetSpec of a dataset."""
        from . import DatasetSpec

        out = []
        for t, info in zip(self.concrete.outputs, self.output_inner):
            if info is None:
                out.append(TensorSpec(TensorShape(t.shape), t.dtype))
            else:
                out.append(DatasetSpec(_nest.pack(info[0], info[1])))
        return out

    def inner_specs(self):
        """Per output leaf: None for a tensor, the element spec of a dataset."""
        return [None if i is None else _nest.pack(i[0], i[1]) for i in self.output_inner]

    def output_spec(self):
        return _nest.pack(self.output_structure, self.output_specs())


def _dataset_of(variant, element_spec, cls):
    """The dataset a variant tensor holds (a window's component, in a trace), by its spec."""
    from . import DatasetSpec

    specs, structure = _nest.flatten_values(element_spec)
    core = _core.DatasetCore.from_variant_specs(
        variant, [(TensorShape([]), "variant") if isinstance(s, DatasetSpec) else (s.shape, s.dtype)
                  for s in specs])
    inner = [s.element_spec if isinstance(s, DatasetSpec) else None for s in specs]
    return cls(core, structure=structure, inner=inner)


def _specs_of_tensors(tensors):
    return [TensorSpec(TensorShape(t.shape), t.dtype) for t in tensors]


def _ledger(self):
    text = self.function.ledger()
    return ("%s: the function of %s, traced once when the dataset was built (tf.data traces it "
            "through get_concrete_function with the element's specs), so its Python ran once; "
            "every element runs the traced graph %s\n%s" %
            (self.function._name, self.transformation, self.concrete._core.name, text))


TracedFunction.ledger = _ledger


def _most_specific_compatible(a, b):
    if a.rank is None or b.rank is None or a.rank != b.rank:
        return TensorShape(None)
    return TensorShape([x if x == y else None for x, y in zip(a.as_list(), b.as_list())])


def trace_with_state(dataset, initial_state, func, transformation, is_scan):
    """The initial state as tensors and the trace of func(state, element): traced again with the
    state's shapes relaxed while the new state's shapes differ from them, as TF does."""
    leaves, state_structure = _nest.flatten_values(initial_state)
    state = [v if isinstance(v, _core.Tensor) else _core.convert_to_tensor(v, None)
             for v in leaves]
    state_specs = _specs_of_tensors(state)
    elem_specs = dataset._trace_specs()
    prefix = "Invalid `scan_func`. " if is_scan else ""
    while True:
        traced = TracedFunction(func, transformation, (state_structure, dataset._structure),
                                state_specs + elem_specs, [None] * len(state) + dataset._inner)
        specs = traced.output_specs()
        if is_scan:
            out = traced.output_structure
            if not (isinstance(out, tuple) and not _nest._is_namedtuple(out) and len(out) == 2):
                raise TypeError("Invalid `scan_func`. `scan_func` should return a pair consisting "
                                "of new state and the output value but its return type is %r." %
                                (traced.output_spec(),))
        n = len(state_specs)
        new_specs = specs[:n]
        old_types = [s.dtype for s in state_specs]
        new_types = [getattr(s, "dtype", None) for s in new_specs]
        if old_types != new_types:
            sep = ", got " if is_scan else " but got "
            raise TypeError("%sThe element types for the new state must match the initial state. "
                            "Expected %s%s%s." % (prefix, _nest.pack(state_structure, old_types),
                                                  sep, _nest.pack(state_structure, new_types)))
        weakened = [_most_specific_compatible(o.shape, w.shape)
                    for o, w in zip(state_specs, new_specs)]
        rerun = any(o.shape.rank is not None and
                    (w.rank is None or o.shape.as_list() != w.as_list())
                    for o, w in zip(state_specs, weakened))
        if not rerun:
            return state, traced
        state_specs = [TensorSpec(w, s.dtype) for w, s in zip(weakened, state_specs)]
