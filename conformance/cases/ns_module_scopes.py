"""tf.Module names and scopes: the default name in snake case, TF's check of a given name, the module's name_scope for its variables and submodules, tf.Module.with_name_scope naming a traced method's ops (AutoGraph still converting its control flow)."""


class MyDenseLayer(tf.Module):
    def __init__(self, name=None):
        super().__init__(name=name)
        with self.name_scope:
            self.w = tf.Variable(tf.ones([2, 2]), name="w")
            self.inner = Sub()

    @tf.Module.with_name_scope
    def __call__(self, x):
        return self.inner(tf.matmul(x, self.w))


class Sub(tf.Module):
    def __init__(self):
        super().__init__()
        self.b = tf.Variable(0.5, name="b")

    @tf.Module.with_name_scope
    def __call__(self, x):
        if tf.reduce_sum(x) > 0:  # a tensor condition: AutoGraph makes it a cond
            return x + self.b
        return x - self.b


m = MyDenseLayer()
record("names", [m.name, m.inner.name, m.w.name, m.inner.b.name, m.name_scope.name,
                 m.inner.name_scope.name])
record("given name", MyDenseLayer(name="x2").name)
for bad in ["1abc", "a-b", "a b", ""]:
    attempt(f"MyDenseLayer(name={bad!r})", lambda bad=bad: MyDenseLayer(name=bad))


class HTTPServerXML(tf.Module):
    pass


class A1B(tf.Module):
    pass


class already_snake(tf.Module):
    pass


record("default names", [HTTPServerXML().name, A1B().name, tf.Module().name, already_snake().name])


@tf.function
def g(x):
    return m(x)


call("g(ones)", g, tf.ones([1, 2]))
call("g(-ones)", g, -tf.ones([1, 2]))
cf = g.get_concrete_function(tf.ones([1, 2]))
record("graph node names", [n.name for n in cf.graph.as_graph_def().node])
call("eager m(ones)", m, tf.ones([1, 2]))
