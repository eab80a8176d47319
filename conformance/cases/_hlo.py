"""The comparison form of HLO text for the hlo_* cases, written independently of tfscope's C++
hlo::normalize (python/tests/test_compiler_ir.py checks the two agree): source_file/source_line
dropped from metadata (TF's point into its own ops.py), the function uid in the names of
computations made from functions (the module's, If branches', While bodies') replaced, and every
`name.N` renumbered per name in order of first appearance (XLA's suffixes come from its name
uniquer). Cases import it by path; it is not a case (its name starts with `_`)."""
import re

_SOURCE = re.compile(r' source_file="[^"]*" source_line=\d+')
_FUNCTION = re.compile(r"\b([A-Za-z]\w*?)_\d+((?:_const_\d+)?)__\.\d+")
_IDENT = re.compile(r"([A-Za-z_][A-Za-z0-9_\-]*)\.(\d+)\b")


def normalize(text):
    text = _FUNCTION.sub(r"\1_N\2__", _SOURCE.sub("", text))
    seen = {}

    def renumber(m):
        per_name = seen.setdefault(m.group(1), {})
        k = per_name.setdefault(m.group(2), len(per_name) + 1)
        return "%s.%d" % (m.group(1), k)

    return _IDENT.sub(renumber, text)


def ir(fn, *args, stage="hlo"):
    """fn's compiler IR for args at `stage`, normalized."""
    return normalize(fn.experimental_get_compiler_ir(*args)(stage=stage))
