"""What the watch works out once and keeps, for the Function objects a program makes again and
again (tf.data makes one per transformation, each traced): a plain function's signature per code
object, a file's short path per working directory. Runs without TF."""
import functools
import inspect
import os

from tfscope.watch import _selfcheck, _session


def test_a_plain_functions_signature_is_its_codes_and_kept_per_code():
    def make():
        def wrapped_fn(*args):
            return args
        return wrapped_fn

    first, second = make(), make()
    assert first is not second and first.__code__ is second.__code__
    assert _selfcheck._plain_signature(first) == inspect.signature(first)
    assert _selfcheck._plain_signature(second) is _selfcheck._plain_signature(first)

    def with_default(x, step=1):
        return x

    def annotated(x: int):
        return x

    @functools.wraps(with_default)
    def wrapper(*args):
        return args

    # their signatures are more than their code's: read anew by the twin each time
    for f in (with_default, annotated, wrapper, len):
        assert _selfcheck._plain_signature(f) is None


def test_a_short_path_is_relative_to_the_working_directory_of_the_moment(tmp_path):
    inner = tmp_path / "a" / "b"
    inner.mkdir(parents=True)
    path = str(inner / "train.py")
    before = os.getcwd()
    try:
        os.chdir(tmp_path)
        assert _session._short(path) == os.path.join("a", "b", "train.py")
        assert _session._short(path) == os.path.join("a", "b", "train.py")  # from the cache
        os.chdir(inner)
        assert _session._short(path) == "train.py"
        # one level up stays relative; two levels up or more: the path as given
        assert _session._short(str(tmp_path / "a" / "y.py")) == os.path.join("..", "y.py")
        assert _session._short(str(tmp_path / "x.py")) == str(tmp_path / "x.py")
    finally:
        os.chdir(before)
