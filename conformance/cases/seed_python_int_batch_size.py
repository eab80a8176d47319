"""Seed 000 Q3: every distinct Python int is a new trace; the same value as a tensor traces once."""
@tf.function
def make_batch(x, batch_size):
    print("trace batch_size", batch_size)
    return tf.reshape(x, [batch_size, -1])

x = tf.range(12)
for bs in (1, 2, 3, 4, 2):
    call(f"int {bs}", make_batch, x, bs)

@tf.function
def make_batch_t(x, batch_size):
    print("trace batch_size", batch_size)
    return tf.reshape(x, tf.stack([batch_size, -1]))

for bs in (1, 2, 3, 4):
    call(f"tensor {bs}", make_batch_t, x, tf.constant(bs))
