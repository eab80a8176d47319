"""The tf.data guide's training loop: two epochs over a seeded shuffle (reshuffled each epoch),
batched (with a short last batch, and without), of a small MLP trained with GradientTape and SGD by
assign_sub: eagerly, with a tf.function train step called per batch (a trace per batch shape),
and the whole epoch as a `for` over the dataset inside one tf.function (AutoGraph's dataset
loop: the step runs in the ScanDataset's function). The losses, element for element, and their
bits; the final weights' bits; the trace counts."""
# conformance: live-only: the steps run MatMul and reductions, whose bits depend on the CPU and on oneDNN
import hashlib

D = tf.data.Dataset


def bits(t):
    a = np.ascontiguousarray(np.asarray(t))
    return f"{a.dtype}{list(a.shape)} sha256 {hashlib.sha256(a.tobytes()).hexdigest()[:16]}"


def loss_bits(values):
    return [int(np.asarray(v, np.float32).view(np.uint32)) for v in values]


rng = np.random.default_rng(7)
features = rng.normal(size=(44, 6)).astype(np.float32)
labels = rng.integers(0, 3, 44).astype(np.int32)
init = [rng.normal(scale=0.4, size=(6, 8)).astype(np.float32), np.zeros(8, np.float32),
        rng.normal(scale=0.4, size=(8, 3)).astype(np.float32), np.zeros(3, np.float32)]


def dataset(drop_remainder=False):
    return D.from_tensor_slices((features, labels)).shuffle(16, seed=11).batch(8, drop_remainder)


def make_params():
    return [tf.Variable(v) for v in init]


def loss_of(params, x, y):
    w1, b1, w2, b2 = params
    h = tf.nn.relu(tf.matmul(x, w1) + b1)
    logits = tf.matmul(h, w2) + b2
    return tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=logits))


def step(params, x, y):
    with tf.GradientTape() as tape:
        loss = loss_of(params, x, y)
    grads = tape.gradient(loss, params)
    for p, g in zip(params, grads):
        p.assign_sub(0.5 * g)
    return loss


# Eagerly.
params = make_params()
ds = dataset()
eager = []
for epoch in range(2):
    for x, y in ds:
        eager.append(float(step(params, x, y)))
record("eager losses", eager)
record("eager loss bits", loss_bits(eager))
record("eager weights", [bits(p.numpy()) for p in params])

# A tf.function step per batch: the last, shorter batch traces again.
params = make_params()


@tf.function
def train_step(x, y):
    return step(params, x, y)


stepped = []
for epoch in range(2):
    for x, y in ds:
        stepped.append(float(train_step(x, y)))
record("step losses", stepped)
record("step loss bits", loss_bits(stepped))
record("step weights", [bits(p.numpy()) for p in params])
count("train_step traces", train_step)

# The whole epoch in one tf.function: the losses gathered in a TensorArray; the dataset is an
# argument (a DatasetSpec: one trace for both datasets), its batches of unknown size in the
# graph, then the same with full batches only.
params = make_params()
full = dataset(drop_remainder=True)


@tf.function
def epoch_fn(ds):
    out = tf.TensorArray(tf.float32, size=0, dynamic_size=True)
    i = 0
    for x, y in ds:
        out = out.write(i, step(params, x, y))
        i += 1
    return out.stack()


looped = []
for epoch in range(2):
    looped.extend(float(v) for v in epoch_fn(ds).numpy())
for epoch in range(2):
    looped.extend(float(v) for v in epoch_fn(full).numpy())
record("loop losses", looped)
record("loop loss bits", loss_bits(looped))
record("loop weights", [bits(p.numpy()) for p in params])
count("epoch_fn traces", epoch_fn)
