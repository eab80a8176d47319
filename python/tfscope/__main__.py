"""`python -m tfscope watch ...`: watch a real TensorFlow program (tfscope.watch)."""
import sys


def main(argv=None):
    args = sys.argv[1:] if argv is None else list(argv)
    if args[:1] == ["watch"]:
        from .watch._cli import main as watch_main
        return watch_main(args[1:])
    sys.stderr.write("usage: python -m tfscope watch [options] script.py [args...]\n")
    return 2


if __name__ == "__main__":
    sys.exit(main())
