"""Function layer: recursion on a Python int terminates at trace time: one trace per value (fact(4) traces 4, 3, 2, 1), each trace's library holding the ones below it; a later call with a traced value hits."""
from cases._fn_graph import record_graph


@tf.function
def fact(n):
    print("trace", n)
    if n <= 1:
        return 1
    return n * fact(n - 1)


call("fact(4)", fact, 4)
count("count", fact)
call("fact(3)", fact, 3)
count("count after fact(3)", fact)
record_graph(record, "fact(3)", fact.get_concrete_function(3))
