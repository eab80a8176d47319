"""tfscope's TFLite interpreter against LiteRT's, on the same .tflite files in one run.

The models: the 784-256-128-10 MLP (relu, relu, linear) of bench/bm_function.cc, written by
tfscope's converter float and with dynamic-range quantization (every layer has at least 1024
weights, so all three FULLY_CONNECTED ops are hybrid: int8 weights, float activations). Each is
invoked from Python at batch 1 and 64, one invoke being set_tensor + invoke + get_tensor, under:

- tfscope's interpreter with its fast kernels (`fast_kernels=True`: float FULLY_CONNECTED with
  FMA) and with its reference kernels (the default; bit-exact with LiteRT's BUILTIN_REF);
- LiteRT (ai_edge_litert) at num_threads=1 with its default kernels (BUILTIN: optimized kernels
  and the XNNPACK delegate) and with its reference kernels (BUILTIN_REF).

One process per backend (tfscope's .venv and the oracle's Python), the same files, three rounds
alternating the two (the best of each); CPU time (the process's own) is reported beside wall time,
since on a shared machine the wall clock also counts other processes. Also checked: each tfscope
mode's outputs against LiteRT BUILTIN_REF's (bit-exact where claimed).

    python bench/lite_vs_litert.py OUT.json TFSCOPE_PYTHON LITERT_PYTHON [--quick]
"""
import json
import os
import platform
import subprocess
import sys
import tempfile

# Writes the two models into a folder (tfscope's converter) and the probe inputs beside them.
WRITE = r'''
import sys, numpy as np
import tfscope as tf
out = sys.argv[1]
rng = np.random.default_rng(7)
dims = [784, 256, 128, 10]
ws = [tf.Variable(rng.uniform(-0.1, 0.1, (a, b)).astype(np.float32)) for a, b in zip(dims, dims[1:])]
bs = [tf.Variable(rng.uniform(-0.1, 0.1, (b,)).astype(np.float32)) for b in dims[1:]]

@tf.function(input_signature=[tf.TensorSpec([None, 784], tf.float32, name="x")])
def mlp(x):
    h = tf.nn.relu(tf.matmul(x, ws[0]) + bs[0])
    h = tf.nn.relu(tf.matmul(h, ws[1]) + bs[1])
    return tf.matmul(h, ws[2]) + bs[2]

cf = mlp.get_concrete_function()
for name, dynamic in [("float", False), ("int8", True)]:
    conv = tf.lite.TFLiteConverter.from_concrete_functions([cf])
    if dynamic:
        conv.optimizations = [tf.lite.Optimize.DEFAULT]
    with open(f"{out}/mlp_{name}.tflite", "wb") as f:
        f.write(conv.convert())
for batch in (1, 64):
    rng.normal(0, 1, (batch, 784)).astype(np.float32).tofile(f"{out}/x{batch}.f32")
'''

# Times one backend on every (model, batch, mode); prints one JSON line. argv: backend, folder,
# quick.
TIME = r'''
import json, os, sys, time, timeit
import numpy as np
backend, folder, quick = sys.argv[1], sys.argv[2], sys.argv[3] == "1"
if backend == "litert":
    from ai_edge_litert.interpreter import Interpreter, OpResolverType
    modes = {"default": OpResolverType.AUTO, "ref": OpResolverType.BUILTIN_REF}
    def make(path, mode, batch):
        it = Interpreter(model_path=path, num_threads=1, experimental_op_resolver_type=modes[mode])
        it.resize_tensor_input(it.get_input_details()[0]["index"], [batch, 784])
        it.allocate_tensors()
        return it
else:
    import tfscope as tf
    modes = {"fast": True, "ref": False}
    def make(path, mode, batch):
        it = tf.lite.Interpreter(model_path=path, fast_kernels=modes[mode])
        it.resize_tensor_input(0, [batch, 784])
        it.allocate_tensors()
        return it
results = {}
for model in ("float", "int8"):
    path = os.path.join(folder, f"mlp_{model}.tflite")
    for batch in (1, 64):
        x = np.fromfile(os.path.join(folder, f"x{batch}.f32"), dtype=np.float32).reshape(batch, 784)
        for mode in modes:
            it = make(path, mode, batch)
            i_in = it.get_input_details()[0]["index"]
            i_out = it.get_output_details()[0]["index"]
            def step():
                it.set_tensor(i_in, x)
                it.invoke()
                return it.get_tensor(i_out)
            y = step()
            # about 0.05 s per repeat
            t0 = time.perf_counter(); step(); one = time.perf_counter() - t0
            n = max(1, int((0.01 if quick else 0.05) / max(one, 1e-7)))
            reps = 3 if quick else 5
            wall = min(timeit.repeat(step, number=n, repeat=reps)) / n
            cpu = min(timeit.Timer(step, timer=time.process_time).repeat(number=n, repeat=reps)) / n
            results[f"{model}/{batch}/{mode}"] = [wall * 1e6, cpu * 1e6]
            y.astype("<f4").tofile(os.path.join(folder, f"y_{backend}_{model}_{batch}_{mode}.f32"))
print(json.dumps(results))
'''


