"""A tfscope tf.function cache hit from Python, in instructions (valgrind's callgrind): the
figure bench/python_vs_tf.py times, by a measure the machine's load does not move.

    PYTHONPATH=<dir holding tfscope> python bench/python_instructions.py [--calls N] [--profile F]

The function is python_vs_tf.py's `f(x) = x * 2.0 + 1.0` on a float32[4] tensor. The measured
process runs under callgrind with instrumentation off; after the trace and a warm-up the driver
switches it on (callgrind_control) for exactly the timed loop, with the garbage collector off.
Printed: instructions per call of the loop `f(x)`, and of an empty loop calling a Python no-op
(the loop's own share). --profile keeps the callgrind file (for callgrind_annotate).
"""
import argparse
import os
import shutil

import _callgrind  # this folder, the scripts' own


def _child(mode, calls, d):
    import tfscope as tf
    import numpy as np

    x = tf.constant(np.arange(4, dtype=np.float32))

    @tf.function
    def f(x):
        return x * 2.0 + 1.0

    def noop(x):
        return x

    g = f if mode == "hit" else noop
    for _ in range(200):
        g(x)
    with _callgrind.measured(d):
        for _ in range(calls):
            g(x)


def _measure(mode, calls, keep=None):
    found = _callgrind.run(__file__, mode, calls,
                           keep=(lambda d: shutil.copy(os.path.join(d, "callgrind.out"), keep))
                           if keep else None)
    return found["callgrind.out"]


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--calls", type=int, default=2000)
    p.add_argument("--profile", help="keep the hit's callgrind file here")
    p.add_argument("--child", help=argparse.SUPPRESS)
    p.add_argument("--dir", help=argparse.SUPPRESS)
    a = p.parse_args()
    if a.child:
        return _child(a.child, a.calls, a.dir)
    hit = _measure("hit", a.calls, a.profile) / a.calls
    loop = _measure("loop", a.calls) / a.calls
    print("Python cache-hit call f(x): %.0f instructions per call (the loop calling a Python "
          "no-op: %.0f; %d calls)" % (hit, loop, a.calls))


if __name__ == "__main__":
    main()
