"""`python -m tfscope profile FILE.py:FUNC --args SPEC [--chrome-trace FILE] [--json FILE]`: one
call of a function (a tf.function, or a plain Python function made one) with the executor's time
per op, printed as a table of ops by total time; SPEC as for `tfscope ir` (f32[2,3],i32[],2).
With --warmup N the function is first called N times (so the profiled call is a cache hit)."""
import argparse
import json
import sys


def main(argv):
    import tfscope as tf
    from ._function import Function
    from ._ir_cli import _one_line, load_function, parse_args_spec

    ap = argparse.ArgumentParser(prog="python -m tfscope profile", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("target", help="FILE.py:FUNC")
    ap.add_argument("--args", default="", help="the arguments, e.g. 'f32[2,3],f32[3,4],2'")
    ap.add_argument("--warmup", type=int, default=0, help="calls before the profiled one")
    ap.add_argument("--chrome-trace", metavar="FILE",
                    help="write the ops as spans (Perfetto, chrome://tracing) to FILE")
    ap.add_argument("--json", metavar="FILE", help="write the profile as JSON to FILE")
    opts = ap.parse_args(argv)
    try:
        fn = load_function(opts.target, "profile")
        if not isinstance(fn, Function):
            fn = tf.function(fn)
        args = parse_args_spec(opts.args, tf, "profile")
        for _ in range(max(0, opts.warmup)):
            fn(*args)
        p = tf.profile(fn, *args)
        if opts.chrome_trace:
            p.write_chrome_trace(opts.chrome_trace)
        if opts.json:
            with open(opts.json, "w") as f:
                json.dump(p.to_dict(), f, indent=1)
                f.write("\n")
    except Exception as e:  # noqa: BLE001 - every failure is a one-line error with its type
        line = _one_line(str(e))
        if not line.startswith(type(e).__name__ + ": "):
            line = "%s: %s" % (type(e).__name__, line)
        sys.stderr.write("tfscope: error: %s\n" % line)
        return 1
    sys.stdout.write(p.table())
    return 0
