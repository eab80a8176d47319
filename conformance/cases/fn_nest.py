"""tf.nest as TF's: flatten (dicts by sorted key, namedtuples, None, strings and sets as leaves,
dict views), pack_sequence_as (a dict keeps its own key order), map_structure over several
structures, assert_same_structure, and their errors."""
import collections

Point = collections.namedtuple("Point", ["x", "y"])
nested = {"b": [1, (2, 3)], "a": Point(4, {"z": 5, "y": None}), "c": "str"}
record("flatten nested", tf.nest.flatten(nested))
record("flatten leaf", tf.nest.flatten(7))
record("flatten None", tf.nest.flatten(None))
record("flatten set is a leaf", len(tf.nest.flatten([{1, 2}, 3])))
record("flatten dict views", tf.nest.flatten([{"b": 1, "a": 2}.values(), {"d": 3}.keys()]))
record("flatten empty", tf.nest.flatten([(), [], {}]))
packed = tf.nest.pack_sequence_as(nested, list(range(len(tf.nest.flatten(nested)))))
record("pack keeps dict order", repr(packed))
record("pack namedtuple type", type(packed["a"]).__name__)
record("pack leaf", tf.nest.pack_sequence_as(1, [9]))
record("map_structure", repr(tf.nest.map_structure(lambda a, b: a + b, {"q": 1, "p": (2, 3)},
                                                   {"q": 10, "p": (20, 30)})))
record("map_structure tensors", tf.nest.map_structure(lambda t: t * 2,
                                                      [tf.constant(1), (tf.constant(2.0),)]))
record("is_nested", [tf.nest.is_nested(x) for x in ([], (), {}, 1, "s", None, Point(1, 2))])
attempt("assert same", lambda: tf.nest.assert_same_structure([1, (2, 3)], [4, (5, 6)]))
attempt("assert list vs tuple", lambda: tf.nest.assert_same_structure([1, 2], (1, 2)))
attempt("assert list vs tuple unchecked",
        lambda: tf.nest.assert_same_structure([1, 2], (1, 2), check_types=False))
attempt("assert length", lambda: tf.nest.assert_same_structure([1, 2], [1, 2, 3]))
attempt("assert nested vs leaf", lambda: tf.nest.assert_same_structure([1, [2]], [1, 2]))
attempt("assert dict keys", lambda: tf.nest.assert_same_structure({"a": 1}, {"b": 1}))
attempt("pack too few", lambda: tf.nest.pack_sequence_as([1, 2, 3], [1, 2]))
attempt("pack leaf from many", lambda: tf.nest.pack_sequence_as(1, [1, 2]))
attempt("pack flat not a sequence", lambda: tf.nest.pack_sequence_as([1], 5))
attempt("map_structure no structure", lambda: tf.nest.map_structure(lambda: 1))
attempt("map_structure not callable", lambda: tf.nest.map_structure(3, [1]))
attempt("map_structure mismatch", lambda: tf.nest.map_structure(lambda a, b: a, [1, 2], [1]))
attempt("flatten unsortable keys", lambda: tf.nest.flatten({1: "a", "b": 2}))
