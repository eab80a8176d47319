"""What tfscope watch adds to a real tf.function call, in instructions (valgrind's callgrind):
a measure the machine's load does not move, beside bench/watch_overhead.py's times.

Run under the Python that has TensorFlow, with tfscope importable (valgrind installed):
    PYTHONPATH=<dir holding tfscope> python bench/watch_instructions.py [--calls N] [--fit]
Each side runs in its own process under callgrind with instrumentation off; after TF's import
and warm-up the driver switches it on (callgrind_control) for exactly the timed part, with
Python's garbage collector off in it (a full collection of TF's objects would land in one side
by chance). Sides: `bare` (TF's Function.__call__ replaced by a no-op), `watch` (the watch's
wrapper around that no-op, self-check off) and `self-check` (on, the default); their
differences are the watch's own work per call. With --fit: one Keras `fit` epoch (64 steps of
32) plain, watched, and plain again (all threads' instructions, and the calling thread's: the
watch works on the thread that calls the functions, while TF's pool threads' counts move with the
scheduling).
With --real N: N calls of TF's own tiny call, plain and watched with the
self-check, the calling thread's instructions (what the watch adds to a real call, where its code
runs between TF's and so at TF's instructions-per-second, not at a tight loop's).
"""
import argparse
import json
import os
import shutil

import _callgrind  # this folder, the scripts' own


def _child(mode, calls, d):
    import tensorflow as tf
    import tfscope.watch as watch
    from tensorflow.python.eager.polymorphic_function import polymorphic_function as pf

    if mode.startswith("fit"):
        from watch_overhead import keras_fit_setup  # this folder, the script's own
        model, x, y = keras_fit_setup()
        w = watch.Watch(self_check=True)
        if mode == "fit-watched":
            w.start()
        model.fit(x, y, batch_size=32, epochs=2, verbose=0)

        def run():
            model.fit(x, y, batch_size=32, epochs=1, verbose=0)
    else:
        @tf.function
        def g(x):
            return x + 1.0

        x = tf.constant(1.0)
        w = watch.Watch(self_check=mode in ("self-check", "real-watched"))
        w.start()
        g(x)  # the trace, under the watch (the self-check's twin traces too)
        w.stop(release=False)
        if not mode.startswith("real"):
            pf.Function.__call__ = lambda self, *a, **k: None
        if mode not in ("bare", "real-plain"):
            w.start()  # wraps the no-op (real-watched: TF's own call)
        for _ in range(200):
            g(x)

        def run():
            for _ in range(calls):
                g(x)
    with _callgrind.measured(d):
        run()


def _measure(mode, calls):
    """(all threads' instructions, the calling thread's) of the measured part of one side."""
    def keep(d):
        folder = os.environ.get("WATCH_INSTRUCTIONS_KEEP")  # a folder for callgrind_annotate
        if folder:
            os.makedirs(folder, exist_ok=True)
            for name in os.listdir(d):
                if name.startswith("callgrind.out-"):
                    shutil.copy(os.path.join(d, name), os.path.join(folder, "%s.%s" % (mode, name)))

    found = _callgrind.run(__file__, mode, calls, separate_threads=True, keep=keep)
    # one file per thread (callgrind.out-01 is the main thread, which calls the functions)
    threads = {k: v for k, v in found.items() if k.startswith("callgrind.out-")}
    if "callgrind.out-01" not in threads:
        raise SystemExit("callgrind wrote no totals")
    return sum(threads.values()), threads["callgrind.out-01"]


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--calls", type=int, default=2000, help="calls per side (0: none)")
    p.add_argument("--fit", action="store_true", help="also a Keras fit epoch, plain and watched")
    p.add_argument("--real", type=int, default=0, metavar="N",
                   help="also N real TF calls per side, plain and watched (calling thread)")
    p.add_argument("--json", help="write the result to this file")
    p.add_argument("--child", help=argparse.SUPPRESS)
    p.add_argument("--dir", help=argparse.SUPPRESS)
    a = p.parse_args()
    if a.child:
        return _child(a.child, a.calls, a.dir)
    out = {}
    if a.calls:
        per = {m: _measure(m, a.calls)[0] / a.calls for m in ("bare", "watch", "self-check")}
        out.update({"calls": a.calls, "bare_instructions": per["bare"],
                    "watch_instructions": per["watch"] - per["bare"],
                    "self_check_instructions": per["self-check"] - per["bare"]})
        print("watch's own work per call: %.0f instructions without the self-check, %.0f with "
              "it (TF's call replaced by a no-op of %.0f; %d calls each)" % (
                  out["watch_instructions"], out["self_check_instructions"], per["bare"],
                  a.calls))
    if a.real:
        # TF's own call, plain and watched with the self-check: the calling thread's difference
        # is what the watch adds to a real call (TF's pool threads are left out)
        plain, watched = (_measure(m, a.real)[1] / a.real for m in ("real-plain", "real-watched"))
        out.update({"real_calls": a.real, "real_plain_instructions": plain,
                    "real_added_instructions": watched - plain})
        print("a real tiny tf.function call, calling thread: %.0f instructions plain, %.0f "
              "watched with the self-check (%+.0f per call; %d calls each)" % (
                  plain, watched, watched - plain, a.real))
    if a.fit:
        # plain twice (before and after the watched side): how far two plain epochs are apart is
        # the error bar of the comparison (TF's threads spin and wait by the scheduling)
        p1, wd, p2 = _measure("fit-plain", 0), _measure("fit-watched", 0), _measure("fit-plain", 0)
        for i, which in ((0, "all threads"), (1, "calling thread")):
            plain = (p1[i] + p2[i]) / 2.0
            key = "fit" if i == 0 else "fit_main_thread"
            out.update({key + "_plain_instructions": [p1[i], p2[i]],
                        key + "_watched_instructions": wd[i],
                        key + "_added_pct": (wd[i] - plain) / plain * 100.0,
                        key + "_plain_spread_pct": abs(p2[i] - p1[i]) / plain * 100.0})
            print("Keras fit epoch, %s: %.1f and %.1f M instructions plain, %.1f M watched "
                  "(%+.2f%% of the plain mean; the two plain runs %.2f%% apart; goal <= 1%%)" % (
                      which, p1[i] / 1e6, p2[i] / 1e6, wd[i] / 1e6, out[key + "_added_pct"],
                      out[key + "_plain_spread_pct"]))
    if a.json:
        with open(a.json, "w") as fh:
            json.dump(out, fh, indent=1)


if __name__ == "__main__":
    main()
