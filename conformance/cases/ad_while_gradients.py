"""Autodiff: gradients through tf.while_loop inside a tf.function, as while_v2's _WhileGrad
builds them. The forward While gains a loop variable per intermediate the gradient reads (an
EmptyTensorList `<tensor>/accumulator` whose bound is the loop's maximum_iterations), its body
pushes the value each iteration (`while_body_<n>_rewritten`, the cond `while_cond_<n>_rewritten`
taking the list too), and the gradient is a While `gradient_tape/while/while_grad` over
`while_body_<n>_grad_<m>` (the body's _GradientsHelper, popping each accumulated value back) and
`while_cond_<n>_grad_<m>` (the gradient counter below the forward iteration count). Loop
invariants (captured tensors) are passed on, a forward Const is made again. Compared: the graph
node for node, the library's functions node for node (arguments by position: tfscope names a
captured placeholder after the While output, TF after the forward tensor), the bits, for
tf.while_loop, maximum_iterations, AutoGraph `for i in tf.range` and `while` loops, a loop
variable the gradient reads, a loop whose variable does not reach the target, a persistent tape
asked twice (values only), two loops in a row, and the eager tape through
tf.while_loop. Each value is also checked against a central difference."""
# conformance: live-only: the gradients run tanh, exp and mul chains whose last bits depend on the CPU
from cases._fn_graph import graph
from cases._grad_check import bits, central, lib_view, near


def check(label, fn, *args):
    cf = fn.get_concrete_function(*args)
    record(label + " graph", graph(cf))
    record(label + " library", lib_view(cf))
    g = fn(*args)
    record(label + " value", [bits(t) for t in g] if isinstance(g, (list, tuple)) else bits(g))
    return g


rng = np.random.default_rng(17)
xv = rng.uniform(-1.0, 1.0, (3,)).astype(np.float32)
x = tf.constant(xv)


@tf.function
def tanh_loop(x):
    with tf.GradientTape() as t:
        t.watch(x)
        y = tf.while_loop(lambda i, a: i < 3, lambda i, a: (i + 1, tf.tanh(a) * x), (0, x))[1]
    return t.gradient(y, x)


def tanh_ref(v):
    a = v
    for _ in range(3):
        a = np.tanh(a) * v
    return np.sum(a)


g = check("tanh loop", tanh_loop, x)
record("tanh loop vs central difference", near(g, central(tanh_ref, xv)))


@tf.function
def bounded(x):
    with tf.GradientTape() as t:
        t.watch(x)
        y = tf.while_loop(lambda a: tf.reduce_sum(a) < 100.0, lambda a: (a * a + 2.0,), (x,),
                          maximum_iterations=2)[0]
        loss = tf.reduce_sum(y)
    return t.gradient(loss, x)


def bounded_ref(v):
    a = v
    for _ in range(2):
        a = a * a + 2.0
    return np.sum(a)


g = check("maximum_iterations and a loop variable read", bounded, x)
record("maximum_iterations vs central difference", near(g, central(bounded_ref, xv)))


@tf.function
def autograph_for(x, n):
    with tf.GradientTape() as t:
        t.watch(x)
        a = x
        for _ in tf.range(n):
            a = tf.exp(a) * 0.5 + x
        loss = tf.reduce_sum(a)
    return t.gradient(loss, x)


def for_ref(v):
    a = v
    for _ in range(3):
        a = np.exp(a) * 0.5 + v
    return np.sum(a)


g = check("autograph for range", autograph_for, x, tf.constant(3))
record("autograph for vs central difference", near(g, central(for_ref, xv)))


@tf.function
def autograph_while(x):
    with tf.GradientTape() as t:
        t.watch(x)
        a = x
        i = tf.constant(0)
        while i < 4:
            a = tf.sigmoid(a) + a * x
            i += 1
        loss = tf.reduce_sum(a)
    return t.gradient(loss, x)


def while_ref(v):
    a = v
    for _ in range(4):
        a = 1.0 / (1.0 + np.exp(-a)) + a * v
    return np.sum(a)


g = check("autograph while", autograph_while, x)
record("autograph while vs central difference", near(g, central(while_ref, xv)))


@tf.function
def unconnected(x):
    with tf.GradientTape() as t:
        t.watch(x)
        _, a, b = tf.while_loop(lambda i, a, b: i < 2, lambda i, a, b: (i + 1, a * 3.0, b + x),
                                (0, x, x))
    return t.gradient(a, x)


check("a loop variable that does not reach the target", unconnected, x)


@tf.function
def persistent_twice(x):
    with tf.GradientTape(persistent=True) as t:
        t.watch(x)
        y = tf.while_loop(lambda i, a: i < 3, lambda i, a: (i + 1, tf.tanh(a) * x), (0, x))[1]
        loss = tf.reduce_sum(y * y)
    return t.gradient(y, x), t.gradient(loss, x)


# TF runs a loop a persistent tape watches inside a `cflow_gradient_wrapper` function (for
# higher-order gradients), which tfscope does not: the values only.
record("persistent tape twice", [bits(t) for t in persistent_twice(x)])


@tf.function
def two_loops(x):
    with tf.GradientTape() as t:
        t.watch(x)
        a = tf.while_loop(lambda i, a: i < 2, lambda i, a: (i + 1, tf.exp(a) * 0.25), (0, x))[1]
        b = tf.while_loop(lambda i, b: i < 3, lambda i, b: (i + 1, tf.tanh(b) * a), (0, a))[1]
        loss = tf.reduce_sum(b)
    return t.gradient(loss, x)


def two_ref(v):
    a = v
    for _ in range(2):
        a = np.exp(a) * 0.25
    b = a
    for _ in range(3):
        b = np.tanh(b) * a
    return np.sum(b)


g = check("two loops in a row", two_loops, x)
record("two loops vs central difference", near(g, central(two_ref, xv)))

with tf.GradientTape() as eager_tape:
    eager_tape.watch(x)
    ey = tf.while_loop(lambda i, a: i < 3, lambda i, a: (i + 1, tf.tanh(a) * x), (0, x))[1]
record("eager tape through tf.while_loop", bits(eager_tape.gradient(ey, x)))
