"""Autodiff: tf.custom_gradient as TF 2.21 builds it, eagerly and in a tf.function: the guide's
log1pexp (its stable gradient where the plain one is NaN), several arguments and results, a
function reading a variable (grad_fn(..., variables=...)), the gradient through a persistent tape
and a nested custom gradient, TF's errors (no `variables` keyword, wrong gradient counts, keyword
arguments in a graph), and the in-function graph op for op."""
from cases._fn_graph import graph


@tf.custom_gradient
def log1pexp(x):
    e = tf.exp(x)

    def grad(upstream):
        return upstream * (1 - 1 / (1 + e))

    return tf.math.log(1 + e), grad


def grad_of(fn, *xs):
    xs = [tf.constant(x) for x in xs]
    with tf.GradientTape() as tape:
        for x in xs:
            tape.watch(x)
        y = fn(*xs)
    return y, tape.gradient(y, xs)


call("log1pexp at 0", grad_of, log1pexp, 0.0)
call("log1pexp at 100 (stable)", grad_of, log1pexp, 100.0)


@tf.custom_gradient
def scale_and_shift(x, y):
    def grad(da, db):
        return da * 3.0 + db, da - 2.0 * db

    return (x * y, x + y), grad


def two_results(x, y):
    a, b = scale_and_shift(x, y)
    return a * 2.0 + b


call("two arguments, two results", grad_of, two_results, [1.0, 2.0], [3.0, 4.0])

w = tf.Variable(2.0, name="w")


@tf.custom_gradient
def times_w(x):
    def grad(dy, variables=None):
        return dy * w, [dy * x * 10.0]

    return x * w, grad


def var_grad():
    x = tf.constant(3.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = times_w(x)
    return tape.gradient(y, [x, w])


call("a variable read inside (variables=)", var_grad)


@tf.custom_gradient
def no_variables_kw(x):
    return x * w, lambda dy: dy


call("grad_fn without variables=", lambda: no_variables_kw(tf.constant(1.0)))


@tf.custom_gradient
def two_grads_for_one(x):
    return x * 2.0, lambda dy: (dy, dy)


def wrong_count():
    x = tf.constant(1.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = two_grads_for_one(x)
    return tape.gradient(y, x)


call("grad_fn returning two gradients for one argument", wrong_count)


@tf.custom_gradient
def clip_grad(x):
    return tf.identity(x), lambda dy: tf.clip_by_value(dy, -1.0, 1.0)


def persistent_and_nested():
    x = tf.constant([0.5, 2.0])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = clip_grad(x * 4.0) * 3.0
        z = log1pexp(clip_grad(x))
    return tape.gradient(y, x), tape.gradient(z, x), tape.gradient([y, z], x)


call("persistent tape, custom gradients composed", persistent_and_nested)


@tf.function
def step(x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = log1pexp(x) * 2.0
    return y, tape.gradient(y, x)


xs = tf.constant([0.0, 100.0, -3.0])
call("log1pexp in a tf.function", step, xs)
record("log1pexp graph", graph(step.get_concrete_function(xs)))


@tf.function
def var_step(x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = times_w(x)
    return tape.gradient(y, [x, w])


call("a variable inside, in a tf.function", var_step, tf.constant(3.0))


@tf.function
def kw_step(x):
    return log1pexp(x=x)


call("keyword argument in a tf.function", kw_step, tf.constant(1.0))
