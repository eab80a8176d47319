"""Name scopes: tf.name_scope eagerly (a prefix for variables, never made unique) and in a traced function (the graph's unique scope names, "x/" re-entered, "" the top), TF's name checks, tf.get_current_name_scope, init_scope keeping the graph's scope, and a traced function not inheriting an eager scope."""
scopes = []
with tf.name_scope("outer") as s:
    scopes.append(s)
    with tf.name_scope("inner") as s2:
        scopes.append(s2)
        scopes.append(tf.get_current_name_scope())
        v = tf.Variable(1.0, name="w")
    with tf.name_scope("inner") as s3:
        scopes.append(s3)
        v2 = tf.Variable(1.0, name="w")
    with tf.name_scope("abs/") as s4:
        scopes.append(s4)
    with tf.name_scope("") as s5:
        scopes.append(s5)
        u = tf.Variable(2.0, name="u")
    with tf.init_scope():
        scopes.append(("eager init_scope", tf.get_current_name_scope()))
        z = tf.Variable(2.0, name="z")
    a = tf.Variable(2.0, name="given/")
record("eager scopes", scopes)
record("eager variable names", [v.name, v2.name, u.name, z.name, a.name, tf.Variable(3.0).name])
record("name_scope('q').name", tf.name_scope("q").name)


def enter_and_leave(name):
    with tf.name_scope(name) as s:
        return s


for bad in (1, None, "a b", "-x"):
    call(f"eager name_scope({bad!r})", enter_and_leave, bad)
record("eager scope after the checks", tf.get_current_name_scope())

created = []


@tf.function
def f(x):
    out = []
    with tf.name_scope("layer") as s:
        out.append(s)
        y = x * 2
        with tf.name_scope("dense") as s2:
            out.append(s2)
            out.append(tf.get_current_name_scope())
            z = tf.add(y, 1, name="add")
        with tf.name_scope("dense") as s3:
            out.append(s3)
            z = z + 1
        if not created:
            created.append(tf.Variable(1.0, name="w"))
            created.append(tf.Variable(2.0, name="w"))
            created.append(tf.Variable(3.0))
        with tf.init_scope():
            out.append(("init_scope", tf.get_current_name_scope(), tf.executing_eagerly()))
            c = tf.constant(2.0, name="k")
        z = z * created[0] + c
    with tf.name_scope("layer") as s4:
        out.append(s4)
        z = tf.identity(z)
    with tf.name_scope("layer/") as s5:
        out.append(s5)
        z = tf.identity(z)
    with tf.name_scope("") as s6:
        out.append(s6)
        z = tf.identity(z, name="top")
    for bad in ["a b", "-x", "_x", ".x", "x>y", 3]:
        try:
            with tf.name_scope(bad) as s:
                out.append(("ok", bad, s))
        except ValueError as e:
            out.append(("ValueError", bad, str(e)))
    with tf.name_scope("layer"):
        with tf.name_scope("_x") as s7:
            out.append(s7)
            z = tf.identity(z)
    out.append(y.name)
    out.append(z.name)
    record("graph scopes", out)
    return z


with tf.name_scope("eager_outer"):
    cf = concrete("trace f in an eager scope", f, tf.constant(1.0))
record("graph node names", [n.name for n in cf.graph.as_graph_def().node])
record("variables created in f", [v.name for v in created])
call("f(1.0)", f, tf.constant(1.0))
