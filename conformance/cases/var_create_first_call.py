"""Variables created on the first call (guarded, tf.Module __call__): the first call traces twice."""
class Counter(tf.Module):
    def __init__(self):
        super().__init__()
        self.count = None

    @tf.function
    def __call__(self):
        print("trace")
        if self.count is None:
            self.count = tf.Variable(0)
        return self.count.assign_add(1)

c = Counter()
call("first", c.__call__)
call("second", c.__call__)
call("third", c.__call__)
record("trainable_variables", [v.numpy() for v in c.trainable_variables])
record("variables", len(c.variables))
