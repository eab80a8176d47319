"""Ops: tf.tile (Tile, multiples converted as "Tile/multiples", int32 unless given), tf.broadcast_to (BroadcastTo, "BroadcastTo/shape"): values of every dtype, shape inference from partial shapes, TF's kernel and shape-function error texts (host operands take eager_fallback: no " name: " suffix); tf.nn.leaky_relu (LeakyRelu in its scope, integers cast first as "LeakyRelu/Cast", alpha a float32 attr), tf.nn.elu (Elu, exp(x) - 1), tf.nn.softplus (Softplus, switching over at log(epsilon) + 2): values bit for bit on packets and tails, denormals as zero, dtype errors."""


def nodes(cf):
    return [[n.name, n.op, list(n.input)] for n in cf.graph.as_graph_def().node]


@tf.function(autograph=False)
def tiled(x):
    return tf.tile(x, [2, 3]), tf.tile(x, tf.constant([1, 2], tf.int64)), tf.broadcast_to(x, [2, 2, 3])


@tf.function(autograph=False)
def dyn(x, m):
    return tf.tile(x, m), tf.broadcast_to(x[0], m)


call("tiled", tiled, tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]))
record("tiled nodes", nodes(tiled.get_concrete_function(tf.TensorSpec([2, None], tf.float32))))
record("tiled shapes", [str(t.shape) for t in tiled.get_concrete_function(tf.TensorSpec([None, 3], tf.float32)).structured_outputs])
record("dyn nodes", nodes(dyn.get_concrete_function(tf.TensorSpec([2, None], tf.float32), tf.TensorSpec([2], tf.int32))))
record("dyn shapes", [str(t.shape) for t in dyn.get_concrete_function(tf.TensorSpec([2, None], tf.float32), tf.TensorSpec([2], tf.int32)).structured_outputs])
record("host nodes", nodes(tf.function(lambda: (tf.tile([1, 2], [2]), tf.broadcast_to(1.0, [2])), autograph=False).get_concrete_function()))
call("tile ints", lambda: tf.tile([[1, 2], [3, 4]], [2, 3]))
call("tile strings", lambda: tf.tile(tf.constant(["a", "b"]), tf.constant([2], tf.int64)))
call("tile bools", lambda: tf.tile(tf.constant([[True], [False]]), [1, 2]))
call("tile zero", lambda: tf.tile([[1.5], [2.5]], [0, 2]))
call("tile scalar", lambda: tf.tile(True, []))
call("tile f64 nan", lambda: tf.tile(tf.constant([float("nan"), -0.0], tf.float64), [2]))
call("broadcast", lambda: tf.broadcast_to([[1], [2]], [2, 2, 3]))
call("broadcast same", lambda: tf.broadcast_to(tf.constant([1, 2], tf.uint8), [2]))
call("broadcast scalar", lambda: tf.broadcast_to(7, []))
call("broadcast empty", lambda: tf.broadcast_to([1.0], [0, 2]))
call("broadcast int64 shape", lambda: tf.broadcast_to([True, False], tf.constant([2, 2], tf.int64)))
call("tile length", lambda: tf.tile([1, 2], [2, 2]))
call("tile length tensors", lambda: tf.tile(tf.constant([1, 2]), tf.constant([2, 2])))
call("tile negative", lambda: tf.tile([1, 2], [-1]))
call("tile 2-D multiples", lambda: tf.tile([[1, 2]], [[2]]))
call("tile float multiples", lambda: tf.tile([1, 2], [2.0]))
call("tile scalar multiples", lambda: tf.tile(1, [1]))
call("broadcast incompatible", lambda: tf.broadcast_to([1, 2, 3], [2, 2]))
call("broadcast incompatible tensors", lambda: tf.broadcast_to(tf.constant([1, 2, 3]), tf.constant([2, 2])))
call("broadcast negative", lambda: tf.broadcast_to([1, 2], [2, -1]))
call("broadcast rank", lambda: tf.broadcast_to([[1, 2]], [2]))
call("broadcast 2-D shape", lambda: tf.broadcast_to([1, 2], [[2]]))
call("broadcast float shape", lambda: tf.broadcast_to([1, 2], [2.0]))
call("broadcast unable", lambda: tf.broadcast_to([[1], [2]], [1, 3]))


