"""Times the same tiny tf.function under tfscope's Python API and under TensorFlow 2.21.

One run: the driver starts one worker per backend (each in its own virtual environment: the
project's .venv for tfscope, the oracle's for TF), each times a cache-hit call and the first
(tracing) call of `f(x) = x * 2 + 1`, and the driver writes one JSON file with both.

    python bench/python_vs_tf.py OUT.json TFSCOPE_PYTHON TF_PYTHON
"""
import json
import subprocess
import sys

WORKER = r'''
import json, sys, time, timeit, os
backend = sys.argv[1]
if backend == "tf":
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    import tensorflow as tf
else:
    import tfscope as tf
import numpy as np

x = tf.constant(np.arange(4, dtype=np.float32))

def make():
    @tf.function
    def f(x):
        return x * 2.0 + 1.0
    return f

# the first call traces: a fresh function per sample, median of several
traces = []
for _ in range(15):
    f = make()
    t0 = time.perf_counter()
    f(x)
    traces.append((time.perf_counter() - t0) * 1e6)
traces.sort()
f = make()
f(x)
n = 20000
best = min(timeit.repeat(lambda: f(x), number=n, repeat=5)) / n * 1e6
cpu = min(timeit.Timer(lambda: f(x), timer=time.process_time).repeat(number=n, repeat=5)) / n * 1e6
print(json.dumps({"call_us": best, "call_cpu_us": cpu, "trace_us": traces[len(traces) // 2]}))
'''


def run(python, backend):
    out = subprocess.run([python, "-c", WORKER, backend], check=True, capture_output=True,
                         text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def main():
    out_path, tfscope_py, tf_py = sys.argv[1:4]
    ours = run(tfscope_py, "tfscope")
    theirs = run(tf_py, "tf")
    result = {
        "function": "f(x) = x * 2.0 + 1.0, x float32[4]",
        "tfscope_call_us": round(ours["call_us"], 3),
        "tf_call_us": round(theirs["call_us"], 3),
        "call_speedup_vs_tf": round(theirs["call_us"] / ours["call_us"], 2),
        # process CPU time per call (all threads): steadier than wall time on a busy machine
        "tfscope_call_cpu_us": round(ours["call_cpu_us"], 3),
        "tf_call_cpu_us": round(theirs["call_cpu_us"], 3),
        "tfscope_trace_us": round(ours["trace_us"], 1),
        "tf_trace_us": round(theirs["trace_us"], 1),
        "trace_speedup_vs_tf": round(theirs["trace_us"] / ours["trace_us"], 2),
        "goal_call_us": 5.0,
    }
    with open(out_path, "w") as fh:
        json.dump(result, fh, indent=2)
        fh.write("\n")
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
