"""Ops: arithmetic and comparison operators: dtypes of /, //, %, **, unary -, comparisons, python scalars on either side."""
i = tf.constant([7, -7])
j = tf.constant([2, 2])
f = tf.constant([7.0, -7.0])
record("i + j", i + j)
record("i - j", i - j)
record("i * j", i * j)
record("i / j (truediv -> float64)", i / j)
record("i // j (floordiv)", i // j)
record("i % j (floormod)", i % j)
record("i ** j", i ** j)
record("-i", -i)
record("f / 2", f / 2)
record("f // 2", f // 2)
record("f % 2", f % 2)
record("2 - f", 2 - f)
record("2 ** j", 2 ** j)
record("i < j", i < j)
record("i >= 0", i >= 0)
record("i == j (elementwise)", i == j)
record("i != j", i != j)
record("bool & |", (i > 0) & (j > 0))
record("abs", abs(i))

@tf.function
def ops(a, b, x):
    return a + b, a - b, a * b, a / b, a // b, a % b, -a, a < b, a == b, x ** 2, x / 3

call("graph", ops, i, j, f)
graph_ops("ops", ops.get_concrete_function(i, j, f))
