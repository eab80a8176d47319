"""Context: tf.config.run_functions_eagerly(True) with nested functions: outer and inner both run as Python (their prints on every call, counts 0, tf.executing_eagerly() True in both); switched off, both trace once and later calls hit."""
@tf.function
def inner(x):
    print("inner runs, eager:", tf.executing_eagerly())
    return x * 2


@tf.function
def outer(x):
    print("outer runs, eager:", tf.executing_eagerly())
    return inner(x) + 1


tf.config.run_functions_eagerly(True)
record("functions_run_eagerly on", tf.config.functions_run_eagerly())
call("outer(1) eagerly", outer, tf.constant(1))
call("outer(2) eagerly", outer, tf.constant(2))
count("outer count while eager", outer)
count("inner count while eager", inner)
tf.config.run_functions_eagerly(False)
record("functions_run_eagerly off", tf.config.functions_run_eagerly())
call("outer(3) traced", outer, tf.constant(3))
call("outer(4) hit", outer, tf.constant(4))
count("outer count", outer)
count("inner count", inner)
