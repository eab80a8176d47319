"""tf.autograph for tfscope: Python control flow on tensors becomes If/While graph ops.

``tf.function`` (autograph=True) converts the decorated function with tfscope's C++ converter,
whose text equals TF 2.21's ``tf.autograph.to_code``, and runs it on the ``ag__`` runtime
(operators.py): tensor conditions stage If/StatelessIf, tensor loops While/StatelessWhile, and
Python conditions, ranges and lists stay Python.
"""
from .api import (ConversionError, Feature, UnsupportedLanguageElementError, convert,  # noqa: F401
                  do_not_convert, to_code)


class experimental:  # noqa: N801  (tf.autograph.experimental)
    Feature = Feature
    do_not_convert = staticmethod(do_not_convert)

    @staticmethod
    def set_loop_options(parallel_iterations=None, swap_memory=None, maximum_iterations=None,
                         shape_invariants=None):
        """Only meaningful inside a converted loop, where the converter turns it into options."""
        return None
