"""What tfscope watch adds to a real tf.function call (goal: at most 3 us per call).

Run under the Python that has TensorFlow, with tfscope importable:
    PYTHONPATH=<dir holding tfscope> python bench/watch_overhead.py [--calls N] [--json FILE]
A tiny tf.function (x + 1 on a scalar) is called in blocks, in interleaved pairs without and with
watch in one process (the order alternating from pair to pair), after warm-up; the median
per-call time of each side and the median of the pairs' differences are printed (wall and CPU
time), with the spread of those differences. On a busy machine the noise of a real TF call (hundreds of us) hides
a few us, so the watch's own work is also timed alone: TF's Function.__call__ replaced by a no-op,
with and without the watch's wrapper around it. With the self-check on (the default) those calls
are hits on both sides, which the self-check answers from its hit memo (the twin is asked about
one repeat when the report is made). The machine's load average is printed with the figures.
"""
import argparse
import json
import os
import statistics
import time


def _block(f, x, calls):
    """(wall, CPU) seconds per call; CPU time (all threads) is less distorted by a busy machine."""
    t0, c0 = time.perf_counter(), time.process_time()
    for _ in range(calls):
        f(x)
    return (time.perf_counter() - t0) / calls, (time.process_time() - c0) / calls


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--calls", type=int, default=500, help="calls per block")
    p.add_argument("--blocks", type=int, default=41, help="blocks per side")
    p.add_argument("--json", help="write the result to this file")
    p.add_argument("--no-self-check", action="store_true",
                   help="time the watch without its self-check (tfscope's prediction per call)")
    p.add_argument("--keras-epochs", type=int, default=0,
                   help="also time Keras fit epochs (this many per side, alternating)")
    a = p.parse_args()
    load0 = os.getloadavg()

    import tensorflow as tf
    import tfscope.watch as watch

    @tf.function
    def f(x):
        return x + 1.0

    x = tf.constant(1.0)
    sc = not a.no_self_check
    w = watch.Watch(self_check=sc)
    # f's first call (its trace) under the watch, so the self-check's twin traced too; later
    # calls are hits on both sides
    w.start()
    f(x)
    w.stop(release=False)  # the self-check's twin stays for the next start
    for _ in range(3):
        _block(f, x, a.calls)
    plain, watched = [], []
    for i in range(a.blocks):
        # pairs of blocks, the order alternating so that a drift of the machine's load hits
        # both sides alike; the figure is the median of the pairs' differences
        for use in ((False, True) if i % 2 == 0 else (True, False)):
            if use:
                w.start()
                watched.append(_block(f, x, a.calls))
                w.stop(release=False)
            else:
                plain.append(_block(f, x, a.calls))
    mp, mw = statistics.median(b[0] for b in plain), statistics.median(b[0] for b in watched)
    cp, cw = statistics.median(b[1] for b in plain), statistics.median(b[1] for b in watched)
    pair_wall = [w_[0] - p_[0] for p_, w_ in zip(plain, watched)]
    pair_cpu = [w_[1] - p_[1] for p_, w_ in zip(plain, watched)]
    rec = w.function("f")
    assert rec.calls == a.blocks * a.calls + 1 and rec.traced_calls == 1  # then every call a hit
    out = {"tensorflow": tf.__version__, "calls_per_block": a.calls, "blocks": a.blocks,
           "plain_us": mp * 1e6, "watched_us": mw * 1e6, "added_us": (mw - mp) * 1e6,
           "plain_cpu_us": cp * 1e6, "watched_cpu_us": cw * 1e6,
           "added_us_pairs": statistics.median(pair_wall) * 1e6,
           "added_cpu_us": statistics.median(pair_cpu) * 1e6,
           "added_cpu_us_iqr": _iqr(pair_cpu) * 1e6,
           "added_cpu_us_of_minima": (min(b[1] for b in watched) - min(b[1] for b in plain)) * 1e6,
           "goal_us": 3.0, "self_check": sc}
    print("tiny tf.function call, wall: %.2f us plain, %.2f us watched, %+.2f us added "
          "(median of %d interleaved pairs of blocks)"
          % (out["plain_us"], out["watched_us"], out["added_us_pairs"], a.blocks))
    print("tiny tf.function call, CPU:  %.2f us plain, %.2f us watched, %+.2f us added "
          "(interquartile range of the pairs %.2f us; fastest blocks' difference %+.2f us; "
          "goal <= 3 us)" % (out["plain_cpu_us"], out["watched_cpu_us"], out["added_cpu_us"],
                             out["added_cpu_us_iqr"], out["added_cpu_us_of_minima"]))
    if sc:
        compared, agreed, _, _ = w.self_check()
        assert compared == agreed == rec.calls  # tfscope predicted every hit
    out.update(_wrapper_only(tf, watch, f, x, a.calls * 5, a.blocks, False))
    print("watch's own work per call (TF's call replaced by a no-op), without the self-check: "
          "%.2f us (goal <= 3 us)" % out["wrapper_us"])
    if sc:
        w2 = _wrapper_only(tf, watch, f, x, a.calls * 5, a.blocks, True)
        out["wrapper_self_check_us"] = w2["wrapper_us"]
        print("watch's own work per call with the self-check (tfscope's prediction): %.2f us"
              % out["wrapper_self_check_us"])
    if a.keras_epochs:
        out.update(_keras_fit(watch, a.keras_epochs, sc))
        print("Keras fit epoch (64 steps of 32, %d epochs per side, interleaved): %.1f ms plain, "
              "%.1f ms watched, %+.2f%% (median of the pairs' differences, interquartile range "
              "%.2f%%; goal <= 1%%); the noise: epoch times' median absolute deviation %.1f ms "
              "plain, %.1f ms watched, plain's own halves %+.2f%% apart" % (
                  a.keras_epochs, out["fit_plain_ms"], out["fit_watched_ms"],
                  out["fit_added_pct"], out["fit_added_pct_iqr"], out["fit_plain_mad_ms"],
                  out["fit_watched_mad_ms"], out["fit_plain_halves_pct"]))
        print("Keras fit epoch, CPU time (all threads): %.1f ms plain, %.1f ms watched, %+.2f%% "
              "(pairs: %+.2f%%, interquartile range %.2f%%); "
              "%.0f watched tf.function calls per epoch, so at the watch's own per-call work above "
              "the epoch gains %.3f ms (%.3f%% of the plain epoch)" % (
                  out["fit_plain_cpu_ms"], out["fit_watched_cpu_ms"], out["fit_added_cpu_pct"],
                  out["fit_added_cpu_pct_pairs"], out["fit_added_cpu_pct_iqr"],
                  out["fit_watched_calls_per_epoch"],
                  out["fit_watched_calls_per_epoch"] * out.get(
                      "wrapper_self_check_us", out["wrapper_us"]) * 1e-3,
                  out["fit_watched_calls_per_epoch"] * out.get(
                      "wrapper_self_check_us", out["wrapper_us"]) * 1e-3 /
                  out["fit_plain_ms"] * 100.0))
    out["loadavg_start"], out["loadavg_end"] = list(load0), list(os.getloadavg())
    print("load average: %s at the start, %s at the end (%d CPUs)" % (
        " ".join("%.1f" % v for v in load0), " ".join("%.1f" % v for v in os.getloadavg()),
        os.cpu_count() or 0))
    if a.json:
        with open(a.json, "w") as fh:
            json.dump(out, fh, indent=1)


