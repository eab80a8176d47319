"""Compiler IR: indexing and shape-building ops (StridedSlice with negative strides, new and shrunk
axes, Slice, GatherV2 along any axis with vector, matrix and scalar indices, OneHot, ArgMax/ArgMin,
Tile, Fill), tf2xla's constant folding, XLA's splat and elided constants, and implicit broadcasts
that add a rank and stretch a size-1 dim."""
import importlib.util
import os

_spec = importlib.util.spec_from_file_location("_hlo", os.path.join(os.path.dirname(__file__), "_hlo.py"))
_hlo = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_hlo)

x = tf.reshape(tf.range(12, dtype=tf.float32), [3, 4])
x3 = tf.reshape(tf.range(24, dtype=tf.float32), [2, 3, 4])


def f0(a):
    return a[1:3, ::2]


def f1(a):
    return a[1]


def f2(a):
    return a[:, -2:]


def f3(a):
    return a[::-1]


def f4(a):
    return a[:, None, 1:]


def f5(a):
    return a[..., 0]


def f6(a):
    return tf.slice(a, [0, 1], [2, 2])


def f7(a):
    return tf.slice(a, [1, 1], [-1, 2])


def f8(a, i):
    return tf.gather(a, i)


def f9(a):
    return tf.gather(a, [1, 3], axis=1)


def f10(a, i):
    return tf.gather(a, i)


def f11(a):
    return tf.gather(a, 1)


def f12(i):
    return tf.one_hot(i, 3)


def f13(i):
    return tf.one_hot(i, 3, axis=0, on_value=5.0, off_value=-1.0)


def f14(i):
    return tf.one_hot(i, 4)


def f15(a):
    return tf.argmax(a, axis=1)


def f16(a):
    return tf.argmin(a, axis=0, output_type=tf.int32)


def f17(a):
    return tf.tile(a, [2, 1])


def f18(a):
    return tf.tile(a, [2, 1, 3])


def f19(a):
    return tf.tile(a, [1, 1])


def f20(a):
    return tf.tile(a, [3, 2])


def f21(a):
    return a + tf.fill([3, 4], 2.0)


def f22(a):
    return tf.fill([3, 4], a[0, 0])


def f23(a):
    return a + tf.reshape(tf.range(12.0), [3, 4])


def f24(a):
    return a + tf.constant([1.0, 1.0, 1.0, 1.0])


def f25(a):
    return a + tf.constant([[1.0, 2.0, 3.0, 4.0]] * 3)


def f26(a):
    return a + tf.constant([1.0, 2, 3, 4, 5, 6, 7, 8, 9, 10])


def f27(a, b):
    return a + b


CASES = [
    ('strided slice with a step', f0, (x,)),
    ('strided slice shrinking an axis', f1, (x,)),
    ('strided slice from the end', f2, (x,)),
    ('strided slice reversed', f3, (x,)),
    ('strided slice with a new axis', f4, (x,)),
    ('strided slice with an ellipsis', f5, (x3,)),
    ('slice', f6, (x,)),
    ('slice of size -1', f7, (x,)),
    ('gather', f8, (x, tf.constant([2, 0]),)),
    ('gather along axis 1, constant indices', f9, (x,)),
    ('gather with matrix indices', f10, (x, tf.constant([[2, 0], [1, 1]]),)),
    ('gather of a scalar index', f11, (x,)),
    ('one_hot', f12, (tf.constant([0, 2]),)),
    ('one_hot on axis 0 with values', f13, (tf.constant([0, 2]),)),
    ('one_hot of int64 matrix indices', f14, (tf.constant([[0, 2], [1, 3]], dtype=tf.int64),)),
    ('argmax', f15, (x,)),
    ('argmin int32', f16, (x,)),
    ('tile', f17, (x,)),
    ('tile rank 3', f18, (x3,)),
    ('tile by ones', f19, (x,)),
    ('tile of a size-1 dim', f20, (tf.ones([1, 4]),)),
    ('fill of constants is folded', f21, (x,)),
    ('fill of a run-time value', f22, (x,)),
    ('range and reshape folded, elided', f23, (x,)),
    ('splat vector constant', f24, (x,)),
    ('12-element constant is elided', f25, (x,)),
    ('10-element constant is printed', f26, (tf.ones([10]),)),
    ('broadcast adding a rank and stretching', f27, (tf.ones([1, 4]), tf.ones([2, 3, 4]),)),
]

for name, fn, args in CASES:
    call(name, lambda fn=fn, args=args: _hlo.ir(tf.function(fn, jit_compile=True), *args))
