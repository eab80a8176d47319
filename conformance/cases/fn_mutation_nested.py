"""A function that modifies a nest it was given: TF's ValueError names the function by its
__qualname__ with its inspect signature and the parameters whose nests changed (inner lists and
dicts, methods, functions defined in functions); a changed leaf deep inside counts too."""
@tf.function
def inner_list(x):
    x["a"].append(1)
    return 1


call("list in a dict", inner_list, {"a": [tf.constant(1)]})


@tf.function
def deep_leaf(x, y):
    y[0][0] = 5
    return 1


call("leaf of a nested list", deep_leaf, 1, [[1, 2], 3])


@tf.function
def dict_key(x, y=2):
    x["new"] = 1
    return 1


call("key added", dict_key, {"a": 1})


class M(tf.Module):
    @tf.function
    def meth(self, l):
        l.append(3)
        return 1


call("method", M().meth, [1])


def outer():
    @tf.function
    def inner(l, k=2):
        l.pop()
        return 1
    return inner


call("function in a function", outer(), [1])


@tf.function
def varargs(*args, **kwargs):
    kwargs["z"].append(1)
    return 1


call("var keyword", varargs, 1, z=[1])


@tf.function
def copies(x):
    y = list(x)
    y.append(1)
    return len(y)


call("a copy is allowed", copies, [1, 2])
