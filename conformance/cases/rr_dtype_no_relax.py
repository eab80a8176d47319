"""reduce_retracing: a dtype change never relaxes: (2,) f32, (3,) i32, (4,) f32 -> (2,), (3,) i32, (None,) f32."""
@tf.function(reduce_retracing=True)
def f(x):
    print("trace", x.shape, x.dtype)
    return x

call("(2,) f32", f, tf.ones([2]))
call("(3,) i32", f, tf.ones([3], tf.int32))
call("(4,) f32", f, tf.ones([4]))
call("(5,) i32", f, tf.ones([5], tf.int32))
signatures("sigs", f)
