"""A BERT-tiny-shaped encoder classifier (2 layers, hidden 128, 2 heads, intermediate 512, a
64-token vocabulary, 16 positions, 2 segments, tanh pooler, 3 classes), written once for both
backends: `make(tf, weights)` builds it as a tf.Module with real TF or with tfscope
(`import tfscope as tf`). conformance/tflite/run.py converts it with TF's converter and with
tfscope's (`encoder_tfscope.py`) and compares the two models and their runs in LiteRT.

The ops are those of BERT: token, segment and position embeddings (tf.gather), layer norm by
tf.nn.moments, dense layers as tf.einsum, heads split by reshape/transpose with the batch from
tf.shape, the padding mask as (1 - mask[:, None, None, :]) * -10000, softmax, exact gelu, the
[CLS] row sliced for the pooler."""
import numpy as np

VOCAB, SEQ, HIDDEN, HEADS, FF, LAYERS, CLASSES = 64, 16, 128, 2, 512, 2, 3


def weights(seed=2026):
    """The model's weights by name, N(0, 0.05) (layer norms N(1, 0.05) and N(0, 0.05))."""
    rng = np.random.RandomState(seed)
    w = {}

    def p(name, *shape, mean=0.0):
        w[name] = (mean + rng.standard_normal(shape) * 0.05).astype(np.float32)

    p("word", VOCAB, HIDDEN)
    p("segment", 2, HIDDEN)
    p("position", SEQ, HIDDEN)
    p("ln_gamma", HIDDEN, mean=1.0)
    p("ln_beta", HIDDEN)
    for l in range(LAYERS):
        for k in "qkvo":
            p(f"l{l}_{k}", HIDDEN, HIDDEN)
            p(f"l{l}_b{k}", HIDDEN)
        p(f"l{l}_ln1_gamma", HIDDEN, mean=1.0)
        p(f"l{l}_ln1_beta", HIDDEN)
        p(f"l{l}_in", HIDDEN, FF)
        p(f"l{l}_bin", FF)
        p(f"l{l}_out", FF, HIDDEN)
        p(f"l{l}_bout", HIDDEN)
        p(f"l{l}_ln2_gamma", HIDDEN, mean=1.0)
        p(f"l{l}_ln2_beta", HIDDEN)
    p("pool", HIDDEN, HIDDEN)
    p("bpool", HIDDEN)
    p("cls", HIDDEN, CLASSES)
    p("bcls", CLASSES)
    return w


def make(tf, w):
    depth = HIDDEN // HEADS

    class Encoder(tf.Module):
        def __init__(self):
            super().__init__()
            self.v = {k: tf.Variable(v, name=k) for k, v in w.items()}

        def layer_norm(self, x, name):
            mean, var = tf.nn.moments(x, axes=[-1], keepdims=True)
            return self.v[name + "_gamma"] * (x - mean) / tf.sqrt(var + 1e-12) + self.v[name + "_beta"]

        def dense(self, x, name, bias):
            return tf.einsum("bsd,df->bsf", x, self.v[name]) + self.v[bias]

        @tf.function(input_signature=[tf.TensorSpec([None, SEQ], tf.int32, name="ids"),
                                      tf.TensorSpec([None, SEQ], tf.int32, name="segments"),
                                      tf.TensorSpec([None, SEQ], tf.int32, name="mask")])
        def __call__(self, ids, segments, mask):
            v = self.v
            x = tf.gather(v["word"], ids) + tf.gather(v["segment"], segments) + v["position"]
            x = self.layer_norm(x, "ln")
            bias = (1.0 - tf.cast(mask, tf.float32)[:, tf.newaxis, tf.newaxis, :]) * -10000.0
            batch = tf.shape(ids)[0]

            def heads(t):
                return tf.transpose(tf.reshape(t, [batch, SEQ, HEADS, depth]), [0, 2, 1, 3])

            for l in range(LAYERS):
                q = heads(self.dense(x, f"l{l}_q", f"l{l}_bq"))
                k = heads(self.dense(x, f"l{l}_k", f"l{l}_bk"))
                val = heads(self.dense(x, f"l{l}_v", f"l{l}_bv"))
                a = tf.matmul(q, k, transpose_b=True) * float(1.0 / np.sqrt(depth)) + bias
                a = tf.nn.softmax(a)
                c = tf.reshape(tf.transpose(tf.matmul(a, val), [0, 2, 1, 3]), [batch, SEQ, HIDDEN])
                x = self.layer_norm(x + self.dense(c, f"l{l}_o", f"l{l}_bo"), f"l{l}_ln1")
                h = tf.nn.gelu(self.dense(x, f"l{l}_in", f"l{l}_bin"), approximate=False)
                x = self.layer_norm(x + self.dense(h, f"l{l}_out", f"l{l}_bout"), f"l{l}_ln2")
            pooled = tf.tanh(tf.matmul(x[:, 0], v["pool"]) + v["bpool"])
            return tf.matmul(pooled, v["cls"]) + v["bcls"]

    return Encoder()


def inputs(rng, batch):
    """Token ids (id 0 is padding, id 1 [CLS] first), segments 0 then 1, and the padding mask."""
    lengths = rng.integers(4, SEQ + 1, batch)
    ids = rng.integers(2, VOCAB, (batch, SEQ)).astype(np.int32)
    ids[:, 0] = 1
    pos = np.arange(SEQ)[None, :]
    mask = (pos < lengths[:, None]).astype(np.int32)
    ids *= mask
    segments = ((pos >= lengths[:, None] // 2) & (mask == 1)).astype(np.int32)
    return ids, segments, mask
