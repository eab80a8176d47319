"""The minimal normalisation applied to every recorded text (messages, stdout/stderr lines, reprs).

Only what differs from run to run, or between two processes running the same case, is rewritten:

1. the absolute path of conformance/cases/   -> "<cases>"
2. hexadecimal addresses 0x7f...              -> "0x<addr>"        (reprs of functions, objects)
3. Python ids at the start of a line followed by ":" (the "Captures:" block of a verbose
   signature prints `  140234...: TensorSpec(...)`)  -> "<id>:"
4. uid suffixes of TF function names: __inference_NAME_123, __forward_NAME_123, __backward_NAME_123,
   and the same inside {{function_node ...}} -> NAME_<uid>

5. frames of the runner itself inside messages (TF's "Detected at node ... defined at" lists the
   whole Python stack at trace time): `File ".../conformance/worker.py", line 123, in call` ->
   `File "<runner>", line <n>, in call`; their line numbers move whenever the runner is edited.

Nothing else (line numbers, op names, numbers) is touched: they are part of what must conform.
"""
import os
import re

CASES_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "cases")

_ADDR = re.compile(r"0x[0-9a-fA-F]{4,}")
_ID_LINE = re.compile(r"^(\s*)\d{6,}:", re.M)
_RUNNER_FRAME = re.compile(r'File "[^"]*/conformance/(?:worker|runner)\.py", line \d+')
_UID = re.compile(r"\b(__inference_|__forward_|__backward_)(\w*?)_\d+\b")


def text(s):
    if not isinstance(s, str):
        return s
    s = s.replace(CASES_DIR + os.sep, "<cases>/").replace(CASES_DIR, "<cases>")
    s = _ADDR.sub("0x<addr>", s)
    s = _ID_LINE.sub(r"\1<id>:", s)
    s = _UID.sub(r"\1\2_<uid>", s)
    s = _RUNNER_FRAME.sub('File "<runner>", line <n>', s)
    return s
