"""Runs runtime_cases.py under one backend and writes what happened as JSON, or compares two.

    runtime.py --backend tf|tfscope --out RESULTS.json [CASE ...]
    runtime.py --compare TF.json TFSCOPE.json

Per case: one tf.function of the function; for each call, the result (dtype, shape, values) or
the exception (type and message, including the "in user code:" frame listing TF puts before
errors raised in converted code); then the tracing count
and, for the concrete function of the first call, the op counts of the graph and of its function
library (summed over library functions, whose names differ between backends).
"""
import argparse
import collections
import importlib.util
import json
import os
import pathlib
import re
import sys

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))


def load_backend(name):
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    if name == "tf":
        import tensorflow as tf
    else:
        import tfscope as tf
        sys.modules["tensorflow"] = tf  # the corpus files say `import tensorflow as tf`
    return tf


def load_function(case):
    if case.startswith("extra."):
        path, attr = HERE / "runtime_extra.py", case[len("extra."):]
    else:
        path, attr = HERE / "corpus" / (case + ".py"), case
    spec = importlib.util.spec_from_file_location("ag_runtime_" + case.replace(".", "_"), path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # as an import would (TF's lambda conversion looks it up)
    spec.loader.exec_module(module)
    return getattr(module, attr)


def encode(v):
    if v is None or isinstance(v, (bool, int, str)):
        return {"py": v}
    if isinstance(v, float):
        return {"py_float": repr(v)}
    if isinstance(v, (list, tuple)):
        return {type(v).__name__: [encode(x) for x in v]}
    if isinstance(v, dict):
        return {"dict": {str(k): encode(v[k]) for k in sorted(v)}}
    if hasattr(v, "numpy"):
        import numpy as np
        a = np.asarray(v.numpy())
        return {"dtype": v.dtype.name, "shape": list(a.shape),
                "value": [x.decode() if isinstance(x, bytes) else x for x in a.ravel().tolist()]}
    return {"repr": repr(v)}


def error_message(e):
    """The exception's message as str() gives it: errors raised in converted code carry TF's
    "in user code:" listing of the user's frames (files and lines are the same on both sides).
    Object addresses (0x7f...) become 0x0."""
    return re.sub(r"0x[0-9a-fA-F]+", "0x0", str(e))


def op_counts(cf):
    gd = cf.graph.as_graph_def()
    graph = collections.Counter(n.op for n in gd.node)
    library = collections.Counter(n.op for f in gd.library.function for n in f.node_def)
    return {"graph": dict(sorted(graph.items())), "library": dict(sorted(library.items()))}


def run_case(tf, np, case, calls):
    out = {"calls": []}
    try:
        fn = tf.function(load_function(case))
    except Exception as e:  # pylint: disable=broad-except
        return {"load_error": [type(e).__name__, error_message(e)]}
    first_ok = None
    for expr in calls:
        args = eval(expr, {"tf": tf, "np": np})  # pylint: disable=eval-used
        try:
            out["calls"].append({"args": expr, "result": encode(fn(*args))})
            if first_ok is None:
                first_ok = args
        except Exception as e:  # pylint: disable=broad-except
            out["calls"].append({"args": expr, "error": [type(e).__name__, error_message(e)]})
    out["traces"] = fn.experimental_get_tracing_count()
    if first_ok is not None:
        out["ops"] = op_counts(fn.get_concrete_function(*first_ok))
    return out


def run(backend, out_path, selected):
    import numpy as np
    import runtime_cases
    tf = load_backend(backend)
    results = {}
    for case, calls in runtime_cases.CASES.items():
        if selected and case not in selected:
            continue
        results[case] = run_case(tf, np, case, calls)
    with open(out_path, "w") as f:
        json.dump({"backend": backend, "cases": results}, f, indent=1, sort_keys=True)


def library_args_dropped(ops):
    """tfscope's FuncGraph view lists a library function's arguments as Placeholder nodes; a TF
    FunctionDef has them in its signature, never as nodes."""
    if ops is None:
        return None
    return {"graph": ops["graph"],
            "library": {k: v for k, v in ops["library"].items() if k != "Placeholder"}}


def compare(tf_path, ts_path):
    import runtime_cases
    want = json.load(open(tf_path))["cases"]
    got = json.load(open(ts_path))["cases"]
    failed = 0
    for case in want:
        w, g = want[case], got.get(case)
        problems = []
        if g is None:
            problems.append("not run by tfscope")
        else:
            for key in ("load_error", "calls", "traces"):
                if w.get(key) != g.get(key):
                    problems.append("%s: TF %s, tfscope %s" % (key, json.dumps(w.get(key)),
                                                              json.dumps(g.get(key))))
            wo, go = library_args_dropped(w.get("ops")), library_args_dropped(g.get("ops"))
            if wo != go:
                problems.append("ops: TF %s, tfscope %s" % (json.dumps(wo), json.dumps(go)))
        if problems:
            failed += 1
            print("FAIL  %s" % case)
            for p in problems:
                print("      " + p)
        else:
            print("ok    %-28s %d call(s), %s trace(s)" % (case, len(w.get("calls", [])),
                                                         w.get("traces")))
    print("%d/%d runtime cases match TF" % (len(want) - failed, len(want)))
    return 1 if failed else 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--backend", choices=["tf", "tfscope"])
    ap.add_argument("--out")
    ap.add_argument("--compare", nargs=2, metavar=("TF_JSON", "TFSCOPE_JSON"))
    ap.add_argument("cases", nargs="*")
    args = ap.parse_args()
    if args.compare:
        return compare(*args.compare)
    run(args.backend, args.out, set(args.cases))
    return 0


if __name__ == "__main__":
    sys.exit(main())
