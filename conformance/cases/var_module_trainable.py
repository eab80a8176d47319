"""tf.Module: trainable_variables / variables collect tf.Variables (non-trainable excluded), in attribute order."""
class Dense(tf.Module):
    def __init__(self, n_in, n_out):
        super().__init__()
        self.w = tf.Variable(tf.ones([n_in, n_out]), name="w")
        self.b = tf.Variable(tf.zeros([n_out]), name="b")
        self.steps = tf.Variable(0, trainable=False, name="steps")

    @tf.function
    def __call__(self, x):
        print("trace", x.shape)
        self.steps.assign_add(1)
        return tf.matmul(x, self.w) + self.b

d = Dense(3, 2)
call("call 1x3", d.__call__, tf.ones([1, 3]))
call("call 4x3", d.__call__, tf.ones([4, 3]))
call("call 1x3 again", d.__call__, tf.ones([1, 3]))
record("trainable names", sorted(v.name for v in d.trainable_variables))
record("all names", sorted(v.name for v in d.variables))
record("steps", d.steps)
describe("cf", d.__call__.get_concrete_function(tf.TensorSpec([None, 3], tf.float32)))
