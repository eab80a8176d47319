"""Graphs: the function library as TF writes it: branch and loop functions' argument names (while_v2's "while/placeholder", captures named after the captured op inside the consumer's scope, "___redundant_placeholder", "<name>_0" for a passed-through capture, cond_v2's "cond/placeholder") and their nodes' names and inputs ("node:arg:index"). Function-name counters are dropped (they count every function TF has built)."""
import re


def library(cf):
    gd = cf.graph.as_graph_def()
    out = []
    for f in gd.library.function:
        name = re.sub(r"_\d+$", "", f.signature.name)
        args = [re.sub(r"_\d+___", "___", a.name) for a in f.signature.input_arg]
        nodes = [[n.name, n.op, [re.sub(r"_\d+___", "___", i) for i in n.input]] for n in f.node_def]
        out.append([name, args, nodes])
    return sorted(out, key=lambda e: (e[0], e[1], str(e[2])))


@tf.function
def c(x, y):
    return tf.cond(x > 0, lambda: x + y, lambda: x - 1)


@tf.function
def w(n, k):
    i = tf.constant(0)
    while i < n:
        i = i + k
    return i


@tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32)])
def rows(t):
    acc = tf.zeros([3])
    for row in t:
        acc = acc + row
        if tf.reduce_sum(acc) > 100.0:
            break
    return acc


record("cond library", library(c.get_concrete_function(tf.constant(1), tf.constant(2))))
record("while library", library(w.get_concrete_function(tf.constant(5), tf.constant(2))))
record("for-over-tensor library", library(rows.get_concrete_function()))
call("w", w, tf.constant(5), tf.constant(2))
call("rows", rows, tf.ones([4, 3]) * 30.0)
