# expect: none
# tf: ok
# pattern: a helper appends to a list that the tf.function built itself
import tensorflow as tf


def add_terms(terms, x):
    terms.append(x * 2)
    terms.append(x * 3)


@tf.function
def f(x):
    terms = []
    add_terms(terms, x)
    return tf.add_n(terms)


f(tf.constant(1))
