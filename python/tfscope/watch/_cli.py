"""`python -m tfscope watch [options] script.py [args...]` (also `python -m tfscope.watch`)."""
import argparse
import os
import runpy
import sys

USAGE = "python -m tfscope watch [options] (script.py | -m module) [args...]"
CASES_DIR = "tfscope-watch-cases"


def _parser():
    p = argparse.ArgumentParser(
        prog="tfscope watch", usage=USAGE,
        description="Runs a TensorFlow program and explains every trace of its tf.functions.")
    p.add_argument("--json", metavar="FILE", help="write the report as JSON to FILE")
    p.add_argument("--html", metavar="FILE",
                   help="write one self-contained page: per function its calls' timeline, its "
                        "traces' reasons and each concrete function's graph drawn")
    p.add_argument("--no-self-check", action="store_true",
                   help="do not have tfscope's own tracing rules predict every call")
    p.add_argument("--self-check-cases", metavar="DIR", default=CASES_DIR,
                   help="where each self-check disagreement is written as a conformance case "
                        "(default: %(default)s, only when there is one)")
    p.add_argument("--chrome-trace", metavar="FILE",
                   help="write calls and traces as spans (Perfetto, chrome://tracing) to FILE")
    p.add_argument("--max-traces", metavar="N", type=int,
                   help="per function: the trace past N raises RetraceError naming its reason "
                        "(default: $TFSCOPE_MAX_TRACES)")
    p.add_argument("--fail-on-retrace", action="store_true",
                   help="any trace after a function's first call raises RetraceError")
    p.add_argument("--quiet", action="store_true", help="no text summary at exit")
    p.add_argument("-m", dest="module", metavar="MODULE", help="run a module, as python -m does")
    p.add_argument("target", nargs=argparse.REMAINDER, help="script.py [args...]")
    return p


def main(argv=None):
    argv = sys.argv[1:] if argv is None else list(argv)
    p = _parser()
    opts = p.parse_args(argv)
    if opts.module is None and not opts.target:
        p.error("give the program to watch: script.py or -m module")
    if opts.max_traces is not None and opts.max_traces < 1:
        p.error("--max-traces must be at least 1, not %d" % opts.max_traces)
    if opts.module is None and not os.path.isfile(opts.target[0]):
        p.error("can't open file %r: No such file or directory" % opts.target[0])
    from . import Watch
    auto = sys.modules.get(__package__ + "._autostart")
    if auto is not None:  # TFSCOPE_WATCH=1 as well: this command's watch reports
        auto.cancel()
    try:
        w = Watch(max_traces=opts.max_traces, fail_on_retrace=opts.fail_on_retrace,
                  budget_source=None if opts.max_traces is None else
                  "--max-traces %d" % opts.max_traces, self_check=not opts.no_self_check)
    except ValueError as e:
        p.error(str(e))
    code = 0
    saved_argv, saved_path0 = sys.argv, sys.path[0] if sys.path else None
    w.start()
    try:
        if opts.module is not None:
            sys.argv = [opts.module] + opts.target
            runpy.run_module(opts.module, run_name="__main__", alter_sys=True)
        else:
            script = opts.target[0]
            sys.argv = list(opts.target)
            sys.path[0] = os.path.dirname(os.path.abspath(script))
            runpy.run_path(script, run_name="__main__")
    except SystemExit as e:
        code = e.code
    finally:
        w.stop()
        sys.argv = saved_argv
        if saved_path0 is not None:
            sys.path[0] = saved_path0
        _finish(w, opts)
    return code


def _finish(w, opts):
    finish(w, opts.json, opts.html, opts.chrome_trace, opts.self_check_cases, opts.quiet)


def finish(w, json_path, html_path, chrome_path, cases_dir, quiet):
    """The report files and the text summary, at the end of a watched program."""
    if cases_dir and w.self_check()[3]:
        w.write_cases(cases_dir)
    if json_path:
        w.write_json(json_path)
    if html_path:
        w.write_html(html_path)
    if chrome_path:
        w.write_chrome_trace(chrome_path)
    if not quiet:
        sys.stdout.flush()
        sys.stderr.write(w.summary())
        sys.stderr.flush()
