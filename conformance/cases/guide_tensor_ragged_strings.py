"""TF's "Introduction to Tensors" guide: ragged tensors (tf.constant's error on a ragged list,
tf.ragged.constant and its shape) and string tensors (printing, emoji, split, to_number), as the
guide prints them. (bytes_split, decode_raw, unicode_split/decode: guide_tensor_bytes; the
sparse section: guide_tensor_sparse.)"""
ragged_list = [[0, 1, 2, 3], [4, 5], [6, 7, 8], [9]]
try:
    tensor = tf.constant(ragged_list)
except Exception as e:
    print(f"{type(e).__name__}: {e}")
ragged_tensor = tf.ragged.constant(ragged_list)
print(ragged_tensor)
print(ragged_tensor.shape)

scalar_string_tensor = tf.constant("Gray wolf")
print(scalar_string_tensor)
tensor_of_strings = tf.constant(["Gray wolf", "Quick brown fox", "Lazy dog"])
print(tensor_of_strings)
record("emoji", repr(tf.constant("🥳👍")))
print(tf.strings.split(scalar_string_tensor, sep=" "))
print(tf.strings.split(tensor_of_strings))
text = tf.constant("1 10 100")
print(tf.strings.to_number(tf.strings.split(text, " ")))