def g_tile_rank(x):
    return tf.tile(x, [2, 2])


def g_bcast_dims(x):
    return tf.broadcast_to(x, [2, 2])


def g_tile_negative(x):
    return tf.tile(x, [-2])


def g_bcast_rank(x, s):
    return tf.broadcast_to(x, s)


spec3 = tf.TensorSpec([3], tf.float32)
attempt("graph tile rank", lambda: tf.function(g_tile_rank, autograph=False).get_concrete_function(spec3))
attempt("graph broadcast dims", lambda: tf.function(g_bcast_dims, autograph=False).get_concrete_function(spec3))
attempt("graph tile negative", lambda: tf.function(g_tile_negative, autograph=False).get_concrete_function(spec3))
attempt("graph broadcast rank", lambda: tf.function(g_bcast_rank, autograph=False).get_concrete_function(
    tf.TensorSpec([3, 3], tf.float32), tf.TensorSpec([1], tf.int32)))


@tf.function(autograph=False)
def acts(x):
    return (tf.nn.leaky_relu(x), tf.nn.leaky_relu(x, 0.3), tf.nn.elu(x), tf.nn.softplus(x),
            tf.math.softplus(x))


@tf.function(autograph=False)
def acts_int(x):
    return tf.nn.leaky_relu(x), tf.nn.leaky_relu(x, alpha=-2)


nan, inf = float("nan"), float("inf")
edge = [-1.0, 2.0, -0.0, 0.0, nan, -inf, inf, -1e-8, -13.9, -14.0, 13.9, 14.0, -100.0, 100.0, 1e-8,
        -88.0, -104.5, 88.7, -2.127313e-39, 2.127313e-39, -0.5, 0.3, -3e38]
call("acts f32", acts, tf.constant(edge))
call("acts f64", acts, tf.constant(edge + [-36.0, -37.0, 36.0, 37.0, -800.0, 1e-310, -1e-310], tf.float64))
call("acts int", acts_int, tf.constant([-5, 3, 0]))
record("acts nodes", nodes(acts.get_concrete_function(tf.TensorSpec([None], tf.float32))))
record("acts int nodes", nodes(acts_int.get_concrete_function(tf.TensorSpec([None], tf.int64))))
record("acts host nodes", nodes(tf.function(
    lambda: (tf.nn.softplus([1.0, 2.0]), tf.nn.elu([1.0]), tf.nn.leaky_relu([1.0]), tf.nn.leaky_relu([1])),
    autograph=False).get_concrete_function()))
sweep = [i * 0.0371 - 40.0 for i in range(2161)] + [-1e-30, 1e-30, -1e-38, 5e-39]
for dtype in (tf.float32, tf.float64):
    x = tf.constant(sweep, dtype)
    record(f"sweep {dtype.name}", [tf.nn.elu(x).numpy().tolist(), tf.nn.softplus(x).numpy().tolist(),
                                   tf.nn.leaky_relu(x, 0.01).numpy().tolist()])
call("leaky bool", lambda: tf.nn.leaky_relu(True))
call("leaky string", lambda: tf.nn.leaky_relu(tf.constant(["a"])))
call("leaky alpha list", lambda: tf.nn.leaky_relu([1.0], alpha=[1.0]))
call("leaky alpha str", lambda: tf.nn.leaky_relu([1.0], alpha="a"))
call("leaky alpha bool", lambda: tf.nn.leaky_relu([-1.0], alpha=True))
call("elu int host", lambda: tf.nn.elu([1, 2]))
call("elu int tensor", lambda: tf.nn.elu(tf.constant([1, 2])))
call("softplus int host", lambda: tf.nn.softplus([1, 2]))
call("softplus int tensor", lambda: tf.nn.softplus(tf.constant([1, 2])))
for op in ("elu", "softplus", "leaky_relu"):
    attempt(f"graph {op} bool", lambda op=op: tf.function(getattr(tf.nn, op), autograph=False).get_concrete_function(
        tf.TensorSpec([None], tf.bool)))
