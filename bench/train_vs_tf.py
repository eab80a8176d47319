"""The MLP's training step (784-256-128-10: forward, GradientTape backward, SGD by assign_sub) as
a tf.function from Python, timed under tfscope and under TF 2.21 in one run; writes JSON.

    python bench/train_vs_tf.py [OUT.json] [--quick]

The driver is bench/compare.py's `train` section (both backends alternated, best of each).
"""
import argparse
import json
import os
import platform
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import compare  # noqa: E402


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("out", nargs="?", default="train_vs_tf.json")
    p.add_argument("--quick", action="store_true")
    args = p.parse_args()
    tfscope_py, oracle_py = compare.pythons()
    rows = compare.section_train(args, tfscope_py, oracle_py)
    load = os.getloadavg()
    result = {"machine": platform.machine(), "cores": os.cpu_count(),
              "load_average": [round(x, 2) for x in load], "rows": rows}
    with open(args.out, "w") as fh:
        json.dump(result, fh, indent=2)
    for r in rows:
        print(f"{r['benchmark']}: tfscope {r['tfscope']:.1f} us, TF {r['other']:.1f} us, "
              f"ratio {r['ratio']} (goal <= {r['goal']})")
    print(f"load average {load[0]:.2f}; JSON: {args.out}")


if __name__ == "__main__":
    main()
