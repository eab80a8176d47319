"""BERT-tiny's forward pass in a tf.function, bit for bit: the logits of the traced model on the
same seeded weights and padded pairs as bert_tiny_model (there: eagerly). In TF this is the graph
after Grappler, whose remapper may fuse ops (oneDNN: MatMul + BiasAdd + exact Gelu)."""
# conformance: live-only: MatMul, softmax, gelu and the reductions' bits depend on the CPU and on oneDNN
from cases import _bert

model = _bert.bert_tiny.BertClassifier(tf, _bert.CONFIG, seed=1)
ids, mask, seg, _ = _bert.inputs(4, seed=3)
logits = tf.function(model.logits)(tf.constant(ids), tf.constant(mask), tf.constant(seg))
record("logits", logits)
record("logit bits", _bert.ints(logits))
