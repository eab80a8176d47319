"""tf.print options: output_stream=sys.stdout, sep, end, summarize, and stream interleaving."""
import sys

@tf.function
def f(x):
    tf.print("to stdout", x, output_stream=sys.stdout)
    tf.print("a", "b", x, sep="|")
    tf.print("no newline", end="")
    tf.print(" continued")
    tf.print("summarize=1", tf.range(10), summarize=1)
    tf.print("summarize=-1", tf.range(10), summarize=-1)
    return x

call("call", f, tf.constant([1, 2]))
tf.print("eager stdout", tf.constant(7), output_stream=sys.stdout)
print("python after")
tf.print("eager stderr", [1, 2], {"k": tf.constant(3)})
