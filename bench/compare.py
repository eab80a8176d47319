"""tfscope beside TensorFlow 2.21 and LiteRT in one command: runs the side-by-side benchmarks, writes
one JSON file and prints the ratios table of the README's performance section.

    python bench/compare.py [--build BUILD] [--out FILE.json] [--only SECTION,...] [--quick]

Sections (each a function below that returns rows; add one to SECTIONS to extend the table; the
tf.function sections share one driver, tf_function_rows):
  lite      bench/lite_vs_litert.py: tfscope's TFLite interpreter vs LiteRT (default kernels at 1
            thread, and BUILTIN_REF), the 784-256-128-10 MLP float and dynamic-range int8.
  mlp       the same MLP as a tf.function called from Python: tfscope vs TF at batch 1 and 64.
  train     the MLP's training step (GradientTape, sparse softmax cross-entropy, SGD by
            assign_sub) as a tf.function from Python, batch 1 and 64 (bench/train_vs_tf.py).
  call      bench/python_vs_tf.py: the cache-hit call of a tiny tf.function.
  watch     bench/watch_overhead.py under TF's Python: what tfscope watch adds to a tiny
            tf.function call (self-check on), and the watch's own work per call alone.
  cpp       Google Benchmarks of BUILD: BM_MlpForward vs BM_MlpKernelsOnly (bm_function), the C++
            TFLite invoke vs Interpreter::run (bm_lite), and the MatMul and FULLY_CONNECTED
            kernels' share of the machine's FMA peak (bm_peak).

A row: what is measured, tfscope's figure, the other side's, their ratio (tfscope / other: below 1
is faster) and the goal. Times are the best of several repeats; "cpu" marks process CPU time (the
LiteRT rows: single-threaded on both sides, and steadier than wall time on a shared machine), the
others are wall time.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

from lite_vs_litert import cpu_model  # this directory's, which Python puts on sys.path

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def pythons():
    tfscope_py = os.path.join(ROOT, ".venv", "bin", "python")
    oracle = subprocess.run([os.path.join(ROOT, "conformance", "oracle_env.sh")],
                            capture_output=True, text=True, check=True).stdout.strip()
    return tfscope_py, oracle


def row(benchmark, ours, theirs, unit, other, goal=None, note="", goal_text=None):
    """goal: the ratio to stay under (a share for unit "share"); goal_text: a goal of another kind,
    printed as given. theirs None: a figure of tfscope's alone."""
    return {"benchmark": benchmark, "tfscope": ours, "other": theirs, "unit": unit,
            "other_is": other, "ratio": round(ours / theirs, 3) if theirs else None,
            "goal": goal, "note": note, "goal_text": goal_text}


# ---- lite: the interpreter against LiteRT ----

def section_lite(args, tfscope_py, oracle_py):
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "lite.json")
        cmd = [sys.executable, os.path.join(ROOT, "bench", "lite_vs_litert.py"), out, tfscope_py,
               oracle_py] + (["--quick"] if args.quick else [])
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
        with open(out) as fh:
            data = json.load(fh)
    rows = []
    for r in data["rows"]:
        kind = r["model"].split()[-1]
        name = f"TFLite invoke, MLP {kind}, batch {r['batch']}"
        rows.append(row(name + " (fast kernels)", r["tfscope_fast_cpu_us"],
                        r["litert_default_cpu_us"], "us cpu", "LiteRT default, 1 thread", 1.0))
        rows.append(row(name + " (reference kernels)", r["tfscope_ref_cpu_us"],
                        r["litert_ref_cpu_us"], "us cpu", "LiteRT BUILTIN_REF", 1.0,
                        "bit-exact" if r["tfscope_ref_bit_exact_with_litert_ref"] else "NOT bit-exact"))
    return rows


# ---- mlp and train: the MLP as a tf.function, one driver ----

# A worker is HEAD + a body that defines make_call(batch) (a no-argument call of the function on
# that batch's inputs) + TAIL, which times the call and prints {batch: us per call} as JSON.
WORKER_HEAD = r"""
import json, os, sys, time, timeit
backend, quick = sys.argv[1], sys.argv[2] == "1"
if backend == "tf":
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    import tensorflow as tf
else:
    import tfscope as tf
import numpy as np
rng = np.random.default_rng(7)
dims = [784, 256, 128, 10]
"""

