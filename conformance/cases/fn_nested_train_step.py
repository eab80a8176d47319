"""Function layer, the training-loop idiom: a train_step tf.function calls a model method (a tf.function reading two variables) and a update function that assigns them; values across steps, both counts, and the step's graph and library."""
from cases._fn_graph import record_graph


class Model(tf.Module):
    def __init__(self):
        super().__init__()
        self.w = tf.Variable(2.0)
        self.b = tf.Variable(0.5)

    @tf.function
    def predict(self, x):
        print("trace predict")
        return x * self.w + self.b


m = Model()


@tf.function
def update(delta):
    print("trace update")
    m.w.assign_sub(delta)
    m.b.assign_add(delta)


@tf.function
def train_step(x, y):
    print("trace train_step")
    err = m.predict(x) - y
    update(0.1 * tf.reduce_mean(err))
    return tf.reduce_mean(err * err)


for i in range(3):
    call("step %d" % i, train_step, tf.constant([1.0, 2.0]), tf.constant([3.0, 5.0]))
    record("w after step %d" % i, m.w.numpy())
    record("b after step %d" % i, m.b.numpy())
count("train_step count", train_step)
count("predict count", m.predict)
count("update count", update)
record_graph(record, "train_step",
             train_step.get_concrete_function(tf.constant([1.0, 2.0]), tf.constant([3.0, 5.0])))
