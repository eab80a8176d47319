"""Times one input pipeline under tfscope and under TensorFlow 2.21 in one run:
from_tensor_slices of 1M float32 values, map(x * 2), batch(256), iterated to the end eagerly.
Elements (values through the map) and batches per second per backend, and the CPU.

    python bench/data_vs_tf.py OUT.json TFSCOPE_PYTHON TF_PYTHON
"""
import json
import os
import subprocess
import sys
import tempfile

WORKER = r'''
import json, os, sys, time
backend = sys.argv[1]
if backend == "tf":
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    import tensorflow as tf
else:
    import tfscope as tf
import numpy as np

values = np.arange(1 << 20, dtype=np.float32)


def double(x):
    return x * 2


ds = tf.data.Dataset.from_tensor_slices(values).map(double).batch(256)
for _ in ds.take(16):  # warm up
    pass
best = None
for _ in range(3):
    t0 = time.perf_counter()
    n = 0
    for b in ds:
        n += 1
    dt = time.perf_counter() - t0
    best = dt if best is None else min(best, dt)
print(json.dumps({"seconds": best, "batches": n, "elements": len(values)}))
'''


def run(python, backend, path):
    out = subprocess.run([python, path, backend], check=True, capture_output=True,
                         text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def cpu_model():
    try:
        with open("/proc/cpuinfo") as fh:
            for line in fh:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "unknown"


def main():
    out_path, tfscope_py, tf_py = sys.argv[1:4]
    # A file, not -c: AutoGraph reads the map function's source, as in a user's program.
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as fh:
        fh.write(WORKER)
        path = fh.name
    try:
        ours = run(tfscope_py, "tfscope", path)
        theirs = run(tf_py, "tf", path)
    finally:
        os.unlink(path)
    result = {
        "pipeline": "from_tensor_slices(float32[1048576]).map(x * 2).batch(256), eager iteration",
        "cpu": cpu_model(),
        "cpus_available": len(os.sched_getaffinity(0)),
        "batches": ours["batches"],
        "tfscope_elements_per_s": round(ours["elements"] / ours["seconds"]),
        "tf_elements_per_s": round(theirs["elements"] / theirs["seconds"]),
        "tfscope_batches_per_s": round(ours["batches"] / ours["seconds"], 1),
        "tf_batches_per_s": round(theirs["batches"] / theirs["seconds"], 1),
        "speedup_vs_tf": round(theirs["seconds"] / ours["seconds"], 2),
        "goal_speedup_vs_tf": 1.0,
    }
    with open(out_path, "w") as fh:
        json.dump(result, fh, indent=2)
        fh.write("\n")
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
