"""Dataset functions (map, filter, flat_map, interleave, scan, reduce): traced once when the
dataset is built, as TF traces them; values worked out by hand (the conformance case
data_functions compares all of it against TF 2.21)."""
import pytest

import tfscope as tf

D = tf.data.Dataset


def test_python_runs_once_and_the_ledger_says_why():
    seen = []

    def f(x):
        seen.append(x)
        return x + 1

    ds = D.range(4).map(f)
    assert len(seen) == 1  # traced when the dataset was built
    assert [int(x) for x in ds] == [1, 2, 3, 4]
    assert [int(x) for x in ds] == [1, 2, 3, 4]
    assert len(seen) == 1  # one trace, at map(); no Python per element or per iterator
    text = ds.function_ledger()
    assert text.startswith("Dataset_map_f: the function of Dataset.map(), traced once")
    assert "its Python ran once" in text
    assert "0 calls, 1 traces" in text


def test_structured_elements_and_captures():
    scale = tf.constant(3, tf.int64)
    ds = D.zip((D.range(3), D.range(10, 13))).map(lambda a, b: {"p": a * scale, "q": b})
    out = [(int(e["p"]), int(e["q"])) for e in ds]
    assert out == [(0, 10), (3, 11), (6, 12)]


def test_filter_flat_map_interleave_scan_reduce():
    assert [int(x) for x in D.range(7).filter(lambda x: x % 2 == 1)] == [1, 3, 5]
    assert [int(x) for x in D.range(4).flat_map(lambda x: D.range(x))] == [0, 0, 1, 0, 1, 2]
    inter = D.range(3).interleave(lambda x: D.from_tensors(x).repeat(2), cycle_length=2)
    # cycle of 2, block 1: 0 1 0 1, then 2 takes the first slot: 2 2
    assert [int(x) for x in inter] == [0, 1, 0, 1, 2, 2]
    sums = D.range(1, 5).scan(tf.constant(0, tf.int64), lambda s, x: (s + x, s + x))
    assert [int(x) for x in sums] == [1, 3, 6, 10]
    assert int(D.range(1, 5).reduce(tf.constant(1, tf.int64), lambda s, x: s * x)) == 24


def test_reduce_relaxes_a_growing_state_and_traces_twice():
    traces = []

    def grow(s, x):
        traces.append(s.shape)
        return tf.concat([s, [x]], 0)

    out = D.range(3).reduce(tf.constant([], tf.int64), grow)
    assert out.numpy().tolist() == [0, 1, 2]
    assert [tuple(s.as_list()) for s in traces] == [(0,), (None,)]


def test_iterators_in_a_function():
    @tf.function
    def two(limit):
        it = iter(D.range(limit))
        return next(it) + next(it) * 10

    assert int(two(tf.constant(5, tf.int64))) == 10
    ops = [n.type for n in two.get_concrete_function(tf.constant(5, tf.int64)).graph.get_operations()]
    assert ops.count("IteratorGetNext") == 2 and "AnonymousIteratorV3" in ops and "MakeIterator" in ops
    # past the end: TF's OutOfRangeError from the graph, at the IteratorGetNext that ran out
    with pytest.raises(tf.errors.OutOfRangeError, match=r"End of sequence\n\t \[\[\{\{node IteratorGetNext_1\}\}\]\]"):
        two(tf.constant(1, tf.int64))


def test_an_eager_iterator_passed_to_a_function_advances_with_eager_reads():
    # TF (data_spec_args): the iterator is an IteratorSpec argument, a resource the graph reads
    # with IteratorGetNext; eager next() and the function read one position.
    it = iter(D.range(3))

    @tf.function
    def take(i):
        return next(i)

    assert [int(take(it)), int(next(it)), int(take(it))] == [0, 1, 2]
    assert take.experimental_get_tracing_count() == 1
    cf = take.get_concrete_function(it)
    assert [t.dtype.name for t in cf.inputs] == ["resource"]
    assert repr(cf.structured_input_signature[0][0]) == (
        "IteratorSpec(TensorSpec(shape=(), dtype=tf.int64, name=None),)")
    with pytest.raises(tf.errors.OutOfRangeError, match="End of sequence"):
        take(it)


def test_dataset_loop_in_a_function():
    @tf.function
    def total(n):
        s = tf.constant(0, tf.int64)
        for x in D.range(n).map(lambda v: v * v):
            s += x
            if s > 20:
                break
        return s

    assert int(total(tf.constant(3, tf.int64))) == 5  # 0 + 1 + 4
    assert int(total(tf.constant(10, tf.int64))) == 30  # 0 + 1 + 4 + 9 + 16 stops past 20
    assert total.experimental_get_tracing_count() == 1
