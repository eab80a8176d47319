"""S9: a tf.function created inside a loop, called once per iteration -> 1 trace each; warnings at 5 and 6 (shared detector)."""
a = tf.constant([1, 2])
for i in range(7):
    @tf.function
    def scaled(x, factor):
        print("TRACE", x.shape, factor)
        tf.print("RUN", tf.shape(x), factor)
        return x * factor
    call(f"iteration {i}", scaled, a, 2)
