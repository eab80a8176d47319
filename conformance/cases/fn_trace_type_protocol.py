"""A TraceType of one's own: dispatch by is_subtype_of (a trace for the general type serves a
specific one), reduce_retracing generalising through most_specific_common_supertype, the body
traced with placeholder_value, the signature printed with the type's repr; a
__tf_tracing_type__ that returns something else is TF's TypeError; a concrete function's call
casts with the type's cast (TF's default asserts equality with the placeholder)."""
class Level:
    def __init__(self, n):
        self.n = n

    def __tf_tracing_type__(self, context):
        return LevelType(self.n)


class LevelType(tf.types.experimental.TraceType):
    def __init__(self, n):
        self.n = n

    def is_subtype_of(self, other):
        return type(other) is LevelType and (other.n is None or other.n == self.n)

    def most_specific_common_supertype(self, others):
        if not all(type(o) is LevelType for o in others):
            return None
        return self if all(o.n == self.n for o in others) else LevelType(None)

    def placeholder_value(self, placeholder_context):
        return Level(self.n)

    def __eq__(self, other):
        return type(other) is LevelType and self.n == other.n

    def __hash__(self):
        return hash(self.n)

    def __repr__(self):
        return "LevelType(%r)" % (self.n,)


@tf.function
def plain(level, x):
    print("trace plain", level.n)
    return x * (10 if level.n is None else level.n)


call("level 1", plain, Level(1), tf.constant(2))
call("level 1 again", plain, Level(1), tf.constant(3))
call("level 2", plain, Level(2), tf.constant(2))
signatures("plain sigs", plain)


@tf.function(reduce_retracing=True)
def relaxed(level, x):
    print("trace relaxed", level.n)
    return x * (10 if level.n is None else level.n)


call("relaxed 1", relaxed, Level(1), tf.constant(2))
call("relaxed 2", relaxed, Level(2), tf.constant(2))
call("relaxed 3", relaxed, Level(3), tf.constant(2))
call("relaxed 1 again", relaxed, Level(1), tf.constant(2))
signatures("relaxed sigs", relaxed)
count("relaxed count", relaxed)


class Bad:
    def __tf_tracing_type__(self, context):
        return 5

    def __repr__(self):
        return "Bad()"

    __str__ = __repr__


call("not a TraceType", plain, Bad(), tf.constant(1))
cf = plain.get_concrete_function(Level(1), tf.constant(1))
call("concrete function call", cf, Level(1), tf.constant(4))
count("plain count", plain)
