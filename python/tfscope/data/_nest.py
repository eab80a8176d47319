"""The element structures of tf.data (TF's data/util/nest): tuples, namedtuples and dicts hold
components; everything else (lists included, as TF converts them to tensors) is one component.
Dict components are ordered by sorted key, as TF flattens them. A composite value (a
tf.TensorArray, which AutoGraph's dataset loop carries as a loop variable) is its own tensors
(the TensorArray's flow), rebuilt from them on the other side, as TF's TensorArraySpec does."""


class _Leaf:
    def __repr__(self):
        return "LEAF"


LEAF = _Leaf()


class _Composite:
    """Where a composite value sits in a structure: `template` rebuilds one from its tensors."""

    def __init__(self, template, n):
        self.template, self.n = template, n

    def __repr__(self):
        return "COMPOSITE(%s)" % type(self.template).__name__

    def rebuild(self, flat):
        from .. import _core
        if all(isinstance(t, _core.Tensor) for t in flat):
            return self.template._tfscope_from_components(flat)
        return flat[0] if self.n == 1 else tuple(flat)  # specs: the components' own


def _is_composite(x):
    return hasattr(type(x), "_tfscope_components")


def _is_namedtuple(x):
    return isinstance(x, tuple) and hasattr(type(x), "_fields")


def _is_structure(x):
    return isinstance(x, (tuple, dict))


def _children(x):
    if isinstance(x, dict):
        return [x[k] for k in sorted(x)]
    return list(x)


def _rebuild(like, children):
    if isinstance(like, dict):
        # Children come in sorted key order; the dict keeps its own order (TF's nest).
        by_key = dict(zip(sorted(like), children))
        return type(like)((k, by_key[k]) for k in like)
    if _is_namedtuple(like):
        return type(like)(*children)
    return tuple(children)


def flatten_values(value):
    """(leaves, structure) of a nest of values."""
    leaves = []

    def walk(x):
        if _is_structure(x):
            return _rebuild(x, [walk(c) for c in _children(x)])
        if _is_composite(x):
            components = x._tfscope_components()
            leaves.extend(components)
            return _Composite(x, len(components))
        leaves.append(x)
        return LEAF

    return leaves, walk(value)


def flatten_datasets(value):
    return flatten_values(value)


def flatten(structure, value, leaf_lists=False, broadcast=False):
    """The leaves of `value` laid out like `structure` (a single value for every leaf when
    `broadcast` and `value` is not a structure)."""
    out = []

    def walk(s, x):
        if s is LEAF:
            out.append(x)
            return
        if isinstance(s, _Composite):
            out.extend(x._tfscope_components() if _is_composite(x) else [x])
            return
        if broadcast and not _is_structure(x):
            for c in _children(s):
                walk(c, x)
            return
        if isinstance(s, dict):
            if not isinstance(x, dict) or sorted(x) != sorted(s):
                raise ValueError("The two structures don't have the same nested structure.")
        elif not isinstance(x, (tuple, list)) or len(x) != len(s):
            raise ValueError("The two structures don't have the same nested structure.")
        for cs, cx in zip(_children(s), _children(x)):
            walk(cs, cx)

    walk(structure, value)
    return out


def pack(structure, flat):
    it = iter(flat)

    def build(s):
        if s is LEAF:
            return next(it)
        if isinstance(s, _Composite):
            return s.rebuild([next(it) for _ in range(s.n)])
        return _rebuild(s, [build(c) for c in _children(s)])

    return build(structure)


def map_leaves(element, fn):
    if _is_structure(element):
        return _rebuild(element, [map_leaves(c, fn) for c in _children(element)])
    return fn(element)


def count(structure):
    if structure is LEAF:
        return 1
    if isinstance(structure, _Composite):
        return structure.n
    return sum(count(c) for c in _children(structure))
