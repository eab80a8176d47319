"""Objects: keyed by weak reference: the same instance hits, a new instance retraces (guide Apple/Mango)."""
class Fruit:
    def __init__(self, flavor):
        self.flavor = flavor

@tf.function
def taste(f):
    print("trace", f.flavor)
    return tf.constant(f.flavor)

apple = Fruit(1)
call("apple", taste, apple)
call("apple again", taste, apple)
call("new Fruit(1)", taste, Fruit(1))
apple.flavor = 5
call("apple mutated: stale graph", taste, apple)
