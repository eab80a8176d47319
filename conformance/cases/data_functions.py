"""tf.data transformations with a user function, as TF traces them: map (plain, parallel with
deterministic, structured elements unpacked into arguments, dicts, a returned list as a tuple, a
Python constant as a tensor, a captured tensor, AutoGraph's if), filter, flat_map, interleave
(cycle_length, block_length), scan and reduce (the state's shape relaxed and traced again when it
grows); the Python of each function runs once, when the dataset is built, however many elements
and iterators follow; each dataset's repr, cardinality and elements; TF's errors for a predicate
or scan function that returns the wrong thing. The functions are defs: under this runner (a case
is exec'd, with no module) TF's AutoGraph cannot read a lambda's source and warns."""
D = tf.data.Dataset


def show(label, ds):
    record(label + " repr", repr(ds))
    record(label + " cardinality", int(ds.cardinality()))
    record(label + " elements", list(ds.as_numpy_iterator()))


calls = []


def double(x):
    calls.append(1)
    return x * 2


ds = D.range(5).map(double)
record("map traced at build", len(calls))
show("map", ds)
show("map again", ds)
record("map python runs once", len(calls))


def plus1(x):
    return x + 1


def square(x):
    return x * x


show("map parallel", D.range(6).map(plus1, num_parallel_calls=tf.data.AUTOTUNE,
                                    deterministic=True))
show("map parallel 3", D.range(6).map(square, num_parallel_calls=3))


def to_dict(a, b):
    return {"s": tf.cast(a, tf.float32) + b, "a": a}


def add_fields(d):
    return d["x"] + d["y"]


def as_list(x):
    return [x, x * 10]


def three(x):
    return 3


c = tf.constant(10, tf.int64)


def add_c(x):
    return x + c


def pair(x):
    return (x, -x)


def times(a, b):
    return a * b


show("map tuple args", D.from_tensor_slices(([1, 2, 3], [4., 5., 6.])).map(to_dict))
show("map dict arg", D.from_tensor_slices({"x": [1, 2], "y": [10, 20]}).map(add_fields))
show("map list out", D.range(3).map(as_list))
show("map constant out", D.range(3).map(three))
show("map captured", D.range(3).map(add_c))
show("map batch", D.range(10).batch(4).map(tf.reduce_sum))
show("map after map", D.range(4).map(pair).map(times))


def collatz(x):
    if x % 2 == 0:  # AutoGraph: a tensor condition becomes a cond
        y = x // 2
    else:
        y = 3 * x + 1
    return y


show("map autograph if", D.range(1, 7).map(collatz))


def third(x):
    return x % 3 == 0


def positive_b(a, b):
    return b > 0


def big(x):
    return x > 10


def identity(x):
    return x


def two_bools(x):
    return tf.stack([x > 0, x > 1])


show("filter", D.range(10).filter(third))
show("filter tuple", D.from_tensor_slices(([1, 2, 3, 4], [1., 0., 1., 0.])).filter(positive_b))
show("filter all out", D.range(4).filter(big))
attempt("filter int predicate", lambda: D.range(3).filter(identity))
attempt("filter vector predicate", lambda: D.range(3).filter(two_bools))


def upto(x):
    return D.range(x)


def slices(x):
    return D.from_tensor_slices(x)


def twice(x):
    return D.from_tensors(x).repeat(2)


def thrice(x):
    return D.from_tensors(x).repeat(3)


show("flat_map", D.range(4).flat_map(upto))
show("flat_map tensors", D.from_tensor_slices([[1, 2], [3, 4]]).flat_map(slices))
show("flat_map repeat", D.range(3).flat_map(twice))
show("interleave 2x2", D.range(4).interleave(thrice, cycle_length=2, block_length=2))
show("interleave 3x1", D.range(1, 6).interleave(upto, cycle_length=3))
show("interleave 1", D.range(3).interleave(upto, cycle_length=1, block_length=5))


def running(s, x):
    return (s + x, s * 10)


def tuple_state(s, x):
    return ((s[0] + x, s[1] * 2), s[0] + s[1])


def state_only(s, x):
    return s


def swap(s, x):
    return (x, x)


show("scan running sum", D.range(5).scan(tf.constant(0, tf.int64), running))
show("scan tuple state", D.range(4).scan((tf.constant(0, tf.int64), tf.constant(1, tf.int64)),
                                         tuple_state))
attempt("scan not a pair", lambda: D.range(3).scan(0, state_only))
attempt("scan state dtype", lambda: D.range(3).scan(tf.constant(0), swap))


def add(s, x):
    return s + x


def sum_prod(s, x):
    return (s[0] + x, s[1] * x)


record("reduce sum", D.range(5).reduce(tf.constant(0, tf.int64), add))
record("reduce tuple", D.from_tensor_slices([1., 2., 3.]).reduce((0., 1.), sum_prod))
grows = []


def grow(s, x):
    grows.append(1)
    return tf.concat([s, [x]], 0)


def last(s, x):
    return x


record("reduce growing state", D.range(3).reduce(tf.constant([], tf.int64), grow))
record("reduce growing traces", len(grows))
attempt("reduce state dtype", lambda: D.range(3).reduce(0, last))


def batch_window(w):
    return w.batch(3)


def zip_windows(a, b):
    return D.zip((a, b)).batch(2)


show("window flat_map", D.range(7).window(3, shift=2).flat_map(batch_window))
show("window pairs flat_map", D.zip((D.range(4), D.range(10, 14))).window(2).flat_map(zip_windows))


def below_5(x):
    return x < 5


def sum_below(a, b):
    return a + b < 8


show("take_while", D.range(10).take_while(below_5))
show("take_while tuple", D.zip((D.range(10), D.range(10))).take_while(sum_below))
