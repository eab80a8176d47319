"""Function.experimental_get_compiler_ir: the HLO text of a jit_compile=True function's trace for
the given arguments, lowered by tfscope's C++ hlo layer (include/tfscope/hlo.h)."""
from . import _core


def compiler_ir_getter(function, args, kwargs):
    """What tf.function's experimental_get_compiler_ir(*args, **kwargs) returns: a callable taking
    the stage. Traces (or reuses the trace of) the function for these arguments first, as TF does."""
    if not function._jit_compile:
        raise ValueError("Compiler IR can only be returned for functions marked with 'jit_compile=True'")
    concrete = function._core.get_concrete_function(*args, **kwargs)

    def compiler_ir_generator(stage="hlo", device_name=None, platform_name=None):
        del device_name, platform_name  # tfscope lowers for the host (XLA_CPU_JIT) only
        return _core.compiler_ir(concrete, stage)

    return compiler_ir_generator


def normalize(text):
    """The form in which tfscope compares its HLO text with TF's (hlo::normalize): no source
    locations, no function uid, `name.N` renumbered per name in order of appearance."""
    return _core.hlo_normalize(text)
