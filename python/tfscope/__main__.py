"""The tfscope command, as installed with the package: `python -m tfscope ...` and the `tfscope`
console script both run the binary the wheel carries (tfscope/_bin/tfscope), with every
subcommand (demo, autograph, inspect, convert, lint); three more are Python's own:
`watch` watches a real TensorFlow program (tfscope.watch) and `ir FILE.py:FUNC --args SPEC`
prints a function's compiler IR (HLO text), `profile FILE.py:FUNC --args SPEC` one call's time per
op (tfscope.profile)."""
import os
import sys


def _binary():
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), "_bin", "tfscope")


def main(argv=None):
    args = sys.argv[1:] if argv is None else list(argv)
    if args[:1] == ["watch"]:
        from .watch._cli import main as watch_main
        return watch_main(args[1:])
    if args[:1] == ["ir"]:
        from ._ir_cli import main as ir_main
        return ir_main(args[1:])
    if args[:1] == ["profile"]:
        from ._profile_cli import main as profile_main
        return profile_main(args[1:])
    exe = _binary()
    if not os.access(exe, os.X_OK):
        sys.stderr.write("tfscope: error: [cli] this installation has no tfscope command (%s)\n"
                         % exe)
        return 1
    sys.stdout.flush()
    os.execv(exe, [exe] + args)


if __name__ == "__main__":
    sys.exit(main())
