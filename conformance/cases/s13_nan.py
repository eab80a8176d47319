"""S13: k(float('nan')) twice -> 1 trace (NaN literals match each other)."""
import math

@tf.function
def k(arg):
    print("trace", arg)
    return tf.constant(1.0) * arg

call("nan 1", k, float("nan"))
call("nan 2", k, float("nan"))
call("math.nan", k, math.nan)
call("complex nan", k, complex(float("nan"), 0))
call("1.0", k, 1.0)
signatures("sigs", k)
