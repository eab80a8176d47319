"""Autodiff: tf.GradientTape's rules eagerly and in a tf.function: a non-persistent tape gives one
set of gradients (TF's RuntimeError after), a persistent one many (and warns once when asked
inside its context), re-entering a recording tape, watching a non-tensor or an integer tensor,
stop_recording, reset, watch_accessed_variables and watched_variables, unconnected gradients
(None or zeros), output_gradients, nested sources and targets (lists, dicts), second derivatives
through nested tapes."""
x = tf.constant([1.0, 2.0, 3.0])
v = tf.Variable([0.5, -1.0, 2.0], name="v")
frozen = tf.Variable([4.0, 5.0, 6.0], trainable=False, name="frozen")


def once():
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    first = tape.gradient(y, x)
    try:
        tape.gradient(y, x)
    except RuntimeError as e:
        return first, str(e)


call("non-persistent tape used twice", once)


def persistent():
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = x * x
        z = y * x
        inside = tape.gradient(z, x)
    return inside, tape.gradient(y, x), tape.gradient([y, z], x), tape.gradient({"a": z}, [x, {"k": x}])


call("persistent tape", persistent)


def reenter():
    tape = tf.GradientTape()
    with tape:
        try:
            with tape:
                pass
        except ValueError as e:
            return str(e)


call("re-entering a recording tape", reenter)


def watch_bad():
    with tf.GradientTape() as tape:
        tape.watch(3)


call("watching a Python int", watch_bad)


def watch_int():
    i = tf.constant([1, 2])
    with tf.GradientTape() as tape:
        tape.watch(i)
        y = i * i
    return tape.gradient(y, i)


call("watching an int32 tensor", watch_int)


def variables(watch_accessed):
    with tf.GradientTape(watch_accessed_variables=watch_accessed) as tape:
        y = tf.reduce_sum(v * frozen * x)
    names = [w.name for w in tape.watched_variables()]
    return names, tape.gradient(y, [v, frozen])


call("watch_accessed_variables=True", variables, True)
call("watch_accessed_variables=False", variables, False)


def stop_and_reset():
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        a = x * 3.0
        with tape.stop_recording():
            b = x * 5.0
        c = a + b
    g1 = tape.gradient(c, x)
    g2 = tape.gradient(b, x)
    g3 = tape.gradient(b, x, unconnected_gradients=tf.UnconnectedGradients.ZERO)
    g4 = tape.gradient(b, x, unconnected_gradients="zero")
    with tf.GradientTape() as t2:
        t2.watch(x)
        y = x * x
        t2.reset()
        t2.watch(x)
        z = y + x
    return g1, g2, g3, g4, t2.gradient(z, x)


call("stop_recording, unconnected, reset", stop_and_reset)


def output_grads():
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    return tape.gradient(y, x, output_gradients=tf.constant([10.0, 100.0, 1000.0]))


call("output_gradients", output_grads)


def second_derivative():
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = x * x * x
        dy = inner.gradient(y, x)
    return dy, outer.gradient(dy, x)


call("nested tapes", second_derivative)


def target_none():
    with tf.GradientTape() as tape:
        tape.watch(x)
    tape.gradient(None, x)


call("target None", target_none)


@tf.function
def in_function(t):
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(t)
        y = tf.reduce_sum(t * v)
    return tape.gradient(y, [t, v]), tape.gradient(y, frozen, unconnected_gradients="zero")


call("in a tf.function", in_function, x)
call("in a tf.function again", in_function, x * 2.0)
