"""Counting the instructions of one part of a Python process with valgrind's callgrind, for the
bench scripts that measure what the machine's load would blur in a timing
(python_instructions.py, watch_instructions.py).

The driver starts `script --child MODE --calls N --dir D` under callgrind with instrumentation off.
The child sets itself up, then brackets the part to count with `measured(D)`; the driver switches
instrumentation on (callgrind_control) for exactly that part, with the garbage collector off in
it (a collection landing in one side by chance would move its count)."""
import contextlib
import gc
import os
import subprocess
import sys
import tempfile
import time


def _touch(d, name):
    open(os.path.join(d, name), "w").close()


def _await(d, name, proc=None):
    path = os.path.join(d, name)
    while not os.path.exists(path):
        if proc is not None and proc.poll() is not None:
            raise SystemExit("the measured process exited early (%d)" % proc.returncode)
        time.sleep(0.01 if proc is None else 0.05)


@contextlib.contextmanager
def measured(d):
    """In the child: the block whose instructions are counted."""
    gc.collect()
    gc.disable()
    _touch(d, "ready")
    _await(d, "go")
    try:
        yield
    finally:
        _touch(d, "done")
        _await(d, "end")
        gc.enable()


def totals(path):
    """The instruction total of one callgrind output file (0 when it has none)."""
    with open(path) as f:
        return next((int(line.split()[1]) for line in f if line.startswith("totals:")), 0)


def run(script, mode, calls, separate_threads=False, keep=None):
    """Runs `script`'s child side `mode` under callgrind and returns {output file name: its
    instruction total} (one file, "callgrind.out", or one per thread, "callgrind.out-01" the
    main thread). `keep(directory)`, if given, is called before the files go."""
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "callgrind.out")
        cmd = ["valgrind", "--tool=callgrind", "--instr-atstart=no"]
        if separate_threads:
            cmd.append("--separate-threads=yes")
        cmd += ["--callgrind-out-file=" + out, sys.executable, os.path.abspath(script),
                "--child", mode, "--calls", str(calls), "--dir", d]
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _await(d, "ready", proc)
        subprocess.run(["callgrind_control", "-i", "on", str(proc.pid)], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _touch(d, "go")
        _await(d, "done", proc)
        subprocess.run(["callgrind_control", "-i", "off", str(proc.pid)], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _touch(d, "end")
        proc.wait()
        if keep:
            keep(d)
        found = {name: totals(os.path.join(d, name)) for name in sorted(os.listdir(d))
                 if name.startswith("callgrind.out")}
    if not found:
        raise SystemExit("callgrind wrote no totals")
    return found
