"""The module both sides build for objects.py, from the same seeds: `tf` is tensorflow or tfscope.

Elementwise math and small reductions only, whose kernels tfscope runs bit-identically to TF's
on every CPU (conformance/saved_model/NOTES.md), so the outputs compare bit for bit.
"""
import collections
import re

import numpy as np

# A namedtuple output (its saved specs are named after the fields).
Pair = collections.namedtuple("Pair", ["u", "w"])


def build(tf):
    class Child(tf.Module):
        def __init__(self):
            super().__init__()
            rng = np.random.default_rng(3)
            self.w = tf.Variable(rng.standard_normal((4,)).astype(np.float32), name="w")

        @tf.function(input_signature=[tf.TensorSpec([None, 4], tf.float32)])
        def g(self, x):
            return x * self.w

    class M(tf.Module):
        def __init__(self):
            super().__init__()
            rng = np.random.default_rng(5)
            self.v = tf.Variable(np.float32(1.5), name="v")
            self.b = tf.Variable(rng.standard_normal((4,)).astype(np.float32), name="b")
            self.child = Child()
            # An eager tensor of more than 128 elements: captured, saved as a constant.
            self.table = tf.constant(rng.standard_normal((200,)).astype(np.float32))

        @tf.function
        def f(self, x):
            return x * self.v + 1.0

        @tf.function(input_signature=[tf.TensorSpec([None, 4], tf.float32)])
        def h(self, x):
            y = self.child.g(x) + self.b
            return {"relu": tf.nn.relu(y), "sum": tf.reduce_sum(y, axis=1)}

        @tf.function(input_signature=[tf.TensorSpec([200], tf.float32)])
        def t(self, x):
            return x * self.table, x - 2.0

        @tf.function(input_signature=[tf.TensorSpec([None], tf.float32, name="inp")])
        def n(self, x):
            return Pair(x + 1.0, [x * self.v, {"c": x - 1.0}])

        @tf.function
        def k(self, x, *, scale=2.0):
            return x * scale

    m = M()
    m.f(tf.constant(2.0))
    m.f(tf.constant([1.0, 2.0, 3.0]))
    m.k(tf.constant([1.0]), scale=3.0)
    return m


def inputs():
    rng = np.random.default_rng(9)
    return {
        "f_scalar": np.float32(rng.standard_normal()),
        "f_vec": rng.standard_normal((3,)).astype(np.float32),
        "h": rng.standard_normal((5, 4)).astype(np.float32) * 3,
        "g": rng.standard_normal((2, 4)).astype(np.float32),
        "t": rng.standard_normal((200,)).astype(np.float32),
    }


