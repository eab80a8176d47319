"""Compiler IR: constants TF stores in the compact TensorProto form (one value for many elements:
tf.zeros, zeros_like) are broadcast at their own Const node in TF; tfscope keeps no proto form
and materializes them at their user (known difference)."""
import importlib.util
import os

_spec = importlib.util.spec_from_file_location("_hlo", os.path.join(os.path.dirname(__file__), "_hlo.py"))
_hlo = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_hlo)


def plus_zeros_like(a):
    return tf.zeros_like(a) + a


def plus_zeros(a):
    return tf.zeros([3]) + a


call("zeros_like", lambda: _hlo.ir(tf.function(plus_zeros_like, jit_compile=True), tf.ones([3, 4])))
call("zeros", lambda: _hlo.ir(tf.function(plus_zeros, jit_compile=True), tf.ones([3])))
