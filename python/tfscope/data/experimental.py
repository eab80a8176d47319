"""tf.data.experimental: the constants and cardinality helper."""
from . import AUTOTUNE, INFINITE_CARDINALITY, UNKNOWN_CARDINALITY  # noqa: F401


def cardinality(dataset):
    return dataset.cardinality()
