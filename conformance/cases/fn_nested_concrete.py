"""Function layer: a ConcreteFunction (traced for shape (None,)) called inside another function: a PartitionedCall of that trace, never retraced, and its output has the static shape the body gives with the caller's input shape ((2,), as TF's shape refiner infers)."""
from cases._fn_graph import record_graph


@tf.function
def sq(x):
    return x * x


cf_sq = sq.get_concrete_function(tf.TensorSpec([None], tf.float32))


@tf.function
def use(x):
    y = cf_sq(x)
    print("static shape of cf_sq(x):", y.shape)
    z = sq(x)
    print("static shape of sq(x):", z.shape)
    return y + z


call("use([1, 2])", use, tf.constant([1.0, 2.0]))
call("use([1, 2, 3])", use, tf.constant([1.0, 2.0, 3.0]))
count("sq count", sq)
count("use count", use)
record_graph(record, "use", use.get_concrete_function(tf.constant([1.0, 2.0])))
