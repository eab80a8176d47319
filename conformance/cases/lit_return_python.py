"""Returning Python values: ints/floats become tensors, None stays None, strings become string tensors, nests are kept."""
@tf.function
def f(kind):
    if kind == "int":
        return 3
    if kind == "float":
        return 2.5
    if kind == "none":
        return None
    if kind == "str":
        return "hi"
    if kind == "bool":
        return True
    if kind == "nest":
        return {"a": 1, "b": (tf.constant(2.0), [None, 4])}
    return object()

for k in ("int", "float", "none", "str", "bool", "nest", "object"):
    call(k, f, k)
