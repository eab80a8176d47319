"""S11: k([1,2]); k((1,2)); k([1,2]) -> 2 traces (List != Tuple); the third call hits the first."""
@tf.function
def k(arg):
    print("trace", arg)
    return tf.constant(0)

call("list", k, [1, 2])
call("tuple", k, (1, 2))
call("list again (new object)", k, [1, 2])
call("reversed list", k, [2, 1])
signatures("sigs", k)
