"""input_signature with nested specs (a list and a dict of TensorSpecs)."""
@tf.function(input_signature=[[tf.TensorSpec([2], tf.float32), tf.TensorSpec([], tf.int32)],
                              {"w": tf.TensorSpec([None], tf.float32)}])
def f(pair, d):
    print("trace")
    return pair[0] * tf.cast(pair[1], tf.float32) + tf.reduce_sum(d["w"])

call("ok", f, [tf.constant([1.0, 2.0]), tf.constant(3)], {"w": tf.constant([1.0, 1.0, 1.0])})
call("python values converted", f, [[1.0, 2.0], 3], {"w": [0.5]})
call("tuple instead of list", f, (tf.constant([1.0, 2.0]), tf.constant(3)), {"w": tf.constant([1.0])})
call("wrong key", f, [tf.constant([1.0, 2.0]), tf.constant(3)], {"v": tf.constant([1.0])})
describe("cf", f.get_concrete_function())
