"""Binding: tensors by position or keyword, any keyword order -> 1 trace; swapped values -> 2 (testTensorKeywordArguments)."""
@tf.function
def defined(a, b):
    print("trace", a.shape, b.shape)
    return a - b

a = tf.constant([1.0, 2.0])
b = tf.constant([[3.0]])
call("(a, b)", defined, a, b)
call("(a=a, b=b)", defined, a=a, b=b)
call("(b=b, a=a)", defined, b=b, a=a)
call("(a, b=b)", defined, a, b=b)
call("(b, a)", defined, b, a)
