"""Every public callable tfscope exports that TF 2.21 also has takes TF's parameters: the same
names in the same order, of the same kinds, with the same defaults. TF's signatures were recorded
from TF 2.21 by scripts/record_tf_signatures.py into tf_signatures.json (rerun it when tfscope
exports more)."""
import inspect
import json
import os

import pytest

import tfscope as tf

with open(os.path.join(os.path.dirname(__file__), "tf_signatures.json")) as _f:
    TF_SIGNATURES = json.load(_f)

# Defaults compared by repr: what prints the same in both (None, numbers, strings, dtypes).
_PLAIN = (type(None), bool, int, float, str)


def _resolve(path):
    obj = tf
    for part in path.split("."):
        obj = getattr(obj, part)
    return obj


def _same_default(tf_default, ours):
    if tf_default is None:
        return ours is inspect.Parameter.empty
    if ours is inspect.Parameter.empty:
        return False
    if tf_default["repr"].startswith("<"):
        return True  # an object default (a stream, a sentinel): present is what can be compared
    if isinstance(ours, _PLAIN) or isinstance(ours, tf.DType):
        return repr(ours) == tf_default["repr"]
    return True  # an object default (a stream, a sentinel): present is what can be compared


def _mismatches(path, tf_params):
    try:
        obj = _resolve(path)
    except AttributeError:
        return []  # no longer exported: nothing to compare
    params = list(inspect.signature(obj).parameters.values())
    ours = {p.name: p for p in params}
    problems = []
    tf_names = [name for name, _, _ in tf_params]
    for name, kind, default in tf_params:
        p = ours.get(name)
        if p is None:
            problems.append(f"{path}: lacks TF's parameter {name!r}")
            continue
        if p.kind.name != kind:
            problems.append(f"{path}: {name!r} is {p.kind.name}, TF's is {kind}")
        if not _same_default(default, p.default):
            want = "no default" if default is None else "default " + default["repr"]
            problems.append(f"{path}: {name!r} has {p.default!r}, TF's has {want}")
    order = [p.name for p in params if p.name in tf_names]
    if order != [n for n in tf_names if n in ours]:
        problems.append(f"{path}: parameters in order {order}, TF's order is {tf_names}")
    tf_has_var_kw = any(kind == "VAR_KEYWORD" for _, kind, _ in tf_params)
    for p in params:
        # Keyword-only extras are tfscope's extensions (tf.function's max_cache_entries).
        if p.name not in tf_names and not tf_has_var_kw and p.kind.name != "KEYWORD_ONLY":
            problems.append(f"{path}: parameter {p.name!r} that TF's lacks")
    return problems


def test_recorded_signatures_cover_the_public_api():
    # The record is not empty and holds the everyday wrappers.
    for path in ("add", "math.reduce_sum", "nn.softmax", "gather", "zeros_like", "function"):
        assert path in TF_SIGNATURES, path


# Known gaps, each with why it is still open. A gap that closes fails the test (strict xfail):
# then take it off this list. (None open: the OpErrors, tf.data, tf.strings, tf.debugging and
# tf.lite ones closed in issue 16.)
KNOWN_GAPS = {}


def _gap(path):
    return KNOWN_GAPS.get(path)


@pytest.mark.parametrize("path", [
    pytest.param(p, marks=pytest.mark.xfail(reason=_gap(p), strict=True)) if _gap(p) else p
    for p in sorted(TF_SIGNATURES)])
def test_signature_matches_tf(path):
    problems = _mismatches(path, TF_SIGNATURES[path])
    assert not problems, "\n".join(problems)


def test_a_missing_parameter_is_reported():
    # The comparison itself: a parameter TF has and the callable lacks is a failure.
    problems = _mismatches("add", [["x", "POSITIONAL_OR_KEYWORD", None],
                                   ["y", "POSITIONAL_OR_KEYWORD", None],
                                   ["extra", "POSITIONAL_OR_KEYWORD", {"repr": "None"}],
                                   ["name", "POSITIONAL_OR_KEYWORD", {"repr": "None"}]])
    assert problems == ["add: lacks TF's parameter 'extra'"]
