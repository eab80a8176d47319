"""tf.TensorArray as a loop variable: an LSTM cell unrolled over time with tf.while_loop
(unstack the inputs, write each step's output, stack), a greedy decoder with a dynamic-size
TensorArray and a tensor `break` in AutoGraph, a Fibonacci with reads of earlier elements, and
the same loops eagerly; values, graph ops, the loop's library ops and trace counts."""
import collections


def nodes(cf):
    return [[n.name, n.op, list(n.input)] for n in cf.graph.as_graph_def().node]


def library_ops(cf):
    gd = cf.graph.as_graph_def()
    return sorted(n.op for f in gd.library.function for n in f.node_def)


units, features, steps = 3, 2, 4
rng = np.random.RandomState(7)
W = tf.constant(rng.uniform(-0.5, 0.5, (features, 4 * units)).astype(np.float32))
U = tf.constant(rng.uniform(-0.5, 0.5, (units, 4 * units)).astype(np.float32))
b = tf.constant(rng.uniform(-0.1, 0.1, (4 * units,)).astype(np.float32))
xs = tf.constant(rng.uniform(-1, 1, (steps, 1, features)).astype(np.float32))


def lstm(xs, W, U, b):
    n = tf.shape(xs)[0]
    inputs = tf.TensorArray(tf.float32, size=n).unstack(xs)
    outputs = tf.TensorArray(tf.float32, size=n)
    h = tf.zeros([1, units])
    c = tf.zeros([1, units])

    def step(t, h, c, outputs):
        x = inputs.read(t)
        z = tf.matmul(x, W) + tf.matmul(h, U) + b
        i, f, g, o = tf.split(z, 4, axis=1)
        c = tf.sigmoid(f) * c + tf.sigmoid(i) * tf.tanh(g)
        h = tf.sigmoid(o) * tf.tanh(c)
        return t + 1, h, c, outputs.write(t, h)

    _, h, c, outputs = tf.while_loop(lambda t, *_: t < n, step, [0, h, c, outputs])
    return outputs.stack(), h


lstm_fn = tf.function(lstm)
call("lstm eager", lstm, xs, W, U, b)
call("lstm", lstm_fn, xs, W, U, b)
cf = lstm_fn.get_concrete_function(xs, W, U, b)
record("lstm graph ops", sorted(collections.Counter(n.op for n in cf.graph.as_graph_def().node).items()))
record("lstm library ops", library_ops(cf))
record("lstm output shapes", [repr(t.shape) for t in cf.structured_outputs])
call("lstm again", lstm_fn, xs * 2.0, W, U, b)
count("lstm traces", lstm_fn)

table = tf.constant([[0.1, 0.9, 0.0, 0.0],
                     [0.0, 0.1, 0.8, 0.1],
                     [0.0, 0.0, 0.2, 0.8],
                     [0.7, 0.1, 0.1, 0.1]])


# (The table is an argument: an eager tensor captured inside a loop body is a Const of the outer
# graph fed to the While in TF, which tfscope does not do yet.)
@tf.function
def greedy(table, start, max_len):
    ta = tf.TensorArray(tf.int32, size=0, dynamic_size=True)
    tok = start
    for i in tf.range(max_len):
        tok = tf.cast(tf.argmax(tf.gather(table, tok)), tf.int32)
        ta = ta.write(i, tok)
        if tok == 3:
            break
    return ta.stack()


call("greedy from 0", greedy, table, tf.constant(0), tf.constant(10))
call("greedy from 3", greedy, table, tf.constant(3), tf.constant(10))
call("greedy short", greedy, table, tf.constant(0), tf.constant(2))
cf = greedy.get_concrete_function(table, tf.constant(0), tf.constant(10))
record("greedy nodes", nodes(cf))
record("greedy library ops", library_ops(cf))
record("greedy output shape", repr(cf.structured_outputs.shape))
count("greedy traces", greedy)


@tf.function
def fibonacci(n):
    ta = tf.TensorArray(tf.float32, size=0, dynamic_size=True)
    ta = ta.unstack([0., 1.])
    for i in range(2, n):
        ta = ta.write(i, ta.read(i - 1) + ta.read(i - 2))
    return ta.stack()


call("fibonacci 7", fibonacci, 7)
record("fibonacci nodes", nodes(fibonacci.get_concrete_function(7)))


@tf.function
def running_sum(x):
    ta = tf.TensorArray(tf.float32, size=tf.shape(x)[0], element_shape=[])
    acc = 0.0
    for i in tf.range(tf.shape(x)[0]):
        acc += x[i]
        ta = ta.write(i, acc)
    return ta.stack(), ta.size()


call("running sum", running_sum, tf.constant([1., 2., 3.]))
cf = running_sum.get_concrete_function(tf.constant([1., 2., 3.]))
record("running sum nodes", nodes(cf))
record("running sum shapes", [repr(t.shape) for t in cf.structured_outputs])
