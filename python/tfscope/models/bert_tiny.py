"""BERT-tiny (google-research/bert's L=2, H=128, A=2, I=512) as a tf.Module with a 3-way sentence-pair
classifier on its pooled output, written once for both backends: `BertClassifier(tf, config)` builds
it on the `tf` module given (`import tfscope as tf` or `import tensorflow as tf`).

The computation is modeling.py's: token + segment + position embeddings, layer norm (epsilon 1e-12,
tf.nn.moments then tf.nn.batch_normalization as tf.contrib.layers.layer_norm), self-attention over
2-D projections with the padding mask added as (1 - mask) * -10000 before the softmax, exact gelu
(erf), the pooler's tanh dense layer on [CLS], and run_classifier.py's head (logits = pooled @
output_weights^T + output_bias). Variables carry the public checkpoints' names
(`bert/embeddings/word_embeddings`, `bert/encoder/layer_0/attention/self/query/kernel`, ...,
`output_weights`), so `load_checkpoint` restores a BERT checkpoint by name. No dropout: the model
is deterministic (training here is short and the comparisons need the same function on both sides).

Only numpy is imported here: the conformance suite loads this file by path under real TF."""
import math
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class BertConfig:
    vocab_size: int = 30522  # the public uncased vocabulary
    hidden_size: int = 128
    num_hidden_layers: int = 2
    num_attention_heads: int = 2
    intermediate_size: int = 512
    max_position_embeddings: int = 512
    type_vocab_size: int = 2
    num_labels: int = 3  # MNLI: entailment, neutral, contradiction
    initializer_range: float = 0.02
    layer_norm_epsilon: float = 1e-12


def variable_shapes(config):
    """{checkpoint name: shape} of every variable, in the order the model creates them."""
    h, i = config.hidden_size, config.intermediate_size
    shapes = {
        "bert/embeddings/word_embeddings": (config.vocab_size, h),
        "bert/embeddings/token_type_embeddings": (config.type_vocab_size, h),
        "bert/embeddings/position_embeddings": (config.max_position_embeddings, h),
        "bert/embeddings/LayerNorm/gamma": (h,),
        "bert/embeddings/LayerNorm/beta": (h,),
    }
    for n in range(config.num_hidden_layers):
        p = "bert/encoder/layer_%d/" % n
        for part in ("query", "key", "value"):
            shapes[p + "attention/self/%s/kernel" % part] = (h, h)
            shapes[p + "attention/self/%s/bias" % part] = (h,)
        shapes[p + "attention/output/dense/kernel"] = (h, h)
        shapes[p + "attention/output/dense/bias"] = (h,)
        shapes[p + "attention/output/LayerNorm/gamma"] = (h,)
        shapes[p + "attention/output/LayerNorm/beta"] = (h,)
        shapes[p + "intermediate/dense/kernel"] = (h, i)
        shapes[p + "intermediate/dense/bias"] = (i,)
        shapes[p + "output/dense/kernel"] = (i, h)
        shapes[p + "output/dense/bias"] = (h,)
        shapes[p + "output/LayerNorm/gamma"] = (h,)
        shapes[p + "output/LayerNorm/beta"] = (h,)
    shapes["bert/pooler/dense/kernel"] = (h, h)
    shapes["bert/pooler/dense/bias"] = (h,)
    shapes["output_weights"] = (config.num_labels, h)
    shapes["output_bias"] = (config.num_labels,)
    return shapes


def initial_values(config, seed=0):
    """BERT's initialization as numpy arrays (the same on every backend): weights from a normal
    truncated at two standard deviations (stddev initializer_range), biases and betas zero,
    gammas one."""
    rng = np.random.RandomState(seed)
    values = {}
    for name, shape in variable_shapes(config).items():
        leaf = name.rsplit("/", 1)[-1]
        if leaf in ("bias", "beta") or name == "output_bias":
            values[name] = np.zeros(shape, np.float32)
        elif leaf == "gamma":
            values[name] = np.ones(shape, np.float32)
        else:
            w = rng.standard_normal(shape)
            bad = np.abs(w) > 2.0
            while bad.any():
                w[bad] = rng.standard_normal(int(bad.sum()))
                bad = np.abs(w) > 2.0
            values[name] = (w * config.initializer_range).astype(np.float32)
    return values


def BertClassifier(tf, config=BertConfig(), seed=0, values=None):  # noqa: N802  (a class factory)
    """The model as a `tf.Module` of the given backend. `values` ({name: array}) replaces the
    seeded initialization (e.g. a checkpoint's tensors)."""
    return _classes(tf)(config, values if values is not None else initial_values(config, seed))


_CLASSES = {}


def _classes(tf):
    key = id(tf)
    if key not in _CLASSES:
        _CLASSES[key] = _define(tf)
    return _CLASSES[key]


