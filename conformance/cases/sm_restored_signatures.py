"""tf.saved_model.load's restored functions and signatures print as TF 2.21 prints them: pretty_printed_concrete_signatures lists the saved traces (keyword-only, *args, literals; `Captures: None` though a trace captures a variable), output specs are named by nest path (b_0, tensor_1_0, tensor_1_a_1_c, a namedtuple's fields), a traced namedtuple output prints P[['u', ...]], and a loaded signature's str, repr and pretty_printed_signature are a ConcreteFunction's (its captured variable listed, where the restored trace of the same function prints `Captures: None`)."""
# Every dict here has one key: TF decodes a saved dict through a protobuf map, whose order
# changes from run to run when it has several.
import collections
import tempfile

P = collections.namedtuple("P", ["u", "w"])


class M(tf.Module):
    def __init__(self):
        super().__init__()
        self.v = tf.Variable(2.0)

    @tf.function
    def f(self, x, y=1.0):
        return {"b": [x * self.v, x + y]}

    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32, name="inp")])
    def g(self, x):
        return (x * 1.0, [x + 1.0, x * 2.0])

    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
    def h(self, x):
        return [x * 1.0, {"a": [x + 1.0, {"c": x * 3.0}]}]

    @tf.function(input_signature=[tf.TensorSpec([3], tf.float32)])
    def n(self, x):
        return P(x + 1.0, x * 2.0)

    @tf.function
    def k(self, x, *, scale=2.0):
        return x * scale

    @tf.function
    def a(self, x, *rest):
        return x + rest[0]

    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
    def s(self, x):
        return x * self.v

    @tf.function
    def d(self, x):
        return {"Out-Key": x + 1.0}


m = M()
m.f(tf.constant(1.0))
m.f(tf.constant([1.0, 2.0]), 3.0)
m.k(tf.constant(1.0))
m.k(tf.constant([1.0]), scale=3.0)
m.a(tf.constant(1.0), tf.constant(2.0), 5)
signatures("traced namedtuple output", m.n)
describe("traced namedtuple output", m.n.get_concrete_function())
d = tempfile.mkdtemp()
# ConcreteFunctions only: TF's get_concrete_function of a tf.function given in signatures= finds
# the trace its save context made, which the watch self-check does not see (it would report a
# disagreement); conformance/saved_model/objects.py covers that form.
tf.saved_model.save(m, d, signatures={"serving_default": m.s.get_concrete_function(),
                                      "named": m.d.get_concrete_function(tf.TensorSpec([2], tf.float32))})
loaded = tf.saved_model.load(d)
for name in ("f", "g", "h", "n", "k", "a", "s", "d"):
    signatures("restored " + name, getattr(loaded, name))
call("restored f still runs", loaded.f, tf.constant(4.0))
signatures("restored f after a call", loaded.f)
record("signature keys", sorted(loaded.signatures))
for key in ("serving_default", "named"):
    sig = loaded.signatures[key]
    record(key + " str", str(sig))
    record(key + " repr", repr(sig))
    record(key + " pretty_printed_signature", sig.pretty_printed_signature())
    record(key + " short", sig.pretty_printed_signature(verbose=False))
    record(key + " structured_outputs", repr(sig.structured_outputs))
    record(key + " structured_input_signature", repr(sig.structured_input_signature))