def _iqr(xs):
    q = statistics.quantiles(xs, n=4) if len(xs) >= 2 else [0.0, 0.0, 0.0]
    return q[2] - q[0]


def keras_fit_setup():
    """The small Keras model and data whose fit epoch (64 steps of 32) both overhead benchmarks
    time (this one, and bench/watch_instructions.py in instructions)."""
    import numpy as np
    import keras
    keras.utils.set_random_seed(0)
    model = keras.Sequential([keras.Input((16,)), keras.layers.Dense(32, activation="relu"),
                              keras.layers.Dense(1)])
    model.compile(optimizer="sgd", loss="mse")
    x = np.random.rand(2048, 16).astype(np.float32)
    y = np.random.rand(2048, 1).astype(np.float32)
    return model, x, y


def _keras_fit(watch, epochs, self_check=True):
    """Median wall time of a small model's fit epoch without and with watch, alternating."""
    model, x, y = keras_fit_setup()
    model.fit(x, y, batch_size=32, epochs=4, verbose=0)  # traces and warms up, untimed
    w = watch.Watch(self_check=self_check)
    plain, watched, plain_cpu, watched_cpu = [], [], [], []
    sides = ((plain, plain_cpu, False), (watched, watched_cpu, True))
    for i in range(epochs):
        for side, cpu, use in (sides if i % 2 == 0 else sides[::-1]):
            if use:
                w.start()
            t0, c0 = time.perf_counter(), time.process_time()
            model.fit(x, y, batch_size=32, epochs=1, verbose=0)
            side.append(time.perf_counter() - t0)
            cpu.append(time.process_time() - c0)
            if use:
                w.stop(release=False)
    calls = sum(r.calls for r in w.functions)
    mp, mw = statistics.median(plain), statistics.median(watched)
    cp, cw = statistics.median(plain_cpu), statistics.median(watched_cpu)

    def mad(xs):
        m = statistics.median(xs)
        return statistics.median(abs(v - m) for v in xs)

    # how far two sets of the same (plain) epochs are apart: the noise floor of the comparison
    h1, h2 = statistics.median(plain[0::2]), statistics.median(plain[1::2])
    pairs = [(w_ - p_) / p_ * 100.0 for p_, w_ in zip(plain, watched)]
    pairs_cpu = [(w_ - p_) / p_ * 100.0 for p_, w_ in zip(plain_cpu, watched_cpu)]
    return {"fit_plain_ms": mp * 1e3, "fit_watched_ms": mw * 1e3,
            "fit_added_pct": statistics.median(pairs), "fit_added_pct_iqr": _iqr(pairs),
            "fit_added_cpu_pct_pairs": statistics.median(pairs_cpu),
            "fit_added_cpu_pct_iqr": _iqr(pairs_cpu), "fit_plain_mad_ms": mad(plain) * 1e3,
            "fit_watched_mad_ms": mad(watched) * 1e3,
            "fit_plain_halves_pct": (h2 - h1) / h1 * 100.0, "fit_epochs_per_side": epochs,
            "fit_plain_cpu_ms": cp * 1e3, "fit_watched_cpu_ms": cw * 1e3,
            "fit_added_cpu_pct": (cw - cp) / cp * 100.0,
            "fit_watched_calls_per_epoch": calls / epochs}


