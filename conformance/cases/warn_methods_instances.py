"""Warning: methods of five fresh instances share one detector -> a warning on the 5th instance's first call."""
class Model:
    @tf.function
    def f(self, x):
        print("trace", type(self).__name__)
        return x + 1

x = tf.constant(1)
models = [Model() for _ in range(6)]
for i, m in enumerate(models):
    call(f"instance {i}", m.f, x)
count("class-level Model.f", Model.f)
