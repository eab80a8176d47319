"""reduce_retracing: (2,),(3,),(2,2),(5,5,5),(7,) f32 -> traces (2,), (None,), <unknown rank>, then hits: 3 traces."""
@tf.function(reduce_retracing=True)
def f(x):
    print("trace", x.shape)
    return tf.reduce_sum(x)

for shape in ([2], [3], [2, 2], [5, 5, 5], [7]):
    call(f"shape {shape}", f, tf.ones(shape))
signatures("sigs", f)
