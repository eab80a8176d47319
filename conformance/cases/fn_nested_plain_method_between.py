"""Function layer: a plain Python method between two tf.functions (a model's helper calling a decorated method of the same object): the helper is inlined into the outer trace, the decorated method is a call node; counts and values."""
class Model(tf.Module):
    def __init__(self):
        super().__init__()
        self.scale = tf.Variable(3.0)

    @tf.function
    def core(self, x):
        print("trace core")
        return x * self.scale

    def helper(self, x):
        return self.core(x) + self.core(x * 2.0)

    @tf.function
    def run(self, x):
        print("trace run")
        return self.helper(x) - 1.0


m = Model()
call("m.run(1)", m.run, tf.constant(1.0))
call("m.run(2)", m.run, tf.constant(2.0))
count("core count", m.core)
count("run count", m.run)
graph_ops("m.run ops", m.run.get_concrete_function(tf.constant(1.0)))
