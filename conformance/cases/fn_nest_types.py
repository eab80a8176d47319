"""tf.nest over the less common structures: OrderedDict and defaultdict (rebuilt as themselves,
in their own key order), two namedtuple types with the same fields, an object with
__tf_flatten__/__tf_unflatten__, map_structure with check_types=False, and structures passed to
a tf.function and returned from it."""
import collections

A = collections.namedtuple("A", ["p", "q"])
B = collections.namedtuple("B", ["p", "q"])


class Pair:
    def __init__(self, first, second):
        self.first, self.second = first, second

    def __tf_flatten__(self):
        return ("meta",), (self.first, self.second)

    @classmethod
    def __tf_unflatten__(cls, metadata, components):
        return cls(*components)

    def __repr__(self):
        return "Pair(%r, %r)" % (self.first, self.second)


od = collections.OrderedDict([("z", 1), ("a", 2)])
record("ordered dict flatten", tf.nest.flatten(od))
record("ordered dict pack", repr(tf.nest.pack_sequence_as(od, [10, 20])))
dd = collections.defaultdict(list, {"k": 1, "b": 2})
packed = tf.nest.pack_sequence_as(dd, [5, 6])
record("defaultdict pack", (type(packed).__name__, sorted(packed.items()), packed.default_factory is list))
attempt("two namedtuple types", lambda: tf.nest.assert_same_structure(A(1, 2), B(1, 2)))
attempt("two namedtuple types unchecked",
        lambda: tf.nest.assert_same_structure(A(1, 2), B(1, 2), check_types=False))
record("map_structure unchecked", repr(tf.nest.map_structure(lambda a, b: a * b, [1, 2], (3, 4),
                                                             check_types=False)))
record("custom flatten", tf.nest.flatten([Pair(1, (2, 3)), 4]))
record("custom pack", repr(tf.nest.pack_sequence_as(Pair(0, 0), ["a", "b"])))
record("tuple of one", repr(tf.nest.map_structure(lambda x: x + 1, (1,))))


@tf.function
def f(s):
    return tf.nest.map_structure(lambda t: t * 2, s)


call("function nest", f, {"b": tf.constant(1), "a": [tf.constant(2.0), tf.constant(3)]})
