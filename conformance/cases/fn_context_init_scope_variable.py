"""Context: a variable created under tf.init_scope on a method's first call (the Keras build idiom): created once, the method traced twice (TF retraces without variable creation), later calls hit."""


class M(tf.Module):
    def __init__(self):
        super().__init__()
        self.v = None

    @tf.function
    def __call__(self, x):
        print("trace")
        if self.v is None:
            with tf.init_scope():
                self.v = tf.Variable(tf.ones([2]))
        return x * self.v


m = M()
call("m(x)", m, tf.constant([1.0, 2.0]))
count("count", m.__call__)
call("m(x) again", m, tf.constant([3.0, 4.0]))
count("count after second call", m.__call__)
record("variables", [v.numpy() for v in m.variables])
