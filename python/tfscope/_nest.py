"""tf.nest: TF's structure rules (nest_util). What is a structure: a dict or other Mapping (its
values in sorted key order), a dict view, an attrs class, a namedtuple, any other Sequence but a
string; an object with __tf_flatten__ / __tf_unflatten__. Everything else, sets and None
included, is a leaf. Packing rebuilds each structure's own type, a dict in its own key order.
With expand_composites, a composite (an object with _tfscope_components, as tf.TensorArray) is a
structure of its component tensors, rebuilt by _tfscope_from_components.

This is the package's one structure walker: every Python module that flattens or packs a nest
(tf.function, the tape, control flow, AutoGraph, py_function) goes through it. The C++ side has
its own one, tfs::nest (include/tfscope/nest.h), over engine Values."""
import collections as _collections
import collections.abc as _abc

__all__ = ["assert_same_structure", "flatten", "is_nested", "map_structure", "pack_sequence_as"]


def _is_attrs(x):
    return hasattr(type(x), "__attrs_attrs__")


def _is_namedtuple(x):
    return isinstance(x, tuple) and hasattr(type(x), "_fields")


def _is_custom(x):
    return hasattr(type(x), "__tf_flatten__") and not isinstance(x, type)


def _is_composite(x):
    return hasattr(type(x), "_tfscope_components") and not isinstance(x, type)


def _nested(seq, expand):
    return is_nested(seq) or (expand and _is_composite(seq))


def is_nested(seq):
    """Whether `seq` is a structure (not a leaf), by TF's rules."""
    if isinstance(seq, (_abc.Mapping, _abc.MappingView)) or _is_attrs(seq) or _is_custom(seq):
        return True
    if isinstance(seq, (str, bytes, bytearray, _abc.Set)):
        return False
    return isinstance(seq, _abc.Sequence)


def _children(x):
    """The direct children of a structure, in flattening order."""
    if isinstance(x, _abc.Mapping):
        return [x[k] for k in sorted(x)]
    if isinstance(x, _abc.MappingView):
        return list(x)
    if _is_attrs(x):
        return [getattr(x, a.name) for a in type(x).__attrs_attrs__]
    if _is_custom(x):
        return list(x.__tf_flatten__()[1])
    if _is_composite(x) and not isinstance(x, _abc.Sequence):
        return list(x._tfscope_components())
    return list(x)


def _rebuild(x, children):
    """A structure like `x` with `children` (in flattening order)."""
    if isinstance(x, _abc.Mapping):
        by_key = dict(zip(sorted(x), children))
        items = [(k, by_key[k]) for k in x]
        if isinstance(x, _collections.defaultdict):
            out = type(x)(x.default_factory)
            out.update(items)
            return out
        return type(x)(items)
    if isinstance(x, _abc.MappingView):
        return list(children)
    if _is_attrs(x) or _is_namedtuple(x):
        return type(x)(*children)
    if _is_custom(x):
        return type(x).__tf_unflatten__(x.__tf_flatten__()[0], tuple(children))
    if _is_composite(x) and not isinstance(x, _abc.Sequence):
        return x._tfscope_from_components(list(children))
    if isinstance(x, list):
        return list(children)
    if isinstance(x, tuple):
        return tuple(children)
    return type(x)(children)


def flatten(structure, expand_composites=False):
    """The leaves of `structure`, depth first (a dict's by sorted key)."""
    out = []
    _flatten_into(structure, bool(expand_composites), out)
    return out


def _flatten_into(x, expand, out):
    if not _nested(x, expand):
        out.append(x)
        return
    for c in _children(x):
        _flatten_into(c, expand, out)


def _count(structure, expand=False):
    return len(flatten(structure, expand))


def _structure_text(x):
    """TF's "Entire structure" text: the structure with each leaf printed as '.'."""
    return str(map_structure(lambda _: _Dot(), x))


class _Dot:
    def __repr__(self):
        return "."


def _describe(x):
    return "type=%s str=%s" % (type(x).__name__, x)


