"""Function layer: tf.Module methods decorated with tf.function calling each other (a layer inside a model): the inner method's variable read goes through a StatefulPartitionedCall with the variable captured by the outer method; each bound method keeps its own count."""
from cases._fn_graph import record_graph


class Dense(tf.Module):
    def __init__(self):
        super().__init__()
        self.w = tf.Variable([[1.0], [2.0]])

    @tf.function
    def __call__(self, x):
        print("trace Dense")
        return tf.matmul(x, self.w)


class Net(tf.Module):
    def __init__(self):
        super().__init__()
        self.d = Dense()

    @tf.function
    def __call__(self, x):
        print("trace Net")
        return self.d(x) + 1.0


n = Net()
call("n(x)", n, tf.constant([[1.0, 1.0]]))
call("n(x) again", n, tf.constant([[2.0, 3.0]]))
count("Dense count", n.d.__call__)
count("Net count", n.__call__)
call("n.d(x) eagerly", n.d, tf.constant([[1.0, 0.0]]))
count("Dense count after eager call", n.d.__call__)
record_graph(record, "Net", n.__call__.get_concrete_function(tf.constant([[1.0, 1.0]])))
