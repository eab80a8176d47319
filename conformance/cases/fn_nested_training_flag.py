"""Function layer, the Keras `training` flag: a layer method taking a Python bool called with training=True and False from two outer functions: one trace of the layer per flag value, the flag baked into each (no input), each caller's library holding its own."""
from cases._fn_graph import record_graph


class Dropoutish(tf.Module):
    @tf.function
    def __call__(self, x, training=False):
        print("trace layer, training =", training)
        if training:
            return x * 0.5
        return x


layer = Dropoutish()


@tf.function
def train(x):
    return layer(x, training=True) + 1.0


@tf.function
def infer(x):
    return layer(x) + 1.0


call("train", train, tf.constant([2.0, 4.0]))
call("infer", infer, tf.constant([2.0, 4.0]))
call("train again", train, tf.constant([6.0, 8.0]))
count("layer count", layer.__call__)
record_graph(record, "train", train.get_concrete_function(tf.constant([2.0, 4.0])))
record_graph(record, "infer", infer.get_concrete_function(tf.constant([2.0, 4.0])))
