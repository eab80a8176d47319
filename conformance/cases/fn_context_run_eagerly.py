"""Context: tf.config.run_functions_eagerly(True) runs the Python function itself (tf.executing_eagerly() True inside, no trace, count 0); switched off, the next call traces."""


@tf.function
def f(x):
    print("python body, executing eagerly:", tf.executing_eagerly())
    return x * 2


record("functions_run_eagerly() default", tf.config.functions_run_eagerly())
tf.config.run_functions_eagerly(True)
record("functions_run_eagerly() after True", tf.config.functions_run_eagerly())
call("f(1) eagerly", f, tf.constant(1))
call("f(2) eagerly", f, tf.constant(2))
tf.config.run_functions_eagerly(False)
record("functions_run_eagerly() after False", tf.config.functions_run_eagerly())
call("f(1) traced", f, tf.constant(1))
call("f(3) hit", f, tf.constant(3))
