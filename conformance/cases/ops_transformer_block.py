"""Whole program: a transformer encoder block as people write it in TF 2 (no Keras): token
embedding plus position embedding, layer norm by tf.nn.moments, multi-head self-attention
(dense projections, split heads by reshape/transpose, scaled dot products by matmul with
transpose_b, a padding mask, softmax, merge heads), residuals, and a gelu feed-forward; eagerly
and in a tf.function (one trace for two batches of the same shape, another for a new length),
the outputs, their static shapes, and the function graph's op counts."""
# conformance: live-only: MatMul, softmax, gelu and the reductions' bits depend on the CPU and on oneDNN
import collections

vocab, d_model, heads, d_ff = 11, 8, 2, 16
depth = d_model // heads
rng = np.random.RandomState(5)


def param(*shape, scale=0.3):
    return tf.constant((rng.standard_normal(shape) * scale).astype(np.float32))


tok_emb, pos_emb = param(vocab, d_model), param(16, d_model)
wq, wk, wv, wo = (param(d_model, d_model) for _ in range(4))
w1, b1, w2, b2 = param(d_model, d_ff), param(d_ff, scale=0.1), param(d_ff, d_model), param(d_model, scale=0.1)
g1, be1, g2, be2 = (tf.ones([d_model]), tf.zeros([d_model]), tf.ones([d_model]), tf.zeros([d_model]))


def layer_norm(x, gamma, beta, eps=1e-6):
    mean, var = tf.nn.moments(x, axes=[-1], keepdims=True)
    return gamma * (x - mean) / tf.sqrt(var + eps) + beta


def dense(x, w, b=None):
    y = tf.einsum("bsd,df->bsf", x, w)
    return y if b is None else y + b


def split_heads(x, batch):
    x = tf.reshape(x, [batch, -1, heads, depth])
    return tf.transpose(x, [0, 2, 1, 3])


def attention(x, mask):
    batch = tf.shape(x)[0]
    q, k, v = (split_heads(dense(x, w), batch) for w in (wq, wk, wv))
    logits = tf.matmul(q, k, transpose_b=True) / tf.sqrt(tf.cast(depth, tf.float32))
    logits += (1.0 - mask[:, tf.newaxis, tf.newaxis, :]) * -1e9
    weights = tf.nn.softmax(logits, axis=-1)
    out = tf.transpose(tf.matmul(weights, v), [0, 2, 1, 3])
    return dense(tf.reshape(out, [batch, -1, d_model]), wo), weights


def encoder_block(ids):
    length = tf.shape(ids)[1]
    mask = tf.cast(tf.not_equal(ids, 0), tf.float32)
    x = tf.nn.embedding_lookup(tok_emb, ids) * tf.sqrt(float(d_model)) + pos_emb[:length]
    att, weights = attention(layer_norm(x, g1, be1), mask)
    x = x + att
    h = tf.nn.gelu(dense(layer_norm(x, g2, be2), w1, b1))
    return x + dense(h, w2, b2), weights


ids = tf.constant([[3, 7, 1, 0], [5, 2, 9, 4]])
ids2 = tf.constant([[1, 1, 2, 0], [6, 0, 0, 0]])
ids3 = tf.constant([[4, 8, 10, 2, 3, 0]])
call("eager", encoder_block, ids)
block = tf.function(encoder_block)
call("traced", block, ids)
call("same shape", block, ids2)
call("new length", block, ids3)
count("traces", block)
cf = block.get_concrete_function(tf.TensorSpec([None, None], tf.int32))
record("static shapes", [repr(t.shape) for t in cf.outputs])
record("ops", sorted(collections.Counter(n.op for n in cf.graph.as_graph_def().node).items()))
