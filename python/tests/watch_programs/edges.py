# Watched under real TF by test_watch.py: nested tf.functions, threads, a call that fails to bind
# its input_signature, **kwargs, an object argument, a nested dict argument.
import json
import sys
import threading

import tensorflow as tf


@tf.function
def inner(x):
    return x * 2


@tf.function
def outer(x):
    return inner(x) + inner(x + 1)  # inner inside outer's trace


outer(tf.constant(1.0))  # outer call 1
outer(tf.constant([1.0]))  # outer call 2


def work(n):
    for i in range(n):
        inner(tf.constant([float(i)] * (i + 2)))  # from a thread


threads = [threading.Thread(target=work, args=(3,)) for _ in range(2)]
for t in threads:
    t.start()
for t in threads:
    t.join()


@tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
def sig(x):
    return x + 1


sig(tf.constant([1.0]))
try:
    sig(tf.constant([[1.0]]))  # does not bind
except TypeError:
    pass


@tf.function
def kw(x, **opts):
    return x + len(opts)


kw(tf.constant(1.0), a=1)
kw(tf.constant(1.0), a=1, b=2)  # a new keyword


class Thing:
    pass


@tf.function
def takes(o, x):
    return x + 1


keep = [Thing(), Thing()]
takes(keep[0], tf.constant(1.0))
takes(keep[1], tf.constant(1.0))  # another object


@tf.function
def nest(d):
    return d["a"] + d["b"][0]


nest({"a": tf.constant(1.0), "b": [tf.constant(2.0)]})
nest({"a": tf.constant(1.0), "b": [tf.constant([2.0])]})  # a nested shape

json.dump({f.__name__ if hasattr(f, "__name__") else n: f.experimental_get_tracing_count()
           for n, f in [("outer", outer), ("inner", inner), ("sig", sig), ("kw", kw),
                        ("takes", takes), ("nest", nest)]}, open(sys.argv[1], "w"))
