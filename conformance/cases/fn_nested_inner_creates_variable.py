"""Function layer: a module method that creates its variable on its first call, called first inside another function's trace: the method traces twice (TF's retrace without variable creation), the outer function once; later calls hit."""


class Lazy(tf.Module):
    def __init__(self):
        super().__init__()
        self.w = None

    @tf.function
    def __call__(self, x):
        print("trace inner")
        if self.w is None:
            self.w = tf.Variable(tf.ones([2]))
        return x * self.w


lz = Lazy()


@tf.function
def outer(x):
    print("trace outer")
    return lz(x) + 1.0


call("outer 1", outer, tf.constant([1.0, 2.0]))
count("inner count", lz.__call__)
count("outer count", outer)
call("outer 2", outer, tf.constant([3.0, 2.0]))
count("inner count after", lz.__call__)
count("outer count after", outer)