def calls(tf, m):
    """Every call the check makes on a loaded module, by name: outputs as numpy, errors as
    (type name, text)."""
    x = inputs()
    out = {}

    def run(name, fn):
        try:
            r = fn()
            if isinstance(r, dict):
                out[name] = {k: np.asarray(v.numpy()) for k, v in sorted(r.items())}
            elif isinstance(r, (tuple, list)):
                out[name] = [np.asarray(v.numpy()) for v in r]
            else:
                out[name] = np.asarray(r.numpy())
        except Exception as e:  # noqa: BLE001  (the error is the result)
            out[name] = (type(e).__name__, str(e))

    run("f_scalar", lambda: m.f(tf.constant(x["f_scalar"])))
    run("f_vec", lambda: m.f(tf.constant(x["f_vec"])))
    run("f_python_float", lambda: m.f(2.5))
    run("f_no_match_dtype", lambda: m.f(tf.constant(3)))
    run("f_no_match_shape", lambda: m.f(tf.constant([1.0, 2.0])))
    run("h", lambda: m.h(tf.constant(x["h"])))
    run("h_bad_shape", lambda: m.h(tf.ones([2, 3])))
    run("g", lambda: m.child.g(tf.constant(x["g"])))
    run("g_kw", lambda: m.child.g(x=tf.constant(x["g"])))
    run("t", lambda: m.t(tf.constant(x["t"])))
    run("sig_serving", lambda: m.signatures["serving_default"](x=tf.constant(x["h"])))
    run("sig_tup", lambda: m.signatures["tup"](x=tf.constant(x["t"])))

    # Restored functions called inside a tf.function: their calls are nodes of its graph.
    @tf.function
    def outer(y):
        return m.f(y) + tf.reduce_sum(m.child.g(tf.reshape(tf.stack([y, y, y, y]), [1, 4])))

    run("in_function", lambda: outer(tf.constant(x["f_scalar"])))
    out["in_function_ops"] = list(  # (tfscope's graph operations name the type .op)
        getattr(op, "type", None) or op.op
        for op in outer.get_concrete_function(tf.constant(1.0)).graph.get_operations())
    run("v", lambda: m.v)
    run("b", lambda: m.b)
    run("child_w", lambda: m.child.w)
    # The saved traces as the restored functions print them (the saved specs' names included).
    # Not h's nor the signatures': TF decodes a dict of several keys in no fixed order.
    for name, fn in (("f", m.f), ("t", m.t), ("g", m.child.g), ("n", m.n), ("k", m.k)):
        out["text_" + name] = fn.pretty_printed_concrete_signatures()
    # A signature lists what its wrapper captures (variables, the captured table); the ids aside.
    for key in ("serving_default", "tup"):
        text = m.signatures[key].pretty_printed_signature()
        out["captures_" + key] = re.sub(r"^  \d+:", "  <id>:", text[text.index("Captures:"):],
                                        flags=re.M)
    return out


def wrapper_saves(tf):
    """How TF names a signature's wrapper function in the library, by what signatures= is given:
    {label: (module, signatures argument)} for `tf.saved_model.save(module, d, signatures=...)`.
    A tf.function gives signature_wrapper_<fn>_N; a ConcreteFunction (TF traces the function
    again for saving) and the default export (no signatures=) give signature_wrapper_N."""
    class W(tf.Module):
        @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
        def s(self, x):
            return x * 2.0

    saves = {}
    for label in ("default", "function", "concrete_function", "dict_of_both"):
        w = W()
        sig = {"default": None, "function": w.s, "concrete_function": w.s.get_concrete_function(),
               "dict_of_both": {"a": w.s, "b": w.s.get_concrete_function()}}[label]
        saves[label] = (w, sig)
    return saves


def v1_function(tf):
    """A lone tf.function, which tfscope saves in the v1 form (TF 2.21's save of one fails) and
    TF loads through load_v1_in_v2: its inputs in key order, a variable captured."""
    v = tf.Variable(np.float32(2.0), name="w1")

    @tf.function(input_signature=[tf.TensorSpec([2], tf.float32), tf.TensorSpec([], tf.float32)])
    def f(zz, aa):
        return zz * v + aa

    f.v = v  # keeps the variable alive with the function
    return f


def signature_text(loaded, key):
    """A loaded signature's verbose text, the capture ids made <id>."""
    return re.sub(r"^  \d+:", "  <id>:", loaded.signatures[key].pretty_printed_signature(),
                  flags=re.M)


def bare_module(tf):
    """A module holding a ConcreteFunction as an attribute, which TF saves as a bare concrete
    function (with its function_spec) and restores as a ConcreteFunction printing its captures."""
    class B(tf.Module):
        def __init__(self):
            super().__init__()
            self.v = tf.Variable(np.float32(2.0))

        @tf.function
        def f(self, x, y=1.0):
            return {"b": [x * self.v, x + y]}

    b = B()
    b.cf = b.f.get_concrete_function(tf.TensorSpec([2], tf.float32))
    return b


def bare_texts(loaded):
    """The restored bare concrete function's str and repr, ids and addresses normalised."""
    def norm(s):
        return re.sub(r" at 0x[0-9A-F]+>", " at 0x<addr>>", re.sub(r"^  \d+:", "  <id>:", s,
                                                                     flags=re.M))
    return {"str": norm(str(loaded.cf)), "repr": norm(repr(loaded.cf)),
            "short": loaded.cf.pretty_printed_signature(verbose=False)}
