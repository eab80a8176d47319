"""Dataset.interleave without a cycle_length: TF's AUTOTUNE, which InterleaveDataset resolves to
port::MaxParallelism(), the CPUs the process may run on, so the order of the elements depends on
the machine."""
# conformance: live-only: the cycle length is the number of schedulable CPUs
D = tf.data.Dataset


def pair_of(x):
    return D.from_tensors(x).repeat(2)


ds = D.range(6).interleave(pair_of)
record("repr", repr(ds))
record("elements", list(ds.as_numpy_iterator()))
record("block 3", list(D.range(5).interleave(pair_of, block_length=3).as_numpy_iterator()))
