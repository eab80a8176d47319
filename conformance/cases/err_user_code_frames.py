"""Errors users meet first: a missing attribute on a tensor (TF's EagerTensor / SymbolicTensor texts, numpy's method names with TF's hint, no numpy() on a graph tensor), and an error raised two converted calls deep in a tf.function, whose "in user code" frames name each function's own line (the outer call, then the inner one)."""


def missing_attributes(t):
    out = []
    for name in ("missing", "reshape", "T", "astype"):
        try:
            getattr(t, name)
            out.append((name, "present"))
        except AttributeError as e:
            out.append((name, str(e)))
    out.append(("hasattr numpy", hasattr(t, "numpy")))
    return out


record("eager tensor", missing_attributes(tf.constant([1.0])))
seen = []


@tf.function
def graph_attrs(x):
    seen.append(missing_attributes(x))
    return x


call("graph tensor", graph_attrs, tf.constant([1.0]))
record("graph tensor attributes", seen)


@tf.function
def calls_numpy(x):
    return x.numpy()


call("numpy() in a tf.function", calls_numpy, tf.constant([1.0]))


class Inner(tf.Module):
    def __call__(self, x):
        y = x * 2
        return y.missing_attr


class Middle(tf.Module):
    def __init__(self):
        super().__init__()
        self.inner = Inner()

    def __call__(self, x):
        return self.inner(x + 1)


class Outer(tf.Module):
    def __init__(self):
        super().__init__()
        self.middle = Middle()

    @tf.function
    def __call__(self, x):
        x = self.middle(x)
        return x


call("an error three calls deep", Outer(), tf.constant(1.0))


def helper(v):
    return v.shape.rank + undefined_name  # noqa: F821


@tf.function
def uses_helper(x):
    return helper(x)


call("a NameError in a plain function called from a tf.function", uses_helper, tf.constant(1.0))
