"""Function layer: recursion on a tensor never ends at trace time: the call fails (TF: RecursionError from Python's limit, wrapped by AutoGraph) and nothing is cached."""


@tf.function(autograph=False)
def down(n):
    return down(n - 1)


try:
    down(tf.constant(3))
    record("error", None)
except RecursionError:
    record("error", "RecursionError")
except Exception as e:
    record("error", "other: " + type(e).__name__)
count("count", down)