WORKER_TAIL = r"""
out = {}
for batch in (1, 64):
    call = make_call(batch)
    call()
    t0 = time.perf_counter(); call(); one = time.perf_counter() - t0
    n = max(1, int((0.02 if quick else 0.1) / max(one, 1e-7)))
    out[str(batch)] = min(timeit.repeat(call, number=n, repeat=3 if quick else 7)) / n * 1e6
print(json.dumps(out))
"""

MLP_BODY = r"""
ws = [tf.constant(rng.uniform(-0.1, 0.1, (a, b)).astype(np.float32)) for a, b in zip(dims, dims[1:])]
bs = [tf.constant(rng.uniform(-0.1, 0.1, (b,)).astype(np.float32)) for b in dims[1:]]

@tf.function
def mlp(x):
    h = tf.nn.relu(tf.matmul(x, ws[0]) + bs[0])
    h = tf.nn.relu(tf.matmul(h, ws[1]) + bs[1])
    return tf.matmul(h, ws[2]) + bs[2]

def make_call(batch):
    x = tf.constant(rng.normal(0, 1, (batch, 784)).astype(np.float32))
    return lambda: mlp(x)
"""

TRAIN_BODY = r"""
ws = [tf.Variable(rng.uniform(-0.1, 0.1, (a, b)).astype(np.float32)) for a, b in zip(dims, dims[1:])]
bs = [tf.Variable(np.zeros(b, np.float32)) for b in dims[1:]]
params = [p for pair in zip(ws, bs) for p in pair]

@tf.function
def train_step(x, y):
    with tf.GradientTape() as tape:
        h = tf.nn.relu(tf.matmul(x, ws[0]) + bs[0])
        h = tf.nn.relu(tf.matmul(h, ws[1]) + bs[1])
        logits = tf.matmul(h, ws[2]) + bs[2]
        loss = tf.reduce_mean(
            tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=logits))
    grads = tape.gradient(loss, params)
    for p, g in zip(params, grads):
        p.assign_sub(0.01 * g)
    return loss

def make_call(batch):
    x = tf.constant(rng.normal(0, 1, (batch, 784)).astype(np.float32))
    y = tf.constant(rng.integers(0, 10, batch).astype(np.int32))
    return lambda: train_step(x, y)
"""


def run_worker(python, code, *argv):
    res = subprocess.run([python, "-c", code, *argv], capture_output=True, text=True, check=True,
                         env=dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3"))
    return json.loads(res.stdout.strip().splitlines()[-1])


def tf_function_rows(args, tfscope_py, oracle_py, body, title, goals):
    """The table driver of the tf.function sections: the worker with `body` under tfscope and TF,
    alternating (three rounds, one with --quick), each batch's best per side; one row per batch,
    goals[batch] its goal ratio."""
    code = WORKER_HEAD + body + WORKER_TAIL
    best = {"tfscope": {}, "tf": {}}
    for _ in range(1 if args.quick else 3):
        for backend, py in (("tfscope", tfscope_py), ("tf", oracle_py)):
            for k, v in run_worker(py, code, backend, "1" if args.quick else "0").items():
                best[backend][k] = min(v, best[backend].get(k, v))
    return [row(f"{title}, batch {b}", best["tfscope"][b], best["tf"][b], "us wall",
                "TF 2.21 tf.function", goals.get(b),
                "both use every core (intra-op pools)" if b == "64" else "")
            for b in ("1", "64")]


def section_mlp(args, tfscope_py, oracle_py):
    return tf_function_rows(args, tfscope_py, oracle_py, MLP_BODY,
                            "MLP 784-256-128-10 forward, tf.function from Python", {"64": 0.5})


def section_train(args, tfscope_py, oracle_py):
    """The training step (forward, backward, SGD update) of the MLP, from Python."""
    return tf_function_rows(args, tfscope_py, oracle_py, TRAIN_BODY,
                            "MLP 784-256-128-10 training step (GradientTape, SGD), tf.function",
                            {"1": 0.1, "64": 0.7})


# ---- watch: what tfscope watch adds to a TF call ----

def section_watch(args, tfscope_py, oracle_py):
    """bench/watch_overhead.py under TF's Python with the installed tfscope importable."""
    pkg = subprocess.run([tfscope_py, "-c", "import os, tfscope; "
                          "print(os.path.dirname(os.path.abspath(tfscope.__file__)))"],
                         capture_output=True, text=True, check=True).stdout.strip()
    with tempfile.TemporaryDirectory() as tmp:
        os.symlink(pkg, os.path.join(tmp, "tfscope"))  # tfscope alone, none of its venv
        out = os.path.join(tmp, "watch.json")
        sizes = ["--calls", "200", "--blocks", "7"] if args.quick else ["--blocks", "21"]
        res = subprocess.run([oracle_py, os.path.join(ROOT, "bench", "watch_overhead.py"),
                              "--json", out] + sizes, capture_output=True, text=True,
                             env=dict(os.environ, PYTHONPATH=tmp, TF_CPP_MIN_LOG_LEVEL="3"))
        if res.returncode != 0:
            sys.exit(f"bench/watch_overhead.py failed:\n{res.stderr[-4000:]}")
        with open(out) as fh:
            d = json.load(fh)
    pairs = f"median of {d['blocks']} interleaved pairs of {d['calls_per_block']} calls"
    return [row("tfscope watch on a tiny tf.function call (x + 1), self-check on",
                d["watched_cpu_us"], d["plain_cpu_us"], "us cpu", "the same call unwatched",
                note=f"{d['added_cpu_us']:+.2f} us added ({pairs})", goal_text="<= +3 us"),
            row("watch's own work per call (TF's call a no-op), self-check on",
                d["wrapper_self_check_us"], None, "us cpu", "", goal_text="<= 3 us"),
            row("same, self-check off", d["wrapper_us"], None, "us cpu", "", goal_text="<= 3 us")]


# ---- call: the tiny function's cache-hit call ----

def section_call(args, tfscope_py, oracle_py):
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "call.json")
        subprocess.run([sys.executable, os.path.join(ROOT, "bench", "python_vs_tf.py"), out,
                        tfscope_py, oracle_py], check=True, stdout=subprocess.DEVNULL)
        with open(out) as fh:
            d = json.load(fh)
    return [row("tf.function cache-hit call, f(x) = x*2+1 (Python)", d["tfscope_call_cpu_us"],
                d["tf_call_cpu_us"], "us cpu", "TF 2.21 tf.function"),
            row("tf.function first call (trace), same function", d["tfscope_trace_us"],
                d["tf_trace_us"], "us wall", "TF 2.21 tf.function")]


