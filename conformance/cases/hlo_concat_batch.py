"""Compiler IR: ConcatV2 and Pack as concatenate, BatchMatMulV2 as dot with batch dimensions, LogSoftmax."""
import importlib.util
import os

_spec = importlib.util.spec_from_file_location("_hlo", os.path.join(os.path.dirname(__file__), "_hlo.py"))
_hlo = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_hlo)

x23 = tf.ones([2, 3])


@tf.function(jit_compile=True)
def joins(a, b):
    return tf.concat([a, b], 1), tf.concat([a, b, a], -2), tf.stack([a, b]), tf.stack([a, b], axis=1)


@tf.function(jit_compile=True)
def batched(a, b):
    return tf.matmul(a, b, transpose_b=True), tf.matmul(a, b, transpose_a=True)


@tf.function(jit_compile=True)
def log_softmax(a):
    return tf.nn.log_softmax(a)


call("concat and stack", lambda: _hlo.ir(joins, x23, x23))
call("batch matmul", lambda: _hlo.ir(batched, tf.ones([2, 3, 3]), tf.ones([2, 3, 3])))
call("rank-4 batch matmul", lambda: _hlo.ir(batched, tf.ones([2, 2, 3, 3]), tf.ones([2, 2, 3, 3])))
call("log_softmax", lambda: _hlo.ir(log_softmax, x23))
