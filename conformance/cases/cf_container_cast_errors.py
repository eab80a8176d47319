"""A ConcreteFunction traced with a tuple, a list or a dict, called with a value that is not that container (a tensor, a number, the other sequence, the wrong length, other keys): TF's binding texts."""
@tf.function
def f(a):
    return a

one, two = tf.constant(1.0), tf.constant(2.0)
cf_tuple = f.get_concrete_function((one, two))
cf_list = f.get_concrete_function([one, two])
cf_dict = f.get_concrete_function({"a": one, "b": two})
call("tuple ok", cf_tuple, (one, two))
call("tuple given a tensor", cf_tuple, one)
call("tuple given a number", cf_tuple, 3)
call("tuple given a list", cf_tuple, [one, two])
call("tuple given a dict", cf_tuple, {"a": 1})
call("tuple too short", cf_tuple, (one,))
call("list given a tensor", cf_list, one)
call("list given a tuple", cf_list, (one, two))
call("list too short", cf_list, [one])
call("dict ok", cf_dict, {"b": two, "a": one})
call("dict given a tensor", cf_dict, one)
call("dict given a list", cf_dict, [1, 2])
call("dict with other keys", cf_dict, {"a": one, "c": two})
