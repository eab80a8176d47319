"""tf.GradientTape and tf.UnconnectedGradients over the engine's tape (include/tfscope/tape.h).

The engine records every op run or staged while a tape is active and builds TF's gradient ops;
this module gives it TF's Python surface: nests of targets and sources, the context managers and
TF's warnings.
"""
import contextlib as _contextlib
import enum as _enum
import logging as _logging

from . import _core, _nest

_warned = {}


def _log_first_n(key, n, msg):
    count = _warned.get(key, 0)
    if count < n:
        _warned[key] = count + 1
        _logging.getLogger("tensorflow").warning(msg)


class UnconnectedGradients(_enum.Enum):
    """tf.UnconnectedGradients: what a source no target depends on gets."""
    NONE = "none"
    ZERO = "zero"


def _is_tensor_like(x):
    return isinstance(x, _core.Tensor) or hasattr(x, "_tfscope_variable")


def _flatten(structure):
    return _nest.flatten(structure)


def _pack_as(structure, flat):
    return _nest.pack_sequence_as(structure, flat)


def gradients(ys, xs, grad_ys=None, name="gradients", gate_gradients=False,
              aggregation_method=None, stop_gradients=None,
              unconnected_gradients=UnconnectedGradients.NONE):
    """tf.gradients: the symbolic gradients of ys with respect to xs in the graph being built."""
    if _core.executing_eagerly():
        raise RuntimeError("tf.gradients is not supported when eager execution is enabled. Use "
                           "tf.GradientTape instead.")
    try:
        zero = UnconnectedGradients(unconnected_gradients) is UnconnectedGradients.ZERO
    except ValueError:
        raise ValueError(
            "Unknown value for unconnected_gradients: %r" % unconnected_gradients) from None
    ys = list(ys) if isinstance(ys, (list, tuple)) else [ys]
    xs = list(xs) if isinstance(xs, (list, tuple)) else [xs]
    xs = [x.handle if hasattr(x, "_tfscope_variable") else x for x in xs]
    if grad_ys is not None and not isinstance(grad_ys, (list, tuple)):
        grad_ys = [grad_ys]
    from ._indexed_slices import _from_tape
    flat = _core.gradients(ys, xs, None if grad_ys is None else list(grad_ys), zero,
                           name or "gradients")
    return [_from_tape(g) for g in flat]


class GradientTape:
    """tf.GradientTape: records operations for automatic differentiation."""

    def __init__(self, persistent=False, watch_accessed_variables=True):
        self._persistent = persistent
        self._watch_accessed_variables = watch_accessed_variables
        self._core = _core.GradientTapeCore(bool(persistent), bool(watch_accessed_variables))

    def __enter__(self):
        self._core.enter()
        return self

    def __exit__(self, typ, value, traceback):
        if self._core.recording:
            self._core.exit()

    def watch(self, tensor):
        for t in _flatten(tensor):
            if not _is_tensor_like(t):
                raise ValueError(f"Passed in object {t} of type {type(t).__name__!r}, not "
                                 "tf.Tensor or tf.Variable or ExtensionType.")
            msg = _core.tape_dtype_warning(t)
            if msg:
                _log_first_n("watch", 5, msg)
            self._core.watch(t)

    @_contextlib.contextmanager
    def stop_recording(self):
        self._core.pause()
        try:
            yield
        finally:
            self._core.resume()

    def reset(self):
        self._core.reset()

    def watched_variables(self):
        return tuple(self._core.watched_variables())

    def gradient(self, target, sources, output_gradients=None,
                 unconnected_gradients=UnconnectedGradients.NONE):
        if self._core.recording and self._persistent:
            _log_first_n(
                "persistent_inside", 1,
                "Calling GradientTape.gradient on a persistent tape inside its context is "
                "significantly less efficient than calling it outside the context (it causes "
                "the gradient ops to be recorded on the tape, leading to increased CPU and "
                "memory usage). Only call GradientTape.gradient inside the context if you "
                "actually want to trace the gradient in order to compute higher order "
                "derivatives.")
        if target is None:
            raise TypeError("Argument `target` should be a list or nested structure of Tensors, "
                            "Variables or CompositeTensors to be differentiated, but received "
                            "None.")
        try:
            unconnected = UnconnectedGradients(unconnected_gradients)
        except ValueError:
            raise ValueError(
                "Unknown value for unconnected_gradients: %r" % unconnected_gradients) from None
        flat_targets = _flatten(target)
        flat_sources = _flatten(sources)
        if output_gradients is not None:
            output_gradients = _flatten(output_gradients)
        flat = self._core.gradient(flat_targets, flat_sources, output_gradients,
                                   unconnected is UnconnectedGradients.ZERO)
        from ._indexed_slices import _from_tape
        return _pack_as(sources, [_from_tape(g) for g in flat])

    def _unconnected(self, unconnected_gradients):
        try:
            return UnconnectedGradients(unconnected_gradients) is UnconnectedGradients.ZERO
        except ValueError:
            raise ValueError(
                "Unknown value for unconnected_gradients: %r" % unconnected_gradients) from None

    def jacobian(self, target, sources, unconnected_gradients=UnconnectedGradients.NONE,
                 parallel_iterations=None, experimental_use_pfor=True):
        """tape.jacobian: d target / d each source, shaped target.shape + source.shape."""
        zero = self._unconnected(unconnected_gradients)
        flat = self._core.jacobian(target, _flatten(sources), zero)
        return _pack_as(sources, flat)

    def batch_jacobian(self, target, source, unconnected_gradients=UnconnectedGradients.NONE,
                       parallel_iterations=None, experimental_use_pfor=True):
        """tape.batch_jacobian: d target[i] / d source[i] for each i of the first dimension."""
        return self._core.batch_jacobian(target, source, self._unconnected(unconnected_gradients))
