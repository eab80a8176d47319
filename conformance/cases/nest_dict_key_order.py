"""Nests: dict keys flatten in Python's sorted() order (numbers by value, strings by code point,
tuples element-wise), not by their text; returned dicts keep their own order; keys Python cannot
order raise Python's TypeError."""
@tf.function
def f(d):
    return {k: v * 2 for k, v in d.items()}

d = {10: tf.constant(1), 2: tf.constant(2), -1: tf.constant(3)}
r = call("int keys", f, d)
record("int keys: returned order", list(r.keys()))
cf = f.get_concrete_function(d)
describe("cf int keys", cf)
record("cf int keys: input names", [t.name for t in cf.inputs])
record("cf int keys: structured_outputs order", list(cf.structured_outputs.keys()))
call("cf flat", cf, tf.constant(5), tf.constant(6), tf.constant(7))
call("cf structured reordered", cf, {2: tf.constant(1), -1: tf.constant(4), 10: tf.constant(9)})

s = {"b": tf.constant(1.0), "a'": tf.constant(2.0), "a": tf.constant(3.0), "B": tf.constant(4.0)}
cf2 = f.get_concrete_function(s)
record("str keys: input names", [t.name for t in cf2.inputs])
call("str keys flat", cf2, tf.constant(1.0), tf.constant(2.0), tf.constant(3.0), tf.constant(4.0))

@tf.function
def g(d):
    return [d[k] for k in d]

cf3 = g.get_concrete_function({(1, 2): tf.constant(1), (1,): tf.constant(2), (0, 9): tf.constant(3)})
record("tuple keys: input names", [t.name for t in cf3.inputs])
call("tuple keys flat", cf3, tf.constant(10), tf.constant(20), tf.constant(30))
call("float and int keys", f, {2.5: tf.constant(1), 1: tf.constant(2), True: tf.constant(3)})
call("mixed keys", f, {"a": tf.constant(1), 2: tf.constant(2)})
call("mixed keys second pair", f, {1: tf.constant(1), "a": tf.constant(2), 2: tf.constant(3)})
record("nest.flatten int keys", tf.nest.flatten({10: "a", 2: "b", 1: "c"}))
count("count f", f)

# The TensorSpec names of structured_input_signature: the key path lowercased, other characters '_'.
@tf.function
def h(Xy, d):
    return tf.constant(0)

one = tf.constant(1)
cf4 = h.get_concrete_function(
    one, {"a'": one, "a b": one, "-1": one, "\u00c9x\u00d7": one, "Ab": [one, {"x-y": one}], "9z": one})
record("spec names", repr(cf4.structured_input_signature))
record("spec names: inputs", [t.name for t in cf4.inputs])
cf5 = h.get_concrete_function(one, {1.5: one, -3: one, 7: one})
record("number key spec names", repr(cf5.structured_input_signature))
cf6 = h.get_concrete_function(one, {(1, 2): one, (1, -2): one})
record("tuple key spec names", repr(cf6.structured_input_signature))
attempt("float and tuple keys", lambda: h.get_concrete_function(one, {1.5: one, (1, -2): one}))
