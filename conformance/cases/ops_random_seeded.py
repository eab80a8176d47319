"""tf.random with seeds: set_seed + op seeds give reproducible values eagerly and inside tf.function (shapes/dtypes/values)."""
tf.random.set_seed(42)
record("uniform op seed 1", tf.random.uniform([3], seed=1))
record("normal op seed 2", tf.random.normal([2, 2], seed=2))
record("uniform int", tf.random.uniform([4], minval=0, maxval=10, dtype=tf.int32, seed=3))
tf.random.set_seed(42)
record("uniform op seed 1 after reset", tf.random.uniform([3], seed=1))
tf.random.set_seed(42)
a = tf.random.uniform([2])
b = tf.random.uniform([2])
record("global seed only: first", a)
record("global seed only: second", b)

@tf.function
def draw():
    return tf.random.uniform([2], seed=5), tf.random.normal([2], seed=6)

tf.random.set_seed(7)
call("graph draw 1", draw)
call("graph draw 2", draw)
graph_ops("ops", draw.get_concrete_function())
