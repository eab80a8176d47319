"""Compiler IR: captured variables become parameters after the arguments (used as they are, no
reshape), and Erfc as XLA's math library expands it (exact gelu; the tanh gelu for contrast)."""
import importlib.util
import os

_spec = importlib.util.spec_from_file_location("_hlo", os.path.join(os.path.dirname(__file__), "_hlo.py"))
_hlo = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_hlo)

x = tf.reshape(tf.range(12, dtype=tf.float32), [3, 4])
w = tf.Variable(tf.ones([4, 2]))
b = tf.Variable(tf.zeros([2]))


@tf.function(jit_compile=True)
def dense(a):
    return tf.nn.relu(tf.matmul(a, w) + b)


@tf.function(jit_compile=True)
def sliced(a):
    return a[:, :2] + w[:3]


def erfc(a):
    return tf.math.erfc(a)


def gelu(a):
    return tf.nn.gelu(a)


def gelu_tanh(a):
    return tf.nn.gelu(a, approximate=True)


call("dense layer over variables", lambda: _hlo.ir(dense, x))
call("slices of an argument and a variable", lambda: _hlo.ir(sliced, x))
call("erfc", lambda: _hlo.ir(tf.function(erfc, jit_compile=True), x))
call("erfc of a scalar", lambda: _hlo.ir(tf.function(erfc, jit_compile=True), tf.constant(0.5)))
call("gelu", lambda: _hlo.ir(tf.function(gelu, jit_compile=True), x))
call("gelu approximate", lambda: _hlo.ir(tf.function(gelu_tanh, jit_compile=True), x))
