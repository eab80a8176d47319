"""Errors: shapes no tensor can have, eagerly and in a tf.function: negative dimensions for tf.zeros/ones/fill (Fill's kernel, or its shape function's two texts), an element count past 2**63 - 1, a dimension past int64, a buffer no allocator gives (OOM), tf.unstack of a scalar or along a missing axis, and a nest deeper than Python's recursion limit as a tf.function argument."""
# conformance: live-only: the OOM texts name TF's CPU allocator, mklcpu with oneDNN and cpu without

attempt("zeros [-1]", lambda: tf.zeros([-1]))
attempt("zeros -1", lambda: tf.zeros(-1))
attempt("ones [3, -2]", lambda: tf.ones([3, -2]))
attempt("fill [-1]", lambda: tf.fill([-1], 1.0))
attempt("zeros [2**62, 4]", lambda: tf.zeros([2**62, 4]))
attempt("ones [2**62, 4] int32", lambda: tf.ones([2**62, 4], tf.int32))
attempt("fill [2**62, 4]", lambda: tf.fill([2**62, 4], 1.0))
attempt("zeros [10**10, 10**10]", lambda: tf.zeros([10**10, 10**10]))
attempt("zeros [2**63]", lambda: tf.zeros([2**63]))
attempt("constant 2**63", lambda: tf.constant([2**63]))
record("constant 2**63 as float32", tf.constant(2**63, tf.float32))
attempt("broadcast_to [2**62, 4]", lambda: tf.broadcast_to(tf.constant([1]), [2**62, 4]))
attempt("range 2**62", lambda: tf.range(2**62))
attempt("tile 2**62", lambda: tf.tile(tf.constant([1]), [2**62]))
record("zeros [2**31, 0]", tf.zeros([2**31, 0]).shape.as_list())
attempt("unstack scalar", lambda: tf.unstack(tf.constant(1)))
attempt("unstack axis 1", lambda: tf.unstack(tf.constant([1, 2]), axis=1))
attempt("unstack axis -2", lambda: tf.unstack(tf.constant([1, 2]), axis=-2))
attempt("unstack scalar num=1", lambda: tf.unstack(tf.constant(1), num=1))


@tf.function
def zeros_negative():
    return tf.zeros([-1])


@tf.function
def ones_negative():
    return tf.ones([3, -2])


@tf.function
def fill_negative():
    return tf.fill([-1], 1.0)


@tf.function
def unstack_scalar():
    return tf.unstack(tf.constant(1))


@tf.function
def large_zeros():
    return tf.zeros([1000, 1001]), tf.zeros([1000]), tf.ones([999]), tf.ones([10, 100])


def last_line(fn):
    """The error's type and last line: TF's "in user code" frames for tf.zeros/ones/fill include
    one of its own (dtensor's call_with_layout wrapper, under TF's install path)."""
    try:
        fn()
        return "ok"
    except Exception as e:
        return type(e).__name__ + ": " + str(e).strip().splitlines()[-1].strip()


record("fn zeros [-1]", last_line(zeros_negative))
count("fn zeros [-1] traces", zeros_negative)
record("fn ones [3, -2]", last_line(ones_negative))
record("fn fill [-1]", last_line(fill_negative))
call("fn unstack scalar", unstack_scalar)
graph_ops("fn large zeros ops", large_zeros.get_concrete_function())
record("fn large zeros node names",
       [n.name for n in large_zeros.get_concrete_function().graph.as_graph_def().node])


@tf.function
def takes_anything(a):
    return 1


deep = tf.constant(1.0)
for _ in range(20000):
    deep = [deep]
call("fn argument nested 20000 deep", takes_anything, deep)
deep_ints = 1
for _ in range(20000):
    deep_ints = (deep_ints,)
call("fn argument tuple nested 20000 deep", takes_anything, deep_ints)
record("constant nested 254 deep", tf.constant(eval("[" * 254 + "1" + "]" * 254)).shape.rank)
