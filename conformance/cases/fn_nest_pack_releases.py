"""tf.nest.pack_sequence_as and a traced call keep no reference to the leaves they were given:
with the garbage collector off, a leaf is gone as soon as the caller drops it."""
import gc
import weakref


class Leaf:
    pass


gc.disable()
try:
    leaf = Leaf()
    packed = tf.nest.pack_sequence_as([0, (0,)], [leaf, 1])
    ref = weakref.ref(leaf)
    del leaf, packed
    record("pack_sequence_as", ref() is None)

    @tf.function
    def f(x):
        return tf.constant(1)

    leaf = Leaf()
    f([leaf, {"a": 1}])
    ref = weakref.ref(leaf)
    del leaf
    record("after a trace", ref() is None)
finally:
    gc.enable()
