"""tf.saved_model.save traces every tf.function of the saved objects again (TF 2.21): a method traced once has count 2 after the save, one with an input_signature too; a second save traces nothing; a signature function never called is traced in the save only (count 1), and a call after the save traces it again."""
import tempfile


class M(tf.Module):
    def __init__(self):
        super().__init__()
        self.v = tf.Variable(2.0)

    @tf.function
    def f(self, x):
        print("trace f", x.shape)
        return x * self.v

    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
    def g(self, x):
        print("trace g", x.shape)
        return x + self.v


m = M()
call("m.f", m.f, tf.constant([1.0]))
call("m.g", m.g, tf.constant([1.0]))
tf.saved_model.save(m, tempfile.mkdtemp())
count("f after save", m.f)
count("g after save", m.g)
tf.saved_model.save(m, tempfile.mkdtemp())
count("f after second save", m.f)
count("g after second save", m.g)
call("m.f after the saves (hit)", m.f, tf.constant([3.0]))
count("f at the end", m.f)


class N(tf.Module):
    def __init__(self):
        super().__init__()
        self.v = tf.Variable(1.0)

    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
    def g(self, x):
        print("trace N.g")
        return x + self.v

    @tf.function
    def never(self, x):
        return x


n = N()
tf.saved_model.save(n, tempfile.mkdtemp())
count("N.g after a save with no call before (traced in the save only)", n.g)
count("N.never after the save", n.never)
call("n.g after the save (traces outside it)", n.g, tf.constant([1.0]))
count("N.g at the end", n.g)
