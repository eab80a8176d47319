"""Dataset.interleave with num_parallel_calls (ParallelInterleaveDatasetV4): the deterministic
order is InterleaveDataset's, for cycle and block lengths, AUTOTUNE calls, a tensor count;
deterministic=False may order elements as they are ready, so only its elements are compared;
TF's texts for bad cycle_length, block_length and num_parallel_calls; the repr, cardinality, and
the graph TF builds in a tf.function (its constants, the op, its deterministic attr)."""
D = tf.data.Dataset


def repeated(x):
    return D.from_tensors(x).repeat(x + 1)


def run_of_three(x):
    return D.range(x * 10, x * 10 + 3)


def show(label, ds, ordered=True):
    record(label + " repr", repr(ds))
    record(label + " cardinality", int(ds.cardinality()))
    values = [np.asarray(v).tolist() for v in ds.as_numpy_iterator()]
    record(label + " elements", values if ordered else sorted(values))


CONFIGS = [
    ("c2 p2", dict(cycle_length=2, num_parallel_calls=2)),
    ("c3 b2 autotune", dict(cycle_length=3, block_length=2, num_parallel_calls=tf.data.AUTOTUNE)),
    ("c2 p2 det", dict(cycle_length=2, num_parallel_calls=2, deterministic=True)),
    ("c1 p1", dict(cycle_length=1, num_parallel_calls=1)),
    ("c4 b3 p3", dict(cycle_length=4, block_length=3, num_parallel_calls=3)),
    ("c2 tensor", dict(cycle_length=2, num_parallel_calls=tf.constant(2, tf.int64))),
]
for label, kwargs in CONFIGS:
    for f in (repeated, run_of_three):
        show(label + " " + f.__name__, D.range(5).interleave(f, **kwargs))
show("nondeterministic", D.range(5).interleave(repeated, cycle_length=2, num_parallel_calls=2,
                                               deterministic=False), ordered=False)
options = tf.data.Options()
options.deterministic = False
show("options nondeterministic",
     D.range(5).with_options(options).interleave(repeated, cycle_length=2, num_parallel_calls=2),
     ordered=False)
show("then batched", D.range(4).interleave(run_of_three, cycle_length=2, block_length=2,
                                           num_parallel_calls=2).batch(4))

for label, kwargs in [("more calls than cycle", dict(cycle_length=2, num_parallel_calls=3)),
                      ("zero calls", dict(cycle_length=2, num_parallel_calls=0)),
                      ("negative calls", dict(cycle_length=2, num_parallel_calls=-5)),
                      ("zero cycle", dict(cycle_length=0, num_parallel_calls=1)),
                      ("zero block", dict(cycle_length=2, block_length=0, num_parallel_calls=1)),
                      ("sequential zero cycle", dict(cycle_length=0)),
                      ("sequential zero block", dict(cycle_length=2, block_length=0))]:
    attempt(label, lambda kwargs=kwargs: D.range(5).interleave(repeated, **kwargs))


def add(s, x):
    return s + x


@tf.function
def in_graph():
    ds = D.range(5).interleave(run_of_three, cycle_length=2, num_parallel_calls=2)
    return ds.reduce(tf.constant(0, tf.int64), add)


record("in graph", in_graph())
graph_ops("in graph ops", in_graph.get_concrete_function())


@tf.function
def in_graph_nondeterministic():
    ds = D.range(5).interleave(run_of_three, cycle_length=2, num_parallel_calls=2,
                               deterministic=False)
    return ds.reduce(tf.constant(0, tf.int64), add)


record("nondeterministic in graph", in_graph_nondeterministic())
graph_ops("nondeterministic in graph ops", in_graph_nondeterministic.get_concrete_function())
