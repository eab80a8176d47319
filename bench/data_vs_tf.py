"""Times one input pipeline under tfscope and under TensorFlow 2.21 in one run:
from_tensor_slices of 1M float32 values, batch(256), iterated to the end eagerly (map joins in
the second half of tf.data). Elements (batches) per second and values per second per backend.

    python bench/data_vs_tf.py OUT.json TFSCOPE_PYTHON TF_PYTHON
"""
import json
import subprocess
import sys

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
ds = tf.data.Dataset.from_tensor_slices(values).batch(256)
for _ in ds:  # warm up
    pass
best = None
for _ in range(5):
    t0 = time.perf_counter()
    n = 0
    for b in ds:
        n += 1
    dt = time.perf_counter() - t0
    best = dt if best is None else min(best, dt)
print(json.dumps({"seconds": best, "batches": n}))
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
        "pipeline": "from_tensor_slices(float32[1048576]).batch(256), eager iteration",
        "batches": ours["batches"],
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
