"""Objects: an entry whose referent died never matches again but still counts in the tracing count."""
import gc

class O:
    pass

@tf.function
def f(o):
    print("trace")
    return tf.constant(1)

o = O()
call("o", f, o)
del o
gc.collect()
for i in range(3):
    p = O()
    call(f"fresh object {i}", f, p)
    del p
    gc.collect()