ROUNDS = 5

# (column, backend, mode)
TIMED = [("tfscope_fast", "tfscope", "fast"), ("tfscope_ref", "tfscope", "ref"),
         ("litert_default", "litert", "default"), ("litert_ref", "litert", "ref")]


def run(python, *args):
    out = subprocess.run([python, "-c", *args], check=True, capture_output=True, text=True,
                         env=dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3")).stdout
    return json.loads(out.strip().splitlines()[-1])


def cpu_model():
    try:
        for line in subprocess.run(["lscpu"], capture_output=True, text=True).stdout.splitlines():
            if line.startswith("Model name:"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor()


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    quick = "--quick" in sys.argv
    out_path, tfscope_py, litert_py = args[:3]
    import numpy as np
    with tempfile.TemporaryDirectory() as folder:
        subprocess.run([tfscope_py, "-c", WRITE, folder], check=True)
        # Rounds alternate the two processes, and each figure is the best over the rounds: on a
        # shared machine the load then weighs on both sides alike.
        ours, theirs = {}, {}
        for _ in range(1 if quick else ROUNDS):
            for best, py, backend in [(ours, tfscope_py, "tfscope"), (theirs, litert_py, "litert")]:
                for key, (wall, cpu) in run(py, TIME, backend, folder, "1" if quick else "0").items():
                    old = best.get(key, (wall, cpu))
                    best[key] = (min(old[0], wall), min(old[1], cpu))

        def y(backend, model, batch, mode):
            return np.fromfile(os.path.join(folder, f"y_{backend}_{model}_{batch}_{mode}.f32"),
                               dtype="<f4")

        rows = []
        for model in ("float", "int8"):
            for batch in (1, 64):
                key = f"{model}/{batch}"
                ref = y("litert", model, batch, "ref")
                row = {"model": f"mlp 784-256-128-10 {model}", "batch": batch}
                for name, src, mode in TIMED:
                    wall, cpu = (ours if src == "tfscope" else theirs)[f"{key}/{mode}"]
                    row[f"{name}_us"] = round(wall, 2)
                    row[f"{name}_cpu_us"] = round(cpu, 2)
                for clock in ("", "_cpu"):
                    row[f"fast_vs_litert_default{clock}"] = round(
                        row[f"tfscope_fast{clock}_us"] / row[f"litert_default{clock}_us"], 3)
                    row[f"ref_vs_litert_ref{clock}"] = round(
                        row[f"tfscope_ref{clock}_us"] / row[f"litert_ref{clock}_us"], 3)
                for mode in ("fast", "ref"):
                    got = y("tfscope", model, batch, mode)
                    row[f"tfscope_{mode}_bit_exact_with_litert_ref"] = got.tobytes() == ref.tobytes()
                    row[f"tfscope_{mode}_max_abs_diff_vs_litert_ref"] = float(
                        np.max(np.abs(got - ref)))
                row["litert_default_max_abs_diff_vs_litert_ref"] = float(
                    np.max(np.abs(y("litert", model, batch, "default") - ref)))
                rows.append(row)
    result = {"cpu": cpu_model(), "litert_threads": 1,
              "timing": "best of repeats of set_tensor + invoke + get_tensor; *_cpu_us: process "
                        "CPU time (steadier on a shared machine), else wall time",
              "goals": {"fast_vs_litert_default": 1.0, "ref_vs_litert_ref": 1.0}, "rows": rows}
    with open(out_path, "w") as fh:
        json.dump(result, fh, indent=2)
        fh.write("\n")
    print(f"CPU: {result['cpu']}; one invoke = set_tensor + invoke + get_tensor, best of repeats,"
          " CPU time (wall time in brackets)")
    print(f"{'model':<6}{'batch':>6}{'tfscope fast':>22}{'LiteRT default':>22}{'ratio':>14}"
          f"{'tfscope ref':>22}{'LiteRT REF':>22}{'ratio':>14}  ref bit-exact")
    for r in rows:
        def t(name):
            return f"{r[name + '_cpu_us']:.1f} ({r[name + '_us']:.1f}) us"
        print(f"{r['model'].split()[-1]:<6}{r['batch']:>6}{t('tfscope_fast'):>22}"
              f"{t('litert_default'):>22}"
              f"{r['fast_vs_litert_default_cpu']:>8.2f} ({r['fast_vs_litert_default']:.2f})"
              f"{t('tfscope_ref'):>22}{t('litert_ref'):>22}"
              f"{r['ref_vs_litert_ref_cpu']:>8.2f} ({r['ref_vs_litert_ref']:.2f})"
              f"  {r['tfscope_ref_bit_exact_with_litert_ref']}")


if __name__ == "__main__":
    main()
