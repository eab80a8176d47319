"""Autodiff: a persistent tape inside a tf.function asked twice for the gradient of one call of a
tf.function. Both gradients are the same bits; the forward call outputs its intermediates once
(3 outputs) and each gradient is its own call of the backward function. (TF builds this pair at
the call, for higher-order gradients, its backward taking a gradient per forward output:
`ad_gradient_function_sizes_higher_order`; a second gradient of the call used to crash tfscope.)"""
# conformance: live-only: the gradients run exp, whose last bits depend on the CPU
from cases._grad_check import bits


@tf.function
def inner(x):
    return tf.exp(x) * x


@tf.function
def outer(x):
    with tf.GradientTape(persistent=True) as t:
        t.watch(x)
        y = inner(x)
    return t.gradient(y, x), t.gradient(y, x)


x = tf.constant([1.0, 2.0, -0.5])
g1, g2 = outer(x)
record("gradients", [bits(g1), bits(g2)])
nodes = outer.get_concrete_function(x).graph.as_graph_def().node
record("call nodes and their outputs",
       [(n.name, n.op, len(n.attr["Tout"].list.type)) for n in nodes if "Call" in n.op])
