"""The tf.function guide's "Customizing retracing" example: Apple()/Mango() are keyed by weak
reference (a new trace per call, the objects are gone), the same classes with
__tf_tracing_type__ returning a tf.types.experimental.TraceType share one trace per fruit
class pair; the body is traced with placeholder_value (the fruit itself)."""
class Fruit:
    flavor = tf.constant([0, 0])


class Apple(Fruit):
    flavor = tf.constant([1, 2])


class Mango(Fruit):
    flavor = tf.constant([3, 4])


@tf.function
def get_mixed_flavor(fruit_a, fruit_b):
    return fruit_a.flavor + fruit_b.flavor


call("plain fruits", get_mixed_flavor, Apple(), Mango())
call("plain fruits again", get_mixed_flavor, Apple(), Mango())


class FruitTraceType(tf.types.experimental.TraceType):
    def __init__(self, fruit):
        self.fruit_type = type(fruit)
        self.fruit_value = fruit

    def is_subtype_of(self, other):
        return type(other) is FruitTraceType and self.fruit_type is other.fruit_type

    def most_specific_common_supertype(self, others):
        return self if all(self == other for other in others) else None

    def placeholder_value(self, placeholder_context=None):
        return self.fruit_value

    def __eq__(self, other):
        return type(other) is FruitTraceType and self.fruit_type == other.fruit_type

    def __hash__(self):
        return hash(self.fruit_type)


class FruitWithTraceType:
    def __tf_tracing_type__(self, context):
        return FruitTraceType(self)


class AppleWithTraceType(FruitWithTraceType):
    flavor = tf.constant([1, 2])


class MangoWithTraceType(FruitWithTraceType):
    flavor = tf.constant([3, 4])


call("typed fruits", get_mixed_flavor, AppleWithTraceType(), MangoWithTraceType())
call("typed fruits again", get_mixed_flavor, AppleWithTraceType(), MangoWithTraceType())
call("typed fruits swapped", get_mixed_flavor, MangoWithTraceType(), AppleWithTraceType())
call("typed fruits swapped again", get_mixed_flavor, MangoWithTraceType(), AppleWithTraceType())
record("is a TraceType", isinstance(FruitTraceType(Apple()), tf.types.experimental.TraceType))
count("count", get_mixed_flavor)
