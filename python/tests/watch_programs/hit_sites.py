# Watched from inside the program: the call site of every call, hits included (the site cache is
# keyed by code object and instruction offset: two calls on different lines of one loop body,
# and a call whose arguments span lines, each keep their own line).
import json
import sys

import tensorflow as tf
import tfscope


@tf.function
def f(x):
    return x * 2


x = tf.constant(1.0)
with tfscope.watch() as w:
    for _ in range(3):
        f(x)  # site A
        y = f(x)  # site B
        z = f(  # site C
            x)
sites = [s for _, _, _, s, _, _ in w.function("f").timeline]
json.dump({"sites": sites}, open(sys.argv[1], "w"))
