"""tf.saved_model.save of a module and tf.saved_model.load of it (TF 2.21): a method with an input_signature that nothing calls is traced in the save (count 1), a module with several such methods gets no serving signature, a nested module's __call__ restores callable, and a restored function called with an input no saved trace accepts raises TF's text."""
import tempfile


class D(tf.Module):
    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
    def __call__(self, x):
        return x + 1.0


class S(tf.Module):
    def __init__(self):
        super().__init__()
        self.inner = D()
        self.k = tf.Variable(3.0)

    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
    def a(self, x):
        return x * 2.0

    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
    def b(self, x):
        return x * 3.0

    @tf.function
    def c(self, x):
        return x * self.k


s = S()
call("s.c scalar", s.c, tf.constant(2.0))
d = tempfile.mkdtemp()
tf.saved_model.save(s, d)
count("inner __call__ after the save", s.inner.__call__)
count("a after the save", s.a)
count("c after the save", s.c)
loaded = tf.saved_model.load(d)
record("signatures", sorted(loaded.signatures))
call("loaded.inner", loaded.inner, tf.constant([1.0, 2.0]))
call("loaded.a", loaded.a, tf.constant([1.0]))
call("loaded.c", loaded.c, tf.constant(4.0))
call("loaded.c python float", loaded.c, 0.5)
call("loaded.c no match", loaded.c, tf.constant([1.0, 2.0]))
record("loaded.k", loaded.k.numpy())
