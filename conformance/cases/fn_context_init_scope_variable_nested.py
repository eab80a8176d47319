"""Context: a layer creating its variable under tf.init_scope on its first call (the Keras build idiom), its decorated __call__ first called from a model function: the variable is created once, eagerly; the layer traces twice (TF's retrace without variable creation), the model once; values across calls."""
class Layer(tf.Module):
    def __init__(self):
        super().__init__()
        self.w = None

    @tf.function
    def __call__(self, x):
        print("trace layer")
        if self.w is None:
            with tf.init_scope():
                self.w = tf.Variable(tf.ones([2]) * 2.0)
        return x * self.w


layer = Layer()


@tf.function
def model(x):
    print("trace model")
    return layer(x) + 1.0


call("model(1)", model, tf.constant([1.0, 2.0]))
call("model(2)", model, tf.constant([3.0, 4.0]))
record("w", layer.w.numpy())
count("layer count", layer.__call__)
count("model count", model)
layer.w.assign([10.0, 20.0])
call("model after assign", model, tf.constant([1.0, 1.0]))
