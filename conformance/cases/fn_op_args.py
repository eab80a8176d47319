"""Arguments the op wrappers take as TF's do: softmax's axis with a name (the name goes to the
last transpose), gather's batch_dims, zeros_like/ones_like's dtype, concat of a list holding a
tensor and Python ints (autopacked "concat/values_1"), a variable operand read inside the op's
scope, tf.print's unknown keyword; eagerly and in a traced graph."""
from cases._fn_graph import graph

v = tf.Variable([1.0, 2.0, 3.0, 4.0])


def body(x, params, idx):
    n = tf.size(x)
    return (tf.nn.softmax(tf.reshape(x, [2, 2]), axis=0, name="sm"),
            tf.nn.log_softmax(tf.reshape(x, [2, 2]), axis=0),
            tf.gather(params, idx, batch_dims=1, name="gb"),
            tf.gather(params, idx, axis=1, batch_dims=1),
            tf.zeros_like(x, dtype=tf.int32),
            tf.ones_like(x, dtype=tf.float64, name="ol"),
            tf.zeros_like(x, dtype=tf.float32),
            tf.concat([[n], [2, 3]], 0),
            tf.concat([tf.reshape(n, [1]), [7]], 0, name="cv"),
            tf.add(x, 2.0))


args = (tf.constant([1.0, -2.0, 3.0, 0.5]), tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]),
        tf.constant([[2, 0], [1, 1]]))
call("eager", body, *args)
fn = tf.function(body)
call("traced", fn, *args)
cf = concrete("concrete", fn, tf.TensorSpec([4], tf.float32), tf.TensorSpec([2, 3], tf.float32),
              tf.TensorSpec([2, 2], tf.int32))
if cf is not None:
    record("graph", graph(cf))

# One read per function: the wrappers read a variable operand inside their own scope.
def read_identity():
    return tf.identity(v)


def read_exp():
    return tf.math.exp(v, name="ev")


def read_add():
    return tf.add(v, 1.0)


def read_relu():
    return tf.nn.relu(v)


for label, f in (("identity", read_identity), ("exp", read_exp), ("add", read_add),
                 ("relu", read_relu)):
    vf = tf.function(f)
    call(label, vf)
    vcf = concrete(label + " concrete", vf)
    if vcf is not None:
        record(label + " graph", graph(vcf))
call("print unknown keyword", tf.print, 1, foo=2)
call("concat eager error", tf.concat, [tf.zeros([2, 2]), tf.zeros([3])], 0)
call("concat eager error with a name", tf.concat, [tf.zeros([2, 2]), tf.zeros([3])], 0, name="c")
