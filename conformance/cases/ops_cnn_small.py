"""Ops: a small CNN in a tf.function (conv-relu-pool, conv-relu-pool, flatten, dense, softmax)
with its weights in tf.Variables: the class probabilities, the ops of its graph and its trace
count over two batch sizes, as TF 2.21 gives them."""


def data(shape, seed, scale):
    i = np.arange(int(np.prod(shape)), dtype=np.int64)
    return ((((i * 2654435761 + seed * 40503) % 2003 - 1001) / 1001.0) * scale).astype(np.float32).reshape(shape)


w1 = tf.Variable(data([3, 3, 1, 8], 1, 0.5), name="w1")
b1 = tf.Variable(data([8], 2, 0.1), name="b1")
w2 = tf.Variable(data([3, 3, 8, 16], 3, 0.2), name="w2")
b2 = tf.Variable(data([16], 4, 0.1), name="b2")
wd = tf.Variable(data([7 * 7 * 16, 10], 5, 0.05), name="wd")
bd = tf.Variable(data([10], 6, 0.1), name="bd")


@tf.function
def cnn(images):
    y = tf.nn.relu(tf.nn.bias_add(tf.nn.conv2d(images, w1, 1, "SAME"), b1))
    y = tf.nn.max_pool2d(y, 2, 2, "VALID")
    y = tf.nn.relu(tf.nn.bias_add(tf.nn.conv2d(y, w2, 1, "SAME"), b2))
    y = tf.nn.avg_pool2d(y, 2, 2, "VALID")
    y = tf.reshape(y, [-1, 7 * 7 * 16])
    return tf.nn.softmax(tf.matmul(y, wd) + bd)


images = data([4, 28, 28, 1], 7, 1.0)
call("batch of 4", cnn, tf.constant(images))
call("the same batch again", cnn, tf.constant(images[::-1].copy()))
call("batch of 2", cnn, tf.constant(images[:2]))
count("traces", cnn)
graph_ops("ops", cnn.get_concrete_function(tf.TensorSpec([4, 28, 28, 1])))
record("predicted classes", tf.argmax(cnn(tf.constant(images)), axis=1))
record("output shape with an unknown batch", cnn.get_concrete_function(tf.TensorSpec([None, 28, 28, 1])).outputs[0].shape)
