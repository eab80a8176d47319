"""The function layer's crashes and hangs of issue 12, each a regression test: threads calling one
tf.function, an inner function with an input_signature called with Python ints, tf.zeros of a
partly symbolic shape, exit with a logging handler, the trace cost against the number of cached
traces, and the bounded cache from Python. Expected values are TF 2.21's (conformance/cases/fn_*.py
record the same programs under real TF) or worked out in the test."""
import subprocess
import sys
import textwrap
import threading

import numpy as np

import tfscope
import tfscope as tf

# A hang must fail the test rather than stop the suite: a thread still running after this long
# (the work takes well under a second) is deadlocked.
HANG_SECONDS = 120


def _run_threads(targets):
    threads = [threading.Thread(target=t, daemon=True) for t in targets]
    for t in threads:
        t.start()
    for t in threads:
        t.join(HANG_SECONDS)
    return [t.is_alive() for t in threads]


def _run_python(code):
    # In a child process: a deadlock that holds the GIL would stop this process too.
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True,
                          text=True, timeout=HANG_SECONDS)


def test_two_threads_calling_one_function_do_not_deadlock():
    # One thread traces (its body needs the GIL) while the other waits for the trace: the waiter
    # must not hold the GIL. Each round uses a fresh function, so both threads trace and hit.
    r = _run_python("""
        import threading
        import time
        import numpy as np
        import tfscope as tf

        for _ in range(10):
            @tf.function
            def f(x):
                time.sleep(0.002)  # host code that lets the GIL go while tracing
                return x * 2 + 1

            results = {}

            def worker(name, n):
                out = []
                for i in range(30):
                    x = tf.constant(np.arange(n + i % 3, dtype=np.int32))
                    out.append(f(x).numpy().tolist())
                results[name] = out

            threads = [threading.Thread(target=worker, args=("a", 1)),
                       threading.Thread(target=worker, args=("b", 2))]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            assert results["a"][0] == [1] and results["b"][0] == [1, 3], results
            # Shapes (1,), (2,), (3,), (4,) are all the traces there can be.
            assert f.experimental_get_tracing_count() == 4
        print("ok")
    """)
    assert r.returncode == 0, r.stderr
    assert r.stdout == "ok\n"


def test_a_thread_pool_making_the_first_calls_of_a_fresh_function():
    r = _run_python("""
        import concurrent.futures
        import time
        import tfscope as tf

        for _ in range(5):
            @tf.function
            def g(x):
                time.sleep(0.002)  # host code that lets the GIL go while tracing
                return x + 1

            with concurrent.futures.ThreadPoolExecutor(max_workers=8) as pool:
                out = list(pool.map(lambda v: int(g(tf.constant(v)).numpy()), range(32)))
            assert out == list(range(1, 33)), out
            assert g.experimental_get_tracing_count() == 1
        print("ok")
    """)
    assert r.returncode == 0, r.stderr
    assert r.stdout == "ok\n"


def test_threads_calling_other_functions_while_one_traces():
    @tf.function
    def slow(x):
        # Host code that waits: the trace holds the function's trace lock meanwhile.
        threading.Event().wait(0.05)
        return x - 1

    @tf.function
    def fast(x):
        return x + 1

    fast(tf.constant(1))
    out = []
    alive = _run_threads([lambda: out.append(int(slow(tf.constant(5)).numpy())),
                          lambda: out.extend(int(fast(tf.constant(i)).numpy()) for i in range(50))])
    assert alive == [False, False]
    assert sorted(out) == sorted([4] + list(range(1, 51)))


def test_inner_input_signature_called_with_python_ints():
    # TF 2.21: the ints become Consts of g's graph, fed to a PartitionedCall of f; g() is 6.
    @tf.function(input_signature=[tf.TensorSpec([], tf.int32)] * 3)
    def f(a, b, c):
        return a + b + c

    @tf.function
    def g():
        return f(1, 2, 3)

    assert int(g().numpy()) == 6
    assert f.experimental_get_tracing_count() == 1
    assert g.experimental_get_tracing_count() == 1
    ops = [n.op for n in g.get_concrete_function().graph.as_graph_def().node]
    assert ops == ["Const", "Const", "Const", "PartitionedCall", "Identity"]


def test_zeros_and_ones_of_a_partly_symbolic_shape():
    # The RNN initial-state idiom. TF 2.21 gives static shape (None, 16) inside the function
    # and a (2, 16) result for a (2, 3) input.
    shapes = []

    @tf.function
    def z(x):
        s = tf.zeros([tf.shape(x)[0], 16])
        o = tf.ones([tf.shape(x)[0], 16])
        shapes.append((s.shape.as_list(), o.shape.as_list()))
        return s + o

    out = z.get_concrete_function(tf.TensorSpec([None, 3], tf.float32))(tf.ones([2, 3]))
    assert shapes == [([None, 16], [None, 16])]
    assert out.shape.as_list() == [2, 16]
    np.testing.assert_array_equal(out.numpy(), np.ones([2, 16], np.float32))


def test_exit_with_a_logging_handler_on_the_root_logger():
    r = _run_python("""
        import logging
        import tfscope as tf

        class H(logging.Handler):
            def emit(self, record):
                pass

        logging.getLogger().addHandler(H())

        @tf.function
        def f(x):
            return x + 1

        for n in range(1, 8):  # enough traces for the retracing warning
            f(tf.constant([0] * n))
        print("done")
    """)
    assert r.returncode == 0, r.stderr
    assert r.stdout == "done\n"


def test_a_function_stored_on_the_tfscope_module_called_inside_a_trace():
    r = _run_python("""
        import tfscope as tf

        def double(x):
            return x * 2

        tf.double = double

        @tf.function
        def f(x):
            return tf.double(x)

        print(int(f(tf.constant(4)).numpy()))
    """)
    assert r.returncode == 0, r.stderr
    assert r.stdout == "8\n"


def test_a_trace_examines_only_the_traces_of_its_type_skeleton():
    # 2000 distinct Python ints: 2000 traces. A miss must not compare the request against every
    # cached trace (TF's table does; tfscope indexes traces by their type without shapes), so the
    # number of supertype checks a miss makes stays at what the request's own skeleton holds.
    @tf.function
    def k(x, n):
        return x + n

    x = tf.constant(1)
    for n in range(2000):
        k(x, n)
    assert k.experimental_get_tracing_count() == 2000
    assert k._core.cache_stats()["last_miss_candidates"] == 0
    k(tf.constant([1, 2]), 5)  # same skeleton as (x, 5): one candidate, not a supertype
    assert k._core.cache_stats()["last_miss_candidates"] == 1
    assert k.experimental_get_tracing_count() == 2001


def test_max_cache_entries_from_python_evicts_and_the_ledger_says_so():
    @tfscope.function(max_cache_entries=2)
    def f(x):
        return x * 2

    f(tf.constant([1]))
    f(tf.constant([1, 2]))
    f(tf.constant([1]))        # hit; (2,) is now the least recently used
    f(tf.constant([1, 2, 3]))  # evicts (2,)
    f(tf.constant([1, 2]))     # traces again, evicts (1,)
    assert f.experimental_get_tracing_count() == 2
    ledger = f.ledger()
    assert ledger.count("evicted: ") == 2
    assert "evicted: " in ledger.splitlines()[-2] or "evicted: " in ledger.splitlines()[-1]
    assert "5 calls, 4 traces" in ledger


def test_max_cache_entries_must_be_positive():
    import pytest
    with pytest.raises(ValueError, match="max_cache_entries must be a positive int"):
        tfscope.function(lambda x: x, max_cache_entries=0)