# ---- cpp: Google Benchmarks of the build ----

def google_benchmark(binary, regex, min_time, repetitions):
    """Each benchmark's fastest repetition (by CPU time), with its counters."""
    res = subprocess.run([binary, f"--benchmark_filter={regex}", "--benchmark_format=json",
                          f"--benchmark_min_time={min_time}",
                          f"--benchmark_repetitions={repetitions}"], capture_output=True,
                         text=True, check=True)
    best = {}
    for b in json.loads(res.stdout)["benchmarks"]:
        if b.get("run_type", "iteration") != "iteration":
            continue
        name = b.get("run_name", b["name"])
        if name not in best or b["cpu_time"] < best[name]["cpu_time"]:
            best[name] = b
    return best


def section_cpp(args, tfscope_py, oracle_py):
    bench = os.path.join(args.build, "bench")
    min_time = "0.05" if args.quick else "0.2"
    reps = 1 if args.quick else 5
    rows = []
    fn = os.path.join(bench, "bm_function")
    if os.path.exists(fn):
        b = google_benchmark(fn, "BM_Mlp(Forward|KernelsOnly)/", min_time, reps)
        for batch in (1, 64):
            f, k = b[f"BM_MlpForward/{batch}"], b[f"BM_MlpKernelsOnly/{batch}"]
            rows.append(row(f"C++ MLP forward in a ConcreteFunction, batch {batch}",
                            f["cpu_time"] / 1e3, k["cpu_time"] / 1e3, "us cpu",
                            "the bare kernels (BM_MlpKernelsOnly)", 1.1 if batch == 1 else None))
    lite = os.path.join(bench, "bm_lite")
    if os.path.exists(lite):
        # Where the Python invoke's time goes: the C++ invoke alone (inputs written in place,
        # nothing copied out), beside Interpreter::run, which copies inputs and outputs as the
        # binding once did.
        b = google_benchmark(lite, "BM_LiteInvoke/int8:1/fast:0/|BM_LiteRunCopying/int8:1/",
                             min_time, reps)
        for batch in (1, 64):
            i, r = b[f"BM_LiteInvoke/int8:1/fast:0/batch:{batch}"], b[
                f"BM_LiteRunCopying/int8:1/batch:{batch}"]
            rows.append(row(f"C++ TFLite invoke, MLP int8, batch {batch} (reference kernels)",
                            i["cpu_time"] / 1e3, r["cpu_time"] / 1e3, "us cpu",
                            "Interpreter::run (inputs and outputs copied)"))
    peak = os.path.join(bench, "bm_peak")
    if os.path.exists(peak):
        b = google_benchmark(peak, "BM_GemmShare/m:64/k:784/n:256/|BM_LiteFcShare/kind:[12]/batch:64",
                             min_time, reps)
        g = b["BM_GemmShare/m:64/k:784/n:256/real_time"]
        rows.append(row("MatMul 64x784 by 784x256 (gemm_f32), GFMA per CPU-second of one core's "
                        "FMA peak", g["GFMA/cpu_s"] / g["core_peak_GFMA/s"], 1.0, "share",
                        "one core's peak",
                        note=f"{g['GFMA/cpu_s']:.1f} GFMA/cpu-s of {g['core_peak_GFMA/s']:.1f}, "
                             f"{int(g['threads'])} threads"))
        rows.append(row("same, share of the all-core FMA peak, wall time", g["share_of_all_core_peak"],
                        1.0, "share", f"{int(g['cores'])} cores' peak", goal=0.7,
                        note=f"{g['GFMA/s']:.1f} GFMA/s of {g['all_core_peak_GFMA/s']:.1f}"))
        rows.append(row("same, CPU-time bound (GFMA/cpu-s x threads / all-core peak)",
                        g["cpu_share_of_all_core_peak"], 1.0, "share",
                        f"{int(g['cores'])} cores' peak", goal=0.7,
                        note="what the wall share is with both threads running at once"))
        for kind, name in (("1", "float fused"), ("2", "hybrid int8")):
            r = b.get(f"BM_LiteFcShare/kind:{kind}/batch:64")
            if r:
                rows.append(row(f"TFLite FULLY_CONNECTED 784x256 {name}, batch 64, share of one "
                                "core's peak", r["share_of_core_peak"], 1.0, "share",
                                ("one core's int8 peak (AMX where the kernel runs AMX blocks, else VNNI)"
                                 if kind == "2" else "one core's peak"),
                                note=f"{r['GFMA/s']:.1f} G multiply-adds/s, {r.get('label', '')}"))
    return rows


