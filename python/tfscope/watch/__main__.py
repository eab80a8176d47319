"""`python -m tfscope.watch script.py [args]`: the same as `python -m tfscope watch`."""
import sys

from ._cli import main

if __name__ == "__main__":
    sys.exit(main())
