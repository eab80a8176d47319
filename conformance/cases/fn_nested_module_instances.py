"""Function layer: two instances of one tf.Module class used by a model function: each bound method has its own cache and count (one trace each), the model's graph holds two StatefulPartitionedCalls of two library functions."""
from cases._fn_graph import record_graph


class Scale(tf.Module):
    def __init__(self, k):
        super().__init__()
        self.k = tf.Variable(k)

    @tf.function
    def __call__(self, x):
        print("trace Scale")
        return x * self.k


a = Scale(2.0)
b = Scale(3.0)


@tf.function
def model(x):
    print("trace model")
    return a(x) + b(x)


call("model(1)", model, tf.constant(1.0))
call("model(2)", model, tf.constant(2.0))
count("a count", a.__call__)
count("b count", b.__call__)
count("model count", model)
call("a(5) eagerly (hit)", a, tf.constant(5.0))
count("a count after eager call", a.__call__)
record_graph(record, "model", model.get_concrete_function(tf.constant(1.0)))
