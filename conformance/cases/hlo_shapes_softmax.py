"""Compiler IR: shape ops (Reshape, ExpandDims, Squeeze as reshape; Transpose with its permuted layout) and Softmax."""
import importlib.util
import os

_spec = importlib.util.spec_from_file_location("_hlo", os.path.join(os.path.dirname(__file__), "_hlo.py"))
_hlo = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_hlo)

x23 = tf.ones([2, 3])


@tf.function(jit_compile=True)
def shapes(a):
    return tf.transpose(tf.reshape(a, [3, 2])), tf.squeeze(tf.expand_dims(a, 0), 0), tf.transpose(a) + 1.0


@tf.function(jit_compile=True)
def perm3(a):
    return tf.transpose(a, [2, 0, 1]) * 2.0


@tf.function(jit_compile=True)
def softmax(a):
    return tf.nn.softmax(a)


call("shapes", lambda: _hlo.ir(shapes, x23))
call("rank-3 transpose", lambda: _hlo.ir(perm3, tf.ones([2, 3, 4])))
call("softmax rank 2", lambda: _hlo.ir(softmax, x23))
call("softmax rank 3", lambda: _hlo.ir(softmax, tf.ones([2, 2, 3])))
