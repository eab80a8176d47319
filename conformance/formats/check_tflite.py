"""TFLite conformance: tfscope's reader agrees with LiteRT on TF-converted models, LiteRT runs a
model tfscope wrote, and TF 2.21's converter output is reproducible.

  /work/oracle-venv/bin/python conformance/formats/check_tflite.py build-fmt/tests/lite/lite_tool

Checks:
  1. re-converting the fixture MLP (make_fixtures.py) gives the committed bytes (the converter is
     deterministic, so the fixtures are TF 2.21's exact output);
  2. for each fixture, every tensor's name, type, shape and quantization (scales, zero points,
     quantized dimension) and every operator in tfscope's dump match ai_edge_litert's Interpreter;
  3. LiteRT loads the demo model written with tfscope's writer helpers and computes
     softmax(relu(x W^T + b) + c) within 1e-6 of numpy (reference kernels, no delegates).
"""
import os
import re
import subprocess
import sys
import tempfile

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import numpy as np
from ai_edge_litert.interpreter import Interpreter, OpResolverType

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.join(HERE, "fixtures")
TOOL = sys.argv[1] if len(sys.argv) > 1 else "build-fmt/tests/lite/lite_tool"
TENSOR_RE = re.compile(r'^  tensor (\d+) "(.*)" (\w+) \[([-\d, ]*)\](.*)$')
OP_RE = re.compile(r"^  op (\d+) (\w+) v(\d+) inputs \[([-\d, ]*)\] outputs \[([-\d, ]*)\]")
NP_TYPES = {"FLOAT32": np.float32, "INT8": np.int8, "INT32": np.int32, "INT64": np.int64,
            "UINT8": np.uint8, "BOOL": np.bool_, "INT16": np.int16, "FLOAT16": np.float16}


def ints(s):
    return [int(x) for x in s.split(",") if x.strip()]


def dump(path):
    return subprocess.run([TOOL, "dump", path], check=True, capture_output=True, text=True).stdout


def interpreter(path):
    it = Interpreter(model_path=path,
                     experimental_op_resolver_type=OpResolverType.BUILTIN_REF)
    it.allocate_tensors()
    return it


def compare_with_litert(path):
    problems = []
    text = dump(path)
    it = interpreter(path)
    details = {d["index"]: d for d in it.get_tensor_details()}
    for line in text.splitlines():
        m = TENSOR_RE.match(line)
        if not m:
            continue
        idx, name, typ, shape, rest = int(m[1]), m[2], m[3], ints(m[4]), m[5]
        d = details.get(idx)
        if d is None:
            problems.append(f"tensor {idx} unknown to LiteRT")
            continue
        if (name, NP_TYPES.get(typ), shape) != (d["name"], d["dtype"], list(d["shape"])):
            problems.append(f"tensor {idx}: tfscope {name} {typ} {shape}, LiteRT {d['name']} "
                            f"{d['dtype']} {list(d['shape'])}")
        q = d["quantization_parameters"]
        if len(q["scales"]):
            want = (f"quant{{scale=[{', '.join('%.9g' % s for s in q['scales'][:8])}"
                    + (f", ... ({len(q['scales'])} values)" if len(q["scales"]) > 8 else "") + "]")
            zps = f"zero_point=[{', '.join(str(z) for z in q['zero_points'][:8])}"
            if want not in rest or zps not in rest or \
                    f"quantized_dimension={q['quantized_dimension']}" not in rest:
                problems.append(f"tensor {idx}: quantization differs: {rest.strip()} vs {q}")
    ops = it._get_ops_details()
    seen = 0
    for line in text.splitlines():
        m = OP_RE.match(line)
        if not m:
            continue
        seen += 1
        o = ops[int(m[1])]
        if (m[2], ints(m[4]), ints(m[5])) != (o["op_name"], list(o["inputs"]), list(o["outputs"])):
            problems.append(f"op {m[1]}: tfscope {m[2]} {m[4]} -> {m[5]}, LiteRT {o['op_name']} "
                            f"{list(o['inputs'])} -> {list(o['outputs'])}")
    if seen != len(ops):
        problems.append(f"tfscope lists {seen} operators, LiteRT {len(ops)}")
    return problems


def check_demo(tmp):
    path = os.path.join(tmp, "demo.tflite")
    subprocess.run([TOOL, "write-demo", path], check=True)
    it = interpreter(path)
    w = np.array([[(r + 1) * 0.25 - c * 0.125 for c in range(4)] for r in range(3)], np.float32)
    b = np.array([0.5 - r for r in range(3)], np.float32)
    c = np.array([0.1, 0.2, 0.3], np.float32)
    worst = 0.0
    for x in np.random.default_rng(0).normal(size=(20, 1, 4)).astype(np.float32):
        it.set_tensor(it.get_input_details()[0]["index"], x)
        it.invoke()
        y = it.get_tensor(it.get_output_details()[0]["index"])
        z = np.maximum(x @ w.T + b, 0) + c
        want = np.exp(z - z.max()) / np.exp(z - z.max()).sum()
        worst = max(worst, float(np.max(np.abs(y - want) / np.maximum(np.abs(want), 1e-30))))
    runner = it.get_signature_runner("serving_default")
    out = runner(x=np.zeros((1, 4), np.float32))
    return worst, sorted(out)


def main():
    failures = 0

    def report(ok, what):
        nonlocal failures
        print(f"{'ok  ' if ok else 'FAIL'} {what}")
        failures += not ok

    with tempfile.TemporaryDirectory() as tmp:
        sys.path.insert(0, HERE)
        import make_fixtures
        mlp = make_fixtures.Mlp()
        for name, quantize in (("mlp_float.tflite", False), ("mlp_dynamic.tflite", True)):
            path = os.path.join(tmp, name)
            make_fixtures.write_tflite(path, mlp, quantize)
            with open(path, "rb") as a, open(os.path.join(FIXTURES, name), "rb") as b:
                report(a.read() == b.read(), f"{name}: re-conversion reproduces the fixture bytes")
        for name in ("mlp_float.tflite", "mlp_dynamic.tflite"):
            problems = compare_with_litert(os.path.join(FIXTURES, name))
            for p in problems:
                print("     ", p)
            report(not problems, f"{name}: tfscope's dump agrees with LiteRT on every tensor and op")
        worst, outputs = check_demo(tmp)
        report(worst < 1e-6, f"demo model written by tfscope runs in LiteRT (max rel err {worst:.2e})")
        report(outputs == ["y"], f"demo model's signature runner returns {outputs}")
    print("all tflite checks passed" if not failures else f"{failures} tflite checks FAILED")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
