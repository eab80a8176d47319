"""BERT-tiny (python/tfscope/models/bert_tiny.py, one source for both backends): its variables'
names and shapes as google-research/bert's checkpoints have them, the eager forward pass's logits
bit for bit on the same seeded weights and padded sentence pairs, and the traced forward pass:
one trace for two batches of one shape, its function graph op for op, and the static shapes."""
# conformance: live-only: MatMul, softmax, gelu and the reductions' bits depend on the CPU and on oneDNN
import collections

from cases import _bert

model = _bert.bert_tiny.BertClassifier(tf, _bert.CONFIG, seed=1)
record("variables", [(v.name, list(v.shape)) for v in model.variables])
record("trainable", len(model.trainable_variables))
ids, mask, seg, _ = _bert.inputs(4, seed=3)
args = [tf.constant(a) for a in (ids, mask, seg)]
logits = model(*args)
record("eager logits", logits)
record("eager logit bits", _bert.ints(logits))
x = model.embeddings(args[0], args[2])
record("embedding bits", _bert.bits(x.numpy()))
record("layer bits", [_bert.bits(h.numpy()) for h in model.encoder(x, args[1])])

forward = tf.function(model.logits)
call("traced", forward, *args)
ids2, mask2, seg2, _ = _bert.inputs(4, seed=4)
call("same shape", forward, tf.constant(ids2), tf.constant(mask2), tf.constant(seg2))
count("traces", forward)
spec = tf.TensorSpec([None, None], tf.int32)
cf = forward.get_concrete_function(spec, spec, spec)
record("static shape", repr(cf.outputs[0].shape))
record("ops", sorted(collections.Counter(n.op for n in cf.graph.as_graph_def().node).items()))