SECTIONS = {"lite": section_lite, "mlp": section_mlp, "train": section_train, "call": section_call,
            "watch": section_watch, "cpp": section_cpp}


def fmt(v, unit):
    if unit == "share":
        return f"{100 * v:.0f}%"
    return f"{v:.1f} us" if v < 1000 else f"{v / 1000:.2f} ms"


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--build", default=os.path.join(ROOT, "build"))
    p.add_argument("--out", default=None)
    p.add_argument("--only", default=",".join(SECTIONS))
    p.add_argument("--quick", action="store_true")
    args = p.parse_args()
    tfscope_py, oracle_py = pythons()
    rows = []
    for name in args.only.split(","):
        if name not in SECTIONS:
            p.error(f"unknown section {name!r} (sections: {', '.join(SECTIONS)})")
        rows += SECTIONS[name](args, tfscope_py, oracle_py)
    result = {"cpu": cpu_model(), "cores": os.cpu_count(), "rows": rows}
    out = args.out or os.path.join(args.build, "bench", "compare.json")
    os.makedirs(os.path.dirname(out), exist_ok=True)
    with open(out, "w") as fh:
        json.dump(result, fh, indent=2)
        fh.write("\n")
    print(f"CPU: {result['cpu']} ({result['cores']} CPUs); JSON: {out}\n")
    print("| benchmark | tfscope | other | ratio | goal |")
    print("| --- | --- | --- | --- | --- |")
    for r in rows:
        if r["unit"] == "share":
            print(f"| {r['benchmark']} | {fmt(r['tfscope'], 'share')} | {r['note']} | | "
                  f"{'' if r['goal'] is None else fmt(r['goal'], 'share')} |")
            continue
        clock = " (cpu)" if r["unit"].endswith("cpu") else ""
        goal = r["goal_text"] or ("" if r["goal"] is None else f"<= {r['goal']}x")
        if r["other"] is None:
            print(f"| {r['benchmark']} | {fmt(r['tfscope'], r['unit'])}{clock} | {r['note']} | | "
                  f"{goal} |")
            continue
        note = f"; {r['note']}" if r["note"] else ""
        print(f"| {r['benchmark']} | {fmt(r['tfscope'], r['unit'])}{clock} | {r['other_is']}: "
              f"{fmt(r['other'], r['unit'])}{note} | {r['ratio']:.2f}x | {goal} |")


if __name__ == "__main__":
    main()
