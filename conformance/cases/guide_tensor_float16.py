"""TF's "Introduction to Tensors" guide, its float16 cells: a float16 tensor printed and
converted to numpy, and the dtypes section's cast of float64 through float16 to uint8."""
rank_2_tensor = tf.constant([[1, 2], [3, 4], [5, 6]], dtype=tf.float16)
print(rank_2_tensor)
record("np.array", repr(np.array(rank_2_tensor)))
the_f64_tensor = tf.constant([2.2, 3.3, 4.4], dtype=tf.float64)
the_f16_tensor = tf.cast(the_f64_tensor, dtype=tf.float16)
the_u8_tensor = tf.cast(the_f16_tensor, dtype=tf.uint8)
print(the_u8_tensor)
