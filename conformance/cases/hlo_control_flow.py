"""Compiler IR: tf.cond (StatelessIf -> conditional over two branch computations) and
tf.while_loop (StatelessWhile -> while over body/condition computations of the loop-state tuple,
with tf2xla's cond_wrapper), Const inputs propagated into `_const_0` copies of the functions
(maximum_iterations among them), a cond inside a loop body, reductions inside branches, constant
results, hlo_no_metadata."""
import importlib.util
import os

_spec = importlib.util.spec_from_file_location("_hlo", os.path.join(os.path.dirname(__file__), "_hlo.py"))
_hlo = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_hlo)

x23 = tf.ones([2, 3])


@tf.function(jit_compile=True)
def cond_basic(x):
    return tf.cond(tf.reduce_sum(x) > 0.0, lambda: x * 2.0, lambda: x - 1.0)


@tf.function(jit_compile=True)
def cond_two_outputs(x, p):
    return tf.cond(p, lambda: (x * 3.0, tf.constant(1.0)), lambda: (x + 1.0, tf.reduce_sum(x)))


@tf.function(jit_compile=True)
def cond_const_input(x):
    k = tf.constant([1.0, 2.0, 3.0])
    return tf.cond(tf.reduce_sum(x) > 0.0, lambda: x * k, lambda: x - k)


@tf.function(jit_compile=True)
def cond_not_all(x):
    return tf.cond(tf.logical_not(tf.reduce_all(x > 0.0)), lambda: tf.reduce_mean(x, axis=1),
                   lambda: tf.reduce_max(x, axis=1))


@tf.function(jit_compile=True)
def while_basic(x):
    return tf.while_loop(lambda i, y: i < 3, lambda i, y: (i + 1, y * 2.0), [tf.constant(0), x])


@tf.function(jit_compile=True)
def while_max_iterations(x, n):
    return tf.while_loop(lambda i, y: i < n, lambda i, y: (i + 1, y + tf.reduce_sum(y)), [0, x],
                         maximum_iterations=5)


@tf.function(jit_compile=True)
def while_matmul_invariant(x):
    def body(i, acc, w):
        return i + 1, acc + tf.matmul(w, w, transpose_b=True), w

    return tf.while_loop(lambda i, acc, w: i < 2, body, [0, tf.constant([[1.0, 2.0], [3.0, 4.0]]), x])


@tf.function(jit_compile=True)
def while_any(x):
    return tf.while_loop(lambda y: tf.reduce_any(y < 10.0), lambda y: (y * 3.0,), [x])


@tf.function(jit_compile=True)
def cond_in_while(x):
    def body(i, y):
        return i + 1, tf.cond(i > 1, lambda: y * 2.0, lambda: tf.nn.relu(y - 1.0))

    cond = lambda i, y: tf.logical_and(i < 4, tf.reduce_max(y) < 100.0)
    return tf.while_loop(cond, body, [tf.constant(0), x])[1]


@tf.function(jit_compile=True)
def constant_results(x):
    return x * 2.0, tf.constant(1.0), tf.constant([2.0, 2.0])


call("cond", lambda: _hlo.ir(cond_basic, x23))
call("cond, two outputs, a constant one", lambda: _hlo.ir(cond_two_outputs, x23, tf.constant(True)))
call("cond, a Const input", lambda: _hlo.ir(cond_const_input, x23))
call("cond on LogicalNot of All", lambda: _hlo.ir(cond_not_all, x23))
call("while_loop", lambda: _hlo.ir(while_basic, x23))
call("while_loop, maximum_iterations", lambda: _hlo.ir(while_max_iterations, x23, tf.constant(3)))
call("while_loop, matmul, a loop-invariant argument", lambda: _hlo.ir(while_matmul_invariant, x23))
call("while_loop on reduce_any", lambda: _hlo.ir(while_any, x23))
call("cond in a while_loop body", lambda: _hlo.ir(cond_in_while, x23))
call("cond in a while_loop body, hlo_no_metadata",
     lambda: _hlo.ir(cond_in_while, x23, stage="hlo_no_metadata"))
call("constant results", lambda: _hlo.ir(constant_results, x23))
