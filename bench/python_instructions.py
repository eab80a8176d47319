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
import subprocess
import sys
import tempfile
import time


def _child(mode, calls, d):
    import gc

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
    gc.collect()
    gc.disable()
    open(os.path.join(d, "ready"), "w").close()
    while not os.path.exists(os.path.join(d, "go")):
        time.sleep(0.01)
    for _ in range(calls):
        g(x)
    open(os.path.join(d, "done"), "w").close()
    while not os.path.exists(os.path.join(d, "end")):
        time.sleep(0.01)


def _wait(path, proc):
    while not os.path.exists(path):
        if proc.poll() is not None:
            raise SystemExit("the measured process exited early (%d)" % proc.returncode)
        time.sleep(0.05)


def _measure(mode, calls, keep=None):
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "callgrind.out")
        proc = subprocess.Popen(
            ["valgrind", "--tool=callgrind", "--instr-atstart=no", "--callgrind-out-file=" + out,
             sys.executable, os.path.abspath(__file__), "--child", mode, "--calls", str(calls),
             "--dir", d], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _wait(os.path.join(d, "ready"), proc)
        subprocess.run(["callgrind_control", "-i", "on", str(proc.pid)], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        open(os.path.join(d, "go"), "w").close()
        _wait(os.path.join(d, "done"), proc)
        subprocess.run(["callgrind_control", "-i", "off", str(proc.pid)], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        open(os.path.join(d, "end"), "w").close()
        proc.wait()
        if keep:
            shutil.copy(out, keep)
        with open(out) as f:
            for line in f:
                if line.startswith("totals:"):
                    return int(line.split()[1])
    raise SystemExit("callgrind wrote no totals")


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
