"""Autodiff: gradients through tf.cond. Inside a tf.function, tape.gradient of a cond is cond_v2's
_IfGrad: an If over the branches' gradient functions (`<branch>_grad_<uid>`), the forward If
rewritten to output the intermediates the gradients need as optionals (OptionalFromValue in the
branch that made one, OptionalNone in the other; branches renamed `<branch>_rewritten`), read
back with OptionalGetValue. Compared: the function's graph node for node, its library's
functions node for node (argument names replaced by their position: tfscope names a gradient
function's captured intermediates after the If output, TF after the forward tensor, which is the
one difference, see known_differences), the gradients' bits in both branches, a variable read in
a branch, a branch that gives no gradient (zeros), two conds in a row, a cond in a cond, a
persistent tape asked twice, and the eager tape through tf.cond. Each value is also checked
against a central difference."""
# conformance: live-only: the gradients run tanh, exp and MatMul, whose last bits depend on the CPU and on oneDNN
from cases._fn_graph import graph
from cases._grad_check import bits, central, lib_view, near


rng = np.random.default_rng(11)
xv = rng.uniform(-1.0, 1.0, (3,)).astype(np.float32)
x = tf.constant(xv)
T, F = tf.constant(True), tf.constant(False)


def exp_or_identity(x, p):
    with tf.GradientTape() as t:
        t.watch(x)
        y = tf.cond(p, lambda: tf.exp(x) * 2.0, lambda: x)
        z = tf.reduce_sum(y * y)
    return t.gradient(z, x)


def square_or_tanh(x, p):
    with tf.GradientTape() as t:
        t.watch(x)
        y = tf.cond(p, lambda: x * x, lambda: tf.tanh(x))
    return t.gradient(y, x)


fn = tf.function(exp_or_identity)
record("exp/identity graph", graph(fn.get_concrete_function(x, T)))
record("exp/identity library", lib_view(fn.get_concrete_function(x, T)))
for label, p, ref in (("true", T, lambda v: np.sum((2 * np.exp(v)) ** 2)),
                      ("false", F, lambda v: np.sum(v * v))):
    g = fn(x, p)
    record("exp/identity " + label, bits(g))
    record("exp/identity " + label + " vs central difference", near(g, central(ref, xv)))
count("exp/identity traces", fn)

@tf.function
def cube_or_exp(x, p):
    with tf.GradientTape() as t:
        t.watch(x)
        y = tf.cond(p, lambda: x * x * x, lambda: tf.exp(x))
    return t.gradient(y, x)


record("cube/exp graph", graph(cube_or_exp.get_concrete_function(x, T)))
record("cube/exp values", [bits(cube_or_exp(x, T)), bits(cube_or_exp(x, F))])

fn2 = tf.function(square_or_tanh)
record("square/tanh graph", graph(fn2.get_concrete_function(x, T)))
for label, p in (("true", T), ("false", F)):
    record("square/tanh " + label, bits(fn2(x, p)))
record("square/tanh false vs central difference",
       near(fn2(x, F), central(lambda v: np.sum(np.tanh(v)), xv)))

w = tf.Variable(rng.uniform(-1.0, 1.0, (3, 2)).astype(np.float32), name="w")


@tf.function
def dense_cond(x, p):
    with tf.GradientTape() as t:
        h = tf.matmul(tf.reshape(x, [1, 3]), tf.ones([3, 2]))
        y = tf.cond(p, lambda: tf.tanh(h) * w[0], lambda: tf.zeros([1, 2]))
        loss = tf.reduce_sum(y)
    return t.gradient(loss, [w, x])


for label, p in (("true", T), ("false", F)):
    gw, gx = dense_cond(x, p)
    record("variable in a branch " + label, [bits(gw), bits(gx)])
record("variable graph", graph(dense_cond.get_concrete_function(x, T)))


@tf.function
def two_and_nested(x, p, q):
    with tf.GradientTape() as t:
        t.watch(x)
        a = tf.cond(p, lambda: tf.exp(x), lambda: x * 3.0)
        b = tf.cond(q, lambda: tf.cond(p, lambda: a * a, lambda: tf.tanh(a)), lambda: a + x)
        loss = tf.reduce_sum(b)
    return t.gradient(loss, x)


for p in (True, False):
    for q in (True, False):
        record(f"two conds and a nested one p={p} q={q}",
               bits(two_and_nested(x, tf.constant(p), tf.constant(q))))
record("nested vs central difference",
       near(two_and_nested(x, T, T), central(lambda v: np.sum(np.exp(v) ** 2), xv)))


@tf.function
def persistent_twice(x, p):
    with tf.GradientTape(persistent=True) as t:
        t.watch(x)
        y = tf.cond(p, lambda: tf.exp(x) * x, lambda: x)
        loss = tf.reduce_sum(y)
    return t.gradient(loss, x), t.gradient(y, x)


record("persistent tape twice", [bits(g) for g in persistent_twice(x, T)])

with tf.GradientTape() as eager_tape:
    eager_tape.watch(x)
    ey = tf.cond(T, lambda: tf.exp(x) * x, lambda: x)
record("eager tape through tf.cond", bits(eager_tape.gradient(ey, x)))
