"""Function layer (issue 12's deadlock): two threads calling one tf.function with three shapes each: every call returns its value, the function traces once per shape whatever the interleaving."""
import threading


@tf.function
def f(x):
    return x * 2 + 1


results = {}


def worker(name, offset):
    out = []
    for i in range(12):
        n = 1 + (i + offset) % 3
        out.append(f(tf.range(n)).numpy().tolist())
    results[name] = out


threads = [threading.Thread(target=worker, args=(k, k)) for k in range(2)]
for t in threads:
    t.start()
for t in threads:
    t.join(120)
record("finished", [not t.is_alive() for t in threads])
record("results", [results.get(k) for k in range(2)])
count("count", f)
