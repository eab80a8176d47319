"""tf.Module: a decorated __call__ with an input_signature, stale self attributes, and module variable reads."""
class Scale(tf.Module):
    def __init__(self):
        super().__init__()
        self.bias = 1.0
        self.w = tf.Variable(2.0)

    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
    def __call__(self, x):
        print("trace")
        return x * self.w + self.bias

s = Scale()
x = tf.constant([1.0, 2.0])
call("s(x)", s.__call__, x)
s.bias = 5.0
call("after bias=5 (stale)", s.__call__, x)
s.w.assign(3.0)
call("after w.assign(3) (seen)", s.__call__, x)
call("longer x", s.__call__, tf.constant([1.0, 2.0, 3.0]))
record("trainable_variables", [v.numpy() for v in s.trainable_variables])
record("name", s.name)
