"""The hit memo's key of a call's arguments (_core._watch_call_key, the same function the C++
call path uses): equal exactly when what tfscope's tracing rules read is equal. Runs without TF:
a stand-in iterator type is keyed by one attribute, as the watch keys TF's OwnedIterator by its
element spec."""
from tfscope import _core
from tfscope.watch import _session


class Spec:
    """A hashable value whose hash and equality are Python code, as a TensorSpec's are."""
    hashed = 0

    def __init__(self, shape):
        self.shape = tuple(shape)

    def __hash__(self):
        Spec.hashed += 1
        return hash(self.shape)

    def __eq__(self, other):
        return isinstance(other, Spec) and self.shape == other.shape


class Iterator:
    def __init__(self, shape):
        self.element_spec = Spec(shape)


class NoTensor:
    """Stands for TF's EagerTensor type, which this test does not call with."""
    _datatype_enum = _shape_tuple = None


def _setup():
    _core._watch_setup(NoTensor, _session._library_cache, _session._is_library, _session._site_cache,
                       _session._make_site, {Iterator: "element_spec"})


def key(*args, **kwargs):
    return _core._watch_call_key(args, kwargs)


def test_python_values_are_keyed_by_type_and_value():
    _setup()
    assert key(1, "a", None) == key(1, "a", None)
    assert key(1) != key(True) and key(1) != key(1.0)
    assert key(0.0) != key(-0.0)  # by the float's bits
    assert key(float("nan")) is None  # TF's Literal never equals a NaN
    assert key([1, (2, "b")], d={"x": 1}) == key([1, (2, "b")], d={"x": 1})
    assert key([1, 2]) != key((1, 2))
    assert key(d={"x": 1}) != key(d={"x": 2})
    assert key(a=1, b=2) != key(b=2, a=1)  # keywords in their order, as the dict of them
    assert key(object()) is None  # not keyed: the call goes to the full check


def test_iterators_are_keyed_by_their_attribute_value_hashed_once():
    _setup()
    a, b, c = Iterator([32, 4]), Iterator([32, 4]), Iterator([16, 4])
    assert key(a) == key(b)  # equal specs: the same key across iterators (a new one per epoch)
    assert key(a) != key(c)
    assert key(c) != key(Iterator([8, 4]))
    # a loop's steps ask about the same iterator again: its key is kept, its spec not hashed
    first = key(c)
    before = Spec.hashed
    for _ in range(10):
        assert key(c) == first
    assert Spec.hashed == before
    assert key(Iterator([16, 4])) == first  # a fresh iterator: its spec hashed once
    assert Spec.hashed == before + 1
    assert key(Iterator([None])) == key(Iterator([None]))