def _mismatch(exc, first, second, detail):
    raise exc("The two structures don't have the same nested structure.\n\n"
              "First structure: %s\n\nSecond structure: %s\n\nMore specifically: %s\n"
              "Entire first structure:\n%s\nEntire second structure:\n%s"
              % (_describe(first), _describe(second), detail, _structure_text(first),
                 _structure_text(second)))


def _compare(a, b, check_types):
    """(exception class, detail) of the first difference between a and b, or None."""
    na, nb = is_nested(a), is_nested(b)
    if na != nb:
        seq, leaf = (a, b) if na else (b, a)
        return ValueError, ('Substructure "%s" is a sequence, while substructure "%s" is not'
                            % (_describe(seq), _describe(leaf)))
    if not na:
        return None
    if check_types and type(a) is not type(b):
        return TypeError, ("The two namedtuples don't have the same sequence type. First structure "
                           "%s has type %s, while second structure %s has type %s"
                           % (_describe(a), type(a).__name__, _describe(b), type(b).__name__))
    if isinstance(a, _abc.Mapping) and isinstance(b, _abc.Mapping) and set(a) != set(b):
        return ValueError, ("The two dictionaries don't have the same set of keys. First structure "
                            "has keys %s, while second structure has keys %s"
                            % (_describe(list(a)), _describe(list(b))))
    ca, cb = _children(a), _children(b)
    if len(ca) != len(cb):
        return ValueError, ("The two structures don't have the same number of elements. First "
                            "structure: %s. Second structure: %s" % (_describe(a), _describe(b)))
    for x, y in zip(ca, cb):
        d = _compare(x, y, check_types)
        if d:
            return d
    return None


def assert_same_structure(nest1, nest2, check_types=True, expand_composites=False):
    """Raises TF's ValueError (or TypeError for a type difference) unless the two structures
    nest alike."""
    d = _compare(nest1, nest2, check_types)
    if d:
        _mismatch(d[0], nest1, nest2, d[1])


def pack_sequence_as(structure, flat_sequence, expand_composites=False):
    """`flat_sequence` in the shape of `structure`."""
    if not is_nested(flat_sequence):
        raise TypeError("Attempted to pack value:\n  %s\ninto a structure, but found incompatible "
                        "type `%s` instead." % (flat_sequence, type(flat_sequence)))
    flat = list(flat_sequence)
    expand = bool(expand_composites)
    if not _nested(structure, expand):
        if len(flat) != 1:
            raise ValueError("The target structure is of type `%s`\n  %s\nHowever the input is a "
                             "sequence (%s) of length %d.\n  %s\nnest cannot guarantee that it is "
                             "safe to map one to the other."
                             % (type(structure), structure, type(flat_sequence), len(flat),
                                flat_sequence))
        return flat[0]
    n = _count(structure, expand)
    if n != len(flat):
        raise ValueError("Could not pack sequence. Structure had %d atoms, but flat_sequence had "
                         "%d items.  Structure: %s, flat_sequence: %s."
                         % (n, len(flat), structure, flat_sequence))
    return _pack(structure, iter(flat), expand)


def _pack(s, it, expand):
    # A module-level function, not a closure over itself: a self-referencing closure is a cycle
    # that would keep the packed leaves alive until the garbage collector runs.
    if not _nested(s, expand):
        return next(it)
    return _rebuild(s, [_pack(c, it, expand) for c in _children(s)])


def map_structure(func, *structure, **kwargs):
    """func applied to the leaves of the structures (which must nest alike), packed as the
    first."""
    if not callable(func):
        raise TypeError("func must be callable, got: %s" % func)
    if not structure:
        raise ValueError("Must provide at least one structure")
    check_types = kwargs.pop("check_types", True)
    kwargs.pop("expand_composites", None)
    if kwargs:
        raise ValueError("Only valid keyword arguments are `check_types` and "
                         "`expand_composites`, not: `%s`" % "`, `".join(kwargs))
    for other in structure[1:]:
        assert_same_structure(structure[0], other, check_types=check_types)
    flats = [flatten(s) for s in structure]
    return pack_sequence_as(structure[0], [func(*xs) for xs in zip(*flats)])
