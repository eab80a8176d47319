"""Function layer: nests across a call: a dict and a tuple with a Python int go in (flattened in TF's order: dict keys sorted, placeholders named after the argument), a dict comes out (outputs in sorted-key order, rebuilt for the caller)."""
from cases._fn_graph import record_graph


@tf.function
def nest_in(d, t):
    return {"s": d["a"] + d["b"], "p": t[0] * t[1]}


@tf.function
def nest_out(x):
    r = nest_in({"b": x, "a": x + 1}, (x, 2))
    return r["s"], r["p"]


call("nest_out(3)", nest_out, tf.constant(3))
count("nest_in count", nest_in)
call("nest_in eagerly, same types", nest_in, {"a": tf.constant(1), "b": tf.constant(2)}, (tf.constant(5), 2))
count("nest_in count after eager call", nest_in)
record_graph(record, "nest_out", nest_out.get_concrete_function(tf.constant(3)))
