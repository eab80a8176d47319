"""Facts: TF keys the retracing detector by fn.__code__, and equal code objects from different files share it."""
src = '''
def same(n):
    return tf.constant(n)
'''
fns = []
for name in ("<file_a>", "<file_b>"):
    ns = {"tf": tf}
    exec(compile(src, name, "exec"), ns)
    fns.append(ns["same"])
record("code objects equal", fns[0].__code__ == fns[1].__code__)
record("code objects identical", fns[0].__code__ is fns[1].__code__)
fa = tf.function(fns[0], autograph=False)
fb = tf.function(fns[1], autograph=False)
for n in range(3):
    call(f"fa({n})", fa, n)
for n in range(3):
    call(f"fb({n}) (shares fa's detector)", fb, n)
