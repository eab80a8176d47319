"""python -m tfscope.demo: the lab's story from Python, with the seeds' code unchanged but for the
import. Each section prints what TF 2.21 would print, then what tfscope adds (the ledger, reports).
"""
import sys

import numpy as np

import tfscope
import tfscope as tf


def section(title):
    sys.stdout.flush()
    print("\n== %s ==" % title)
    sys.stdout.flush()


def scaled_story():
    section("The seed: 4 calls of `scaled`, 3 traces")

    @tf.function
    def scaled(x, factor):
        print("TRACE", x.shape, factor)       # Python, during tracing
        tf.print("RUN", tf.shape(x), factor, output_stream=sys.stdout)  # graph operation
        return x * factor

    a = tf.constant([1, 2], dtype=tf.int32)
    b = tf.constant([8, 9], dtype=tf.int32)
    c = tf.constant([1, 2, 3, 4], dtype=tf.int32)
    for x, f in [(a, 2), (b, 2), (c, 2), (c, 3)]:
        scaled(x, f)
        sys.stdout.flush()
    print("tracing count:", scaled.experimental_get_tracing_count())
    print(scaled.ledger())
    return scaled


def centered_story():
    section("input_signature: one trace for every length")

    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
    def centered(x):
        return x - tf.reduce_mean(x)

    print(centered(tf.constant([1.0, 3.0], dtype=tf.float32)))
    print(centered(tf.constant([1.0, 3.0, 5.0], dtype=tf.float32)))
    print("tracing count:", centered.experimental_get_tracing_count())
    try:
        centered(tf.constant([[1.0, 2.0]]))
    except TypeError as e:
        print("rank 2 rejected:", str(e).split(". Received")[0])


def record_story():
    section("Python side effects run once per trace")
    events = []

    @tf.function
    def record(x):
        events.append("called")  # Python list mutation during tracing
        print("tracing")          # Python print during tracing
        tf.print("executing", x, output_stream=sys.stdout)  # TensorFlow operation in graph
        return x + 1

    for v in ([1, 2], [3, 4], [5, 6, 7]):
        record(tf.constant(v))
        sys.stdout.flush()
    print("events:", events, "(3 calls, %d traces)" % record.experimental_get_tracing_count())


def report_story(scaled):
    section("GraphReport of scaled's first concrete function")
    cf = scaled.concrete_functions()[0]
    print(tfscope.report(cf, "text"))


def stabilize_story():
    section("stabilize: the same function with an explicit signature")

    def centered(x):
        return x - tf.reduce_mean(x)

    loose = tf.function(centered)
    stable = tfscope.stabilize(loose, [tf.TensorSpec([None], tf.float32)])
    for n in (2, 3, 4, 5):
        x = tf.constant(np.arange(n, dtype=np.float32))
        loose(x)
        stable(x)
    print("without a signature: %d traces; stabilized: %d trace" % (
        loose.experimental_get_tracing_count(), stable.experimental_get_tracing_count()))


def main(argv=None):
    scaled = scaled_story()
    centered_story()
    record_story()
    report_story(scaled)
    stabilize_story()
    return 0


if __name__ == "__main__":
    sys.exit(main())
