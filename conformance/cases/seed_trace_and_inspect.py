"""Seed 000 trace_and_inspect: a small MLP ConcreteFunction: node counts, captured tensors, structured input signature."""
tf.random.set_seed(7)
w1 = tf.Variable(tf.random.normal([4, 8], seed=1), name="w1")
b1 = tf.Variable(tf.zeros([8]), name="b1")
w2 = tf.Variable(tf.random.normal([8, 3], seed=2), name="w2")
scale = tf.constant(0.5)

@tf.function
def mlp(x):
    h = tf.nn.relu(tf.matmul(x, w1) + b1)
    return tf.nn.softmax(tf.matmul(h, w2) * scale)

cf = mlp.get_concrete_function(tf.TensorSpec([None, 4], tf.float32))
describe("mlp", cf)
call("mlp(ones)", mlp, tf.ones([2, 4]))
count("count", mlp)
