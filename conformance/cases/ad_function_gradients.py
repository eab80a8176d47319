"""Autodiff: gradients through tf.function calls, TF's forward/backward function pair. A
tf.function calling a tf.function under a tape: the call node is rewritten in place to call
`__forward_inner_<uid>` (the inference outputs, then every forward tensor the gradient reads), and
the gradient is a `PartitionedCall_1` of `__inference___backward_inner_<a>_<b>` taking the output
gradients and those tensors. Compared: the outer graph node for node, the library's functions
node for node (function-name uids replaced), the gradients' bits, and the same under an eager
tape outside the call (a call a tape records runs the forward function; its gradient runs the
backward one), with a captured variable (watched as accessed), a non-tensor gradient (an int
argument gets None), a persistent tape asked twice. Each value is checked against a central
difference too."""
# conformance: live-only: the gradients run exp, tanh and MatMul, whose last bits depend on the CPU and on oneDNN
import re

from cases._fn_graph import graph, library
from cases._grad_check import bits, central, near


def graph_view(cf):
    # The backward function's name holds two uids ("__inference___backward_f_12_24"); the
    # graph view drops the last one only.
    return re.sub(r"(__backward_[A-Za-z_]+?)_\d+'", r"\1_N'", repr(graph(cf)))


def lib_view(cf):
    return sorted([re.sub(r"_\d+", "_N", n), a, nodes] for n, a, nodes in library(cf))


rng = np.random.default_rng(5)
xv = rng.uniform(-1.0, 1.0, (3,)).astype(np.float32)
x = tf.constant(xv)


@tf.function
def inner(x):
    return tf.exp(x) * x


@tf.function
def outer(x):
    with tf.GradientTape() as t:
        t.watch(x)
        y = inner(x)
    return t.gradient(y, x)


ref = central(lambda v: np.sum(np.exp(v) * v), xv)
g = outer(x)
record("nested call gradient", bits(g))
record("nested call vs central difference", near(g, ref))
record("nested call graph", graph_view(outer.get_concrete_function(x)))
record("nested call library", lib_view(outer.get_concrete_function(x)))
count("outer traces", outer)

with tf.GradientTape() as tape:
    tape.watch(x)
    y = inner(x)
ge = tape.gradient(y, x)
record("eager tape around a call", bits(ge))
record("eager tape vs central difference", near(ge, ref))

w = tf.Variable(rng.uniform(-1.0, 1.0, (3, 2)).astype(np.float32), name="w")


@tf.function
def layer(x, n):
    h = tf.tanh(tf.matmul(tf.reshape(x, [1, 3]), w))
    return tf.reduce_sum(h * tf.cast(n, tf.float32))


with tf.GradientTape(persistent=True) as tape:
    tape.watch(x)
    loss = layer(x, 2)
    loss2 = layer(x, 2) * loss
record("captured variable", [bits(v) for v in tape.gradient(loss, [w, x])])
record("second gradient of a persistent tape", [bits(v) for v in tape.gradient(loss2, [w, x])])
record("watched variables", [v.name for v in tape.watched_variables()])
n = tf.constant(3)
with tf.GradientTape() as tape:
    tape.watch(x)
    l3 = layer(x, n)
record("int argument gets None", [bits(v) for v in tape.gradient(l3, [x, n])])


@tf.function
def step(x):
    with tf.GradientTape() as t:
        loss = layer(x, 1)
    return t.gradient(loss, w)


record("variable through a nested call", bits(step(x)))
record("variable through a nested call graph", graph_view(step.get_concrete_function(x)))
