"""tfscope.lint: the rules of `tfscope lint` from Python.

    import tfscope.lint as lint
    for f in lint.lint_paths(["train.py"]):
        print(f)                      # train.py:12:5: TFS102 ...

Findings are joined with what actually retraced by `confirm(findings, fn)`, where `fn` is a
tfscope tf.function (its ledger), its `ledger_json()` text, or a list of either; the command's
`--ledger report.json` does the same from a file.
"""
import dataclasses as _dc
import json as _json

from . import _core

__all__ = ["Finding", "Rule", "rules", "lint_source", "lint_paths", "confirm", "report"]


@_dc.dataclass(frozen=True)
class Rule:
    code: str
    name: str
    summary: str
    hint: str


@_dc.dataclass(frozen=True)
class Finding:
    path: str
    line: int
    col: int
    code: str
    message: str
    hint: str = ""
    # The tf.function the finding is about (its name and the lines of its def), "" / 0 if none.
    function: str = ""
    function_first_line: int = 0
    function_last_line: int = 0
    confirmed: bool = False  # by confirm(): a run traced again for this reason
    evidence: str = ""

    def __str__(self):
        return f"{self.path}:{self.line}:{self.col}: {self.code} {self.message}"


def rules():
    """Every rule, in code order (TFS000 is a file's syntax error)."""
    return [Rule(**r) for r in _core._lint_rules()]


def _codes(name, codes):
    if codes is None:
        return []
    if isinstance(codes, str):
        codes = [codes]
    out = []
    for c in codes:
        if not isinstance(c, str):
            raise TypeError(f"{name} must be rule codes (str), got {type(c).__name__}")
        out.append(c)
    return out


def lint_source(source, path="<string>", *, select=None, ignore=None, unroll_threshold=100):
    """The findings of one module's source text (str or UTF-8 bytes), as `tfscope lint` gives
    them for a file at `path`: `# noqa` comments and the selection applied."""
    if isinstance(source, (bytes, bytearray)):
        source = bytes(source).decode("utf-8", errors="replace")
    if not isinstance(source, str):
        raise TypeError(f"source must be str or bytes, got {type(source).__name__}")
    if not isinstance(unroll_threshold, int) or unroll_threshold < 1:
        raise ValueError(f"unroll_threshold must be a positive int, got {unroll_threshold!r}")
    found = _core._lint_source(source, str(path), _codes("select", select),
                               _codes("ignore", ignore), unroll_threshold)
    return [Finding(**f) for f in found]


def lint_paths(paths, *, select=None, ignore=None, exclude=None, unroll_threshold=100):
    """The findings of every Python file under `paths` (files, or directories searched for
    *.py), in path order. A missing path raises ValueError, as the command exits 2."""
    if isinstance(paths, str):
        paths = [paths]
    files = _core._lint_collect_files([str(p) for p in paths], _codes("exclude", exclude))
    out = []
    for file in files:
        with open(file, "rb") as fh:
            out.extend(lint_source(fh.read(), file, select=select, ignore=ignore,
                                   unroll_threshold=unroll_threshold))
    return out


def _ledger_text(ledger):
    if isinstance(ledger, str):
        return ledger
    if hasattr(ledger, "ledger_json"):
        return ledger.ledger_json()
    if isinstance(ledger, (list, tuple)):
        return _json.dumps([_json.loads(_ledger_text(x)) for x in ledger])
    raise TypeError("ledger must be a tfscope tf.function, its ledger_json() text, or a list of "
                    f"them, got {type(ledger).__name__}")


def confirm(findings, ledger):
    """The findings with `confirmed`/`evidence` set where the ledger shows a trace they explain."""
    plain = [_dc.asdict(f) for f in findings]
    return [Finding(**f) for f in _core._lint_confirm(plain, _ledger_text(ledger))]


def report(findings, format="text", files_checked=None):
    """The command's report of `findings`: "text", "json" or "sarif" (SARIF 2.1.0)."""
    plain = [_dc.asdict(f) for f in findings]
    n = len({f.path for f in findings}) if files_checked is None else int(files_checked)
    return _core._lint_report(plain, format, n)
