"""Function layer (issue 13's ConcreteFunction with nests): a ConcreteFunction traced for a dict and a namedtuple, called eagerly and inside another function's trace with the same nests; its outputs rebuilt for the caller."""
import collections

Point = collections.namedtuple("Point", ["x", "y"])


@tf.function
def f(d, p):
    print("trace f")
    return {"s": d["a"] + d["b"], "p": p.x * p.y}


cf = f.get_concrete_function({"a": tf.TensorSpec([], tf.float32), "b": tf.TensorSpec([], tf.float32)},
                             Point(tf.TensorSpec([], tf.float32), tf.TensorSpec([], tf.float32)))
call("cf eagerly", cf, {"a": tf.constant(1.0), "b": tf.constant(2.0)}, Point(tf.constant(3.0), tf.constant(4.0)))
call("cf eagerly, keys given in another order", cf, {"b": tf.constant(2.0), "a": tf.constant(5.0)},
     Point(y=tf.constant(1.0), x=tf.constant(2.0)))


@tf.function
def outer(a, b):
    print("trace outer")
    r = cf({"a": a, "b": b}, Point(a, b))
    return r["s"], r["p"]


call("outer", outer, tf.constant(2.0), tf.constant(3.0))
call("outer again", outer, tf.constant(4.0), tf.constant(5.0))
count("f count", f)
count("outer count", outer)