def _wrapper_only(tf, watch, f, x, calls, blocks, self_check):
    """watch's per-call work alone: TF's Function.__call__ replaced by a no-op under the watch's
    wrapper, timed against the bare no-op (CPU time, one thread: little noise). With the
    self-check, a fresh function is first traced under the watch for real (TF and the twin trace
    once), so every timed call is a hit the twin is asked about."""
    from tensorflow.python.eager.polymorphic_function import polymorphic_function as pf
    real = pf.Function.__call__

    @tf.function
    def g(x):
        return x + 1.0

    w = watch.Watch(self_check=self_check)
    w.start()
    g(x)
    w.stop(release=False)

    def noop(self, *args, **kwargs):
        return None

    pf.Function.__call__ = noop
    bare, wrapped = [], []
    try:
        for i in range(blocks):  # interleaved pairs, the order alternating
            for use in ((False, True) if i % 2 == 0 else (True, False)):
                if use:
                    w.start()  # wraps the no-op
                    try:
                        wrapped.append(_block(g, x, calls)[1])
                    finally:
                        w.stop(release=False)
                else:
                    bare.append(_block(g, x, calls)[1])
    finally:
        pf.Function.__call__ = real
        w.stop()
    if self_check:  # every timed call compared, and a hit on both sides
        compared, agreed, _, _ = w.self_check()
        assert compared == agreed == blocks * calls + 1
    return {"wrapper_us": statistics.median(b - a for a, b in zip(bare, wrapped)) * 1e6}


if __name__ == "__main__":
    main()
