# Watched from inside the program (with tfscope.watch(), tfscope.watch.start()/stop()), with TF
# imported before tfscope (the two share the process: tfscope's _core binds its own protobuf).
import json
import sys

import tensorflow as tf
import tfscope

assert tfscope.constant([1.0, 2.0]).numpy().tolist() == [1.0, 2.0]  # tfscope itself still works


@tf.function
def f(x):
    return x * 2


f(tf.constant(1.0))  # before the watch: not seen
with tfscope.watch() as w:
    f(tf.constant(2.0))  # a hit
    f(tf.constant([1.0, 2.0]))  # a trace: shape () -> (2,)
out = {"with": [[t.reason, t.call] for t in w.function("f").traces],
       "with_calls": w.function("f").calls}
f(tf.constant([3.0]))  # after the watch: not seen
w2 = tfscope.watch.start()
try:
    tfscope.watch.start()
except RuntimeError as e:
    out["twice"] = str(e)
f(tf.constant([[1.0]]))
assert tfscope.watch.stop() is w2 and tfscope.watch.active() is None
out["start"] = [[t.reason, t.call] for t in w2.function("f").traces]
out["summary"] = w2.summary()
json.dump(out, open(sys.argv[1], "w"))
