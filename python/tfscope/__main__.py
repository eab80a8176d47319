"""`python -m tfscope watch ...`: watch a real TensorFlow program (tfscope.watch);
`python -m tfscope ir FILE.py:FUNC --args SPEC`: a function's compiler IR (HLO text)."""
import sys


def main(argv=None):
    args = sys.argv[1:] if argv is None else list(argv)
    if args[:1] == ["watch"]:
        from .watch._cli import main as watch_main
        return watch_main(args[1:])
    if args[:1] == ["ir"]:
        from ._ir_cli import main as ir_main
        return ir_main(args[1:])
    sys.stderr.write("usage: python -m tfscope watch [options] script.py [args...]\n"
                     "       python -m tfscope ir FILE.py:FUNC --args SPEC [--stage STAGE]\n")
    return 2


if __name__ == "__main__":
    sys.exit(main())
