"""Training BERT-tiny on the generated pair task (pair_task.py), written once against TF's API like
the model: Adam with tf ops (Kingma & Ba's update with the bias corrections folded into the step
size, as tf.keras's Adam: lr_t = lr * sqrt(1 - b2^t) / (1 - b1^t), then
var -= lr_t * m / (sqrt(v) + epsilon)), a GradientTape training step in one tf.function with a
fixed input signature (one trace), and accuracy on a split."""
import time

import numpy as np

from . import bert_tiny, pair_task


class Adam:
    def __init__(self, tf, variables, learning_rate=1e-3, beta_1=0.9, beta_2=0.999, epsilon=1e-7):
        self.tf = tf
        self.variables = list(variables)
        self.lr, self.b1, self.b2, self.eps = learning_rate, beta_1, beta_2, epsilon
        self.step = tf.Variable(0.0, name="adam/step")
        zeros = lambda v: np.zeros(v.shape, np.float32)  # noqa: E731
        self.m = [tf.Variable(zeros(v), name="adam/m") for v in self.variables]
        self.v = [tf.Variable(zeros(v), name="adam/v") for v in self.variables]

    def apply(self, grads):
        tf = self.tf
        t = self.step.assign_add(1.0)
        lr_t = self.lr * tf.sqrt(1.0 - tf.pow(self.b2, t)) / (1.0 - tf.pow(self.b1, t))
        for var, g, m, v in zip(self.variables, grads, self.m, self.v):
            g = tf.convert_to_tensor(g)  # an embedding's gradient is IndexedSlices
            m.assign(self.b1 * m + (1.0 - self.b1) * g)
            v.assign(self.b2 * v + (1.0 - self.b2) * tf.square(g))
            var.assign_sub(lr_t * m / (tf.sqrt(v) + self.eps))


def train_step_fn(tf, model, optimizer, batch_size, seq_length):
    spec = [tf.TensorSpec([batch_size, seq_length], tf.int32)] * 3
    spec.append(tf.TensorSpec([batch_size], tf.int32))

    @tf.function(input_signature=spec)
    def train_step(input_ids, input_mask, segment_ids, labels):
        with tf.GradientTape() as tape:
            logits = model(input_ids, input_mask, segment_ids)
            loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(
                labels=labels, logits=logits))
        optimizer.apply(tape.gradient(loss, model.trainable_variables))
        return loss

    return train_step


def predict(tf, forward, data, batch_size=256):
    """Logits of `forward(ids, mask, segments)` over `data`, batch by batch, as one array."""
    out = []
    for start in range(0, len(data), batch_size):
        ids, mask, seg, _ = data.batch(start, batch_size)
        out.append(forward(tf.constant(ids), tf.constant(mask), tf.constant(seg)).numpy())
    return np.concatenate(out)


def accuracy(logits, labels):
    return float(np.mean(np.argmax(logits, axis=-1) == labels))


def train(tf, steps=300, batch_size=32, seq_length=16, vocab_size=64, learning_rate=1e-3, seed=0,
          n_train=2048, n_test=512, log=None):
    """Builds BERT-tiny (its word vocabulary cut to the task's, max positions to seq_length's
    power-of-two ceiling... kept at 64), trains it and returns a dict: model, the data,
    losses, float test accuracy, seconds."""
    config = bert_tiny.BertConfig(vocab_size=vocab_size, max_position_embeddings=64)
    model = bert_tiny.BertClassifier(tf, config, seed=seed)
    train_data, test_data = pair_task.split(n_train, n_test, vocab_size, seq_length, seed)
    optimizer = Adam(tf, model.trainable_variables, learning_rate)
    step_fn = train_step_fn(tf, model, optimizer, batch_size, seq_length)
    rng = np.random.RandomState(seed)
    order = rng.permutation(len(train_data))
    losses = []
    start = time.perf_counter()
    per_epoch = len(train_data) // batch_size
    for step in range(steps):
        if step and step % per_epoch == 0:
            order = rng.permutation(len(train_data))
        idx = order[(step % per_epoch) * batch_size:][:batch_size]
        batch = [tf.constant(a[idx]) for a in (train_data.input_ids, train_data.input_mask,
                                               train_data.segment_ids, train_data.labels)]
        losses.append(float(step_fn(*batch).numpy()))
        if log and (step + 1) % 50 == 0:
            log("step %d loss %.4f" % (step + 1, np.mean(losses[-50:])))
    seconds = time.perf_counter() - start
    logits = predict(tf, model, test_data)
    return {"model": model, "config": config, "train": train_data, "test": test_data,
            "losses": losses, "seconds": seconds, "test_logits": logits,
            "float_accuracy": accuracy(logits, test_data.labels), "train_step": step_fn}
