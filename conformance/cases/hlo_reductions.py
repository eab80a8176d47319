"""Compiler IR: reductions with their reducer computations (Sum, Mean, Max, Min, Prod; keepdims; int32; several axes)."""
import importlib.util
import os

_spec = importlib.util.spec_from_file_location("_hlo", os.path.join(os.path.dirname(__file__), "_hlo.py"))
_hlo = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_hlo)

x23 = tf.ones([2, 3])
x223 = tf.ones([2, 2, 3])
xi = tf.ones([2, 3], tf.int32)


@tf.function(jit_compile=True)
def sums(a):
    return tf.reduce_sum(a, axis=1), tf.reduce_sum(a, keepdims=True), tf.reduce_sum(a, 0) + tf.reduce_sum(a, 0)


@tf.function(jit_compile=True)
def means(a):
    return tf.reduce_mean(a, axis=0, keepdims=True), tf.reduce_mean(a), tf.reduce_mean(a, axis=[-1, 0])


@tf.function(jit_compile=True)
def extremes(a):
    return tf.reduce_max(a), tf.reduce_min(a, 1), tf.reduce_prod(a, 1)


call("sums", lambda: _hlo.ir(sums, x23))
call("means", lambda: _hlo.ir(means, x223))
call("extremes float", lambda: _hlo.ir(extremes, x23))
call("extremes int32", lambda: _hlo.ir(extremes, xi))
