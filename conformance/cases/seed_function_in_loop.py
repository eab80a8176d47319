"""Seed 003 Q4: separate tf.function objects do not share traces; a function made in a loop traces every time."""
def plain(x):
    return x + 1

counts = []
for i in range(3):
    f = tf.function(plain)
    call(f"loop {i}", f, tf.constant(1))

g = tf.function(plain)
for i in range(3):
    call(f"shared {i}", g, tf.constant(i))
