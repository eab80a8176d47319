import tensorflow as tf


def docstring_multiline(x):
    """Doubles x when it is positive.

    The continuation lines of this docstring have less indentation than the
    converted code has in TF's generated module, so to_code's dedent shifts
    every line of the output.
    """
    if x > 0:
        x = x * 2
    return x
