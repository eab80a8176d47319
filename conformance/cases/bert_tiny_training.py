"""BERT-tiny trained a few steps on the generated pair task (python/tfscope/models/bert_train.py:
Adam written with tf ops, one tf.function with a GradientTape and a fixed input signature): the
loss of every step and its bits, one trace, and the final weights' bits."""
# conformance: live-only: the step runs MatMul, gelu and reductions, whose bits depend on the CPU and on oneDNN
from cases import _bert

bert_train = _bert._load("bert_train")
model = _bert.bert_tiny.BertClassifier(tf, _bert.CONFIG, seed=2)
opt = bert_train.Adam(tf, model.trainable_variables, learning_rate=1e-3)
step = bert_train.train_step_fn(tf, model, opt, batch_size=8, seq_length=16)
ids, mask, seg, labels = _bert.inputs(32, seed=5)
losses = []
for i in range(4):
    s = slice(8 * i, 8 * i + 8)
    losses.append(step(tf.constant(ids[s]), tf.constant(mask[s]), tf.constant(seg[s]),
                       tf.constant(labels[s])).numpy())
record("losses", [float(x) for x in losses])
record("loss bits", _bert.ints(losses))
count("train_step traces", step)
record("weights", [(v.name, _bert.bits(v.numpy())) for v in model.variables])
