"""Autodiff: which gradient functions TF builds, when, and their names. A tf.function called
eagerly under a tape gets a forward/backward pair at that call (`__forward_f_<c>` and
`__inference___backward_f_<a>_<c+1>`, `a` taken when the backward graph is made, before
`c`), not at tape.gradient; later calls under a tape reuse it. A persistent tape, or two tapes
recording one call, make TF build a second pair (higher-order gradients), reused after. A tape
watching nothing the call reads builds nothing. A new trace under a tape gets its own pair. A
gradient of a call inside a traced function builds the pair for the callee while tracing (TF's
delayed rewrite), reused by any other graph's gradient of the same trace; a tape around a
function whose graph already holds a pair builds the pairs of its calls in turn
(`__forward___backward_inner_...`). Each step records the new pairs with their uids ranked in
building order (the node counts of each pair's functions: `ad_gradient_function_sizes`)."""
from cases._gradient_functions import Watcher, sizes

w = Watcher(tf)
v = tf.Variable([1.0, 2.0], name="v")


@tf.function
def f(x):
    return tf.reduce_sum(tf.exp(x) * v)


x = tf.constant([3.0, 4.0])


def step(label, thunk):
    thunk()
    fresh = w.new()
    record(label, fresh)
    return fresh


def under_tape(fn, arg, persistent=False, watch=None, accessed=True, gradient_of=None):
    def run():
        with tf.GradientTape(persistent=persistent, watch_accessed_variables=accessed) as t:
            if watch is not None:
                t.watch(watch)
            y = fn(arg)
        if gradient_of is not None:
            t.gradient(y, gradient_of)
    return run


step("plain call", lambda: f(x))
step("first call under a tape", under_tape(f, x))
step("tape.gradient", under_tape(f, x, gradient_of=v))
step("another call under a tape", under_tape(f, x, gradient_of=v))
step("persistent tape", under_tape(f, x, persistent=True, gradient_of=v))


def nested():
    with tf.GradientTape() as t1:
        with tf.GradientTape() as t2:
            f(x)


step("nested tapes", nested)
step("tape watching nothing", under_tape(f, x, accessed=False))
step("tape watching the argument only", under_tape(f, x, accessed=False, watch=x))
step("new trace under a tape", under_tape(f, tf.constant([[5.0, 6.0]])))
count("f traces", f)


@tf.function
def inner(x):
    return tf.exp(x) * x


@tf.function
def outer(x):
    with tf.GradientTape() as t:
        t.watch(x)
        y = inner(x)
    return t.gradient(y, x)


pair = step("gradient of a call in a traced function", lambda: outer(x))
step("its second call", lambda: outer(x))


@tf.function
def outer2(x):
    return tf.gradients(inner(x), x)


step("tf.gradients of the same trace in another function", lambda: outer2(x))
step("eager tape around the inner function", under_tape(inner, x, watch=x, gradient_of=x))
step("tape around the outer function", under_tape(outer, x, watch=x, gradient_of=x))
