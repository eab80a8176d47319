"""tf.strings: lower/upper (byte encoding), strip, length in bytes and UTF-8 characters,
to_number with TF's parse rules and error, join with a separator and scalar broadcasting, substr
(negative pos and len, vector pos, characters, TF's range error), the op nodes in a tf.function."""


def nodes(cf):
    return [[n.name, n.op, list(n.input)] for n in cf.graph.as_graph_def().node]


S = tf.strings
x = tf.constant(["Hello World", "  pad\t\n", "ÄbC"])
call("lower", lambda: S.lower(x))
call("upper", lambda: S.upper(x))
call("strip", lambda: S.strip(x))
call("length", lambda: S.length(x))
call("length in characters", lambda: S.length(x, unit="UTF8_CHAR"))
call("to_number", lambda: S.to_number(tf.constant(["1.5", " 2 ", "-3e2", "inf"])))
call("to_number int32", lambda: S.to_number(tf.constant(["7", "-12"]), tf.int32))
call("to_number int64", lambda: S.to_number(tf.constant(["9000000000"]), tf.int64))
call("to_number float64", lambda: S.to_number(tf.constant(["0.1"]), tf.float64))
call("to_number fails", lambda: S.to_number(tf.constant(["1.5", "abc"])))
call("to_number int32 of a float", lambda: S.to_number(tf.constant(["1.5"]), tf.int32))
call("to_number int32 overflow", lambda: S.to_number(tf.constant(["3000000000"]), tf.int32))
call("to_number of an empty string", lambda: S.to_number(tf.constant([""])))
call("join", lambda: S.join([tf.constant(["a", "b"]), tf.constant(["c", "d"])], separator="-"))
call("join a scalar", lambda: S.join([tf.constant(["a", "b"]), "!"]))
call("join scalars", lambda: S.join(["a", "b", "c"], separator=", "))
call("join shapes", lambda: S.join([tf.constant(["a", "b"]), tf.constant(["c"])]))


@tf.function
def parse(s):
    words = S.lower(S.strip(s))
    return S.join([words, "?"], separator=""), S.length(words), S.to_number(S.strip(s), tf.int32)


call("parse", parse, tf.constant(["  10", "20 "]))
record("parse nodes", nodes(parse.get_concrete_function(tf.constant(["  10", "20 "]))))
x = tf.constant(["hello", "world", "ab"])
call("substr", lambda: S.substr(x, 1, 3))
call("substr past the end", lambda: S.substr(x, 1, 10))
call("substr vector pos", lambda: S.substr(x, [0, 1, 0], [1, 2, 2]))
call("substr negative pos", lambda: S.substr(x, -2, 2))
call("substr pos out of range", lambda: S.substr(x, 3, 1))
call("substr negative len", lambda: S.substr(x, 0, -1))
call("substr scalar", lambda: S.substr("abcdef", 2, 3))
call("substr utf8", lambda: S.substr(tf.constant("aÄbc"), 1, 2, unit="UTF8_CHAR"))
call("substr shape mismatch", lambda: S.substr(x, [0, 1], [1, 2]))


@tf.function
def first_two(s):
    return S.substr(s, 0, 2)


call("first_two", first_two, x)
record("first_two nodes", nodes(first_two.get_concrete_function(x)))
