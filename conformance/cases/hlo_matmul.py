"""Compiler IR: MatMul as dot (transposes as contracting dimensions), BiasAdd, Relu, Relu6, a dense layer."""
import importlib.util
import os

_spec = importlib.util.spec_from_file_location("_hlo", os.path.join(os.path.dirname(__file__), "_hlo.py"))
_hlo = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_hlo)

x23 = tf.ones([2, 3])
w34 = tf.ones([3, 4])


@tf.function(jit_compile=True)
def dense(x, w, b):
    return tf.nn.relu(tf.nn.bias_add(tf.matmul(x, w), b))


@tf.function(jit_compile=True)
def transposed(a, b):
    return tf.matmul(a, b, transpose_b=True), tf.matmul(a, b, transpose_a=True)


@tf.function(jit_compile=True)
def relu6(a):
    return tf.nn.relu6(a) - a, tf.nn.relu(a * a)


call("dense", lambda: _hlo.ir(dense, x23, w34, tf.ones([4])))
call("transposed", lambda: _hlo.ir(transposed, x23, x23))
call("relu6", lambda: _hlo.ir(relu6, x23))
call("scalar relu", lambda: _hlo.ir(relu6, tf.constant(2.0)))