def _define(tf):
    class Model(tf.Module):
        def __init__(self, config, values):
            super().__init__(name="bert_classifier")
            self.config = config
            # One attribute per variable, named as in the checkpoint (a dict keeps tf.Module's
            # variable order sorted by name, as TF's tracking does).
            self.weights = {}
            for name in variable_shapes(config):
                self.weights[name] = tf.Variable(values[name], name=name)

        def __call__(self, input_ids, input_mask, segment_ids):
            return self.logits(input_ids, input_mask, segment_ids)

        # -- the parts, as modeling.py splits them --

        def embeddings(self, input_ids, segment_ids):
            w = self.weights
            length = tf.shape(input_ids)[1]
            x = tf.gather(w["bert/embeddings/word_embeddings"], input_ids)
            x += tf.gather(w["bert/embeddings/token_type_embeddings"], segment_ids)
            x += w["bert/embeddings/position_embeddings"][:length]
            return self._layer_norm(x, "bert/embeddings/LayerNorm")

        def encoder(self, x, input_mask):
            """Every layer's output, [batch, seq, hidden] each."""
            c = self.config
            heads, size = c.num_attention_heads, c.hidden_size // c.num_attention_heads
            batch, length = tf.shape(x)[0], tf.shape(x)[1]
            mask = tf.cast(input_mask, tf.float32)[:, tf.newaxis, tf.newaxis, :]
            adder = (1.0 - mask) * -10000.0
            h = tf.reshape(x, [-1, c.hidden_size])  # modeling.py's reshape_to_matrix
            outputs = []
            for n in range(c.num_hidden_layers):
                p = "bert/encoder/layer_%d/" % n

                def split(t):
                    return tf.transpose(tf.reshape(t, [batch, length, heads, size]), [0, 2, 1, 3])

                q = split(self._dense(h, p + "attention/self/query"))
                k = split(self._dense(h, p + "attention/self/key"))
                v = split(self._dense(h, p + "attention/self/value"))
                scores = tf.matmul(q, k, transpose_b=True) * (1.0 / math.sqrt(size))
                probs = tf.nn.softmax(scores + adder)
                context = tf.transpose(tf.matmul(probs, v), [0, 2, 1, 3])
                context = tf.reshape(context, [-1, c.hidden_size])
                attn = self._dense(context, p + "attention/output/dense")
                h = self._layer_norm(attn + h, p + "attention/output/LayerNorm")
                mid = tf.nn.gelu(self._dense(h, p + "intermediate/dense"), approximate=False)
                out = self._dense(mid, p + "output/dense")
                h = self._layer_norm(out + h, p + "output/LayerNorm")
                outputs.append(tf.reshape(h, [batch, length, c.hidden_size]))
            return outputs

        def pooled(self, sequence_output):
            first = sequence_output[:, 0, :]
            return tf.tanh(self._dense(first, "bert/pooler/dense"))

        def logits(self, input_ids, input_mask, segment_ids):
            x = self.embeddings(input_ids, segment_ids)
            pooled = self.pooled(self.encoder(x, input_mask)[-1])
            w = self.weights
            return tf.nn.bias_add(tf.matmul(pooled, w["output_weights"], transpose_b=True),
                                  w["output_bias"])

        def _dense(self, x, scope):
            w = self.weights
            return tf.nn.bias_add(tf.matmul(x, w[scope + "/kernel"]), w[scope + "/bias"])

        def _layer_norm(self, x, scope):
            w = self.weights
            mean, variance = tf.nn.moments(x, axes=[-1], keepdims=True)
            return tf.nn.batch_normalization(x, mean, variance, offset=w[scope + "/beta"],
                                             scale=w[scope + "/gamma"],
                                             variance_epsilon=self.config.layer_norm_epsilon)

    return Model


def serving_function(tf, model):
    """The model's forward pass as a tf.function for export: three int32 [batch, seq] inputs named
    as BERT's features, the logits under the output key "logits"."""
    spec = [tf.TensorSpec([None, None], tf.int32, name=n)
            for n in ("input_ids", "input_mask", "segment_ids")]

    @tf.function(input_signature=spec)
    def serve(input_ids, input_mask, segment_ids):
        return {"logits": model(input_ids, input_mask, segment_ids)}

    return serve


def load_checkpoint(tf, model, prefix):
    """Assigns every variable of `model` the checkpoint tensor of its name (a TF checkpoint written
    by tf.compat.v1.train.Saver, as google-research/bert's are). A missing name or a shape that
    differs is a ValueError naming the variable."""
    reader = tf.train.load_checkpoint(prefix)
    shapes = reader.get_variable_to_shape_map()
    for name, var in model.weights.items():
        if name not in shapes:
            raise ValueError("checkpoint %s has no variable %s" % (prefix, name))
        if tuple(shapes[name]) != tuple(var.shape):
            raise ValueError("checkpoint %s: %s has shape %s, the model's is %s"
                             % (prefix, name, list(shapes[name]), list(var.shape)))
        var.assign(reader.get_tensor(name))
