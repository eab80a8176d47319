"""Objects: a weakref.ref argument is rejected with TypeError before tracing."""
import weakref

class O:
    pass

o = O()

@tf.function
def f(r):
    return tf.constant(1)

call("weakref", f, weakref.ref(o))
count("count", f)
