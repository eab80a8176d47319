"""Seed 003 Q4 / guide buggy_add: a Python global is baked in at trace time; rebinding it changes nothing."""
foo = 1

@tf.function
def buggy_add():
    return 1 + foo

call("first", buggy_add)
foo = 100
call("after foo=100", buggy_add)
record("foo", foo)
