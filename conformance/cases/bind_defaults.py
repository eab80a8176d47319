"""Binding: defaults are injected; explicit values equal to defaults hit the same trace (testPythonFunctionWithDefaultArgs)."""
@tf.function
def func(foo, bar=1, baz=2):
    print("trace", foo, bar, baz)
    return tf.constant(foo + bar + baz)

call("func(0, baz=20)", func, 0, baz=20)
call("func(1)", func, 1)
call("func(foo=1)", func, foo=1)
call("func(1, 1, 2)", func, 1, 1, 2)
call("func(1, 2, 3)", func, 1, 2, 3)
call("func(1, bar=2, baz=3)", func, 1, bar=2, baz=3)
call("func(1, baz=3, bar=2)", func, 1, baz=3, bar=2)
signatures("sigs", func)
