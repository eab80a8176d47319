"""Compiler IR: elementwise ops as HLO (broadcasts of either side, constants at their user, compare, select, unary math, Cast, Pow, Reciprocal; a long tuple)."""
import importlib.util
import os

_spec = importlib.util.spec_from_file_location("_hlo", os.path.join(os.path.dirname(__file__), "_hlo.py"))
_hlo = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_hlo)

x23 = tf.ones([2, 3])
x3 = tf.ones([3])
x21 = tf.ones([2, 1])
x13 = tf.ones([1, 3])
xi = tf.ones([2, 3], tf.int32)


@tf.function(jit_compile=True)
def arith(a, b):
    return (a - b) * b / a, tf.minimum(tf.maximum(a, b), 2.0), 0.1 * a


@tf.function(jit_compile=True)
def both_sides(a, b):
    return a * b


@tf.function(jit_compile=True)
def where(a, b):
    return tf.where(a > b, a, b), a <= 0.5, tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]) + a


@tf.function(jit_compile=True)
def unary(a):
    return tf.exp(tf.tanh(-a)), tf.sqrt(tf.math.rsqrt(tf.math.log(tf.square(tf.sigmoid(tf.abs(a))))))


@tf.function(jit_compile=True)
def casts(a):
    return tf.cast(a, tf.float32) + 1.5, a + 2


@tf.function(jit_compile=True)
def more(a, b):
    return (tf.pow(a, 3.0), tf.math.reciprocal(a), tf.math.square(a - b),
            tf.equal(a, a), tf.not_equal(a, 1.0), tf.math.erf(a) * 0.70710677, a + 1.0)


call("arith", lambda: _hlo.ir(arith, x23, x3))
call("pow reciprocal equal erf, seven results", lambda: _hlo.ir(more, x23, x3))
call("both sides broadcast", lambda: _hlo.ir(both_sides, x21, x13))
call("compare select constants", lambda: _hlo.ir(where, x23, x23))
call("unary", lambda: _hlo.ir(unary, x23))
call("cast and int constant", lambda: _hlo.ir(casts, xi))
call("float64", lambda: _hlo.ir(arith, tf.ones([2], tf.float64), tf.ones([2], tf.float64)))
