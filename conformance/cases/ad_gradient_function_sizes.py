"""Autodiff: the node counts (arguments included) of the forward and backward functions TF builds
for a tf.function called under a tape (the pairs whose names `ad_gradient_function_names`
compares): a first-order tape's backward function returns the gradients themselves (no output
Identity: TF builds it without func_graph_from_py_func), a gradient of a call in a graph goes
through func_graph_from_py_func (an Identity per output). A broadcast whose reduction axes list
is empty (x (1, 2) times v (2,)) gets TF's unused float32 `Sum/reduction_indices` Const before
the int32 `Sum/reduction_indices_1` its Sum reads. (A persistent tape's pair:
`ad_gradient_function_sizes_higher_order`.)"""
from cases._gradient_functions import Watcher, sizes

w = Watcher(tf)
v = tf.Variable([1.0, 2.0], name="v")


@tf.function
def f(x):
    return tf.reduce_sum(tf.exp(x) * v)


@tf.function
def inner(x):
    return tf.exp(x) * x


@tf.function
def outer(x):
    with tf.GradientTape() as t:
        t.watch(x)
        y = inner(x)
    return t.gradient(y, x)


x = tf.constant([3.0, 4.0])


def nodes(label, fn, arg, persistent=False, watch=None):
    with tf.GradientTape(persistent=persistent) as t:
        if watch is not None:
            t.watch(watch)
        fn(arg)
    from cases._gradient_functions import pairs

    built = sorted(set(pairs(tf)) - w.seen)
    w.seen = set(pairs(tf))
    record(label, [sizes(tf, fw, bw) for fw, bw in built])


nodes("first-order tape, a variable read", f, x)
nodes("first-order tape, a broadcast", f, tf.constant([[5.0, 6.0]]))
nodes("first-order tape, the argument watched", inner, x, watch=x)


def in_graph():
    outer(x)
    from cases._gradient_functions import pairs

    built = sorted(set(pairs(tf)) - w.seen)
    w.seen = set(pairs(tf))
    return [sizes(tf, fw, bw) for fw, bw in built]


record("gradient of a call in a graph", in_graph())
