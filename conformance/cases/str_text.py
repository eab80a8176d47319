"""tf.strings for text preprocessing: split (to a RaggedTensor: values, row lengths, to_tensor,
rows), regex_replace / regex_full_match (RE2, static and tensor patterns, TF's invalid-pattern
error), as_string (TF's printf formats and errors), to_hash_bucket_fast (the fingerprint
buckets), reduce_join (axis order, keepdims, errors), format; and a text-parsing tf.function,
graph node by node."""


def nodes(cf):
    return [[n.name, n.op, list(n.input)] for n in cf.graph.as_graph_def().node]


s = tf.constant(["hello world", "a  b", "", "  lead and trail  "])
call("split whitespace", lambda: tf.strings.split(s).to_list())
call("split on a space", lambda: tf.strings.split(s, sep=" ").to_list())
call("split maxsplit", lambda: tf.strings.split(s, maxsplit=1).to_list())
call("split sep maxsplit", lambda: tf.strings.split(["a,b,c", "x"], sep=",", maxsplit=1).to_list())
call("split multi-char sep", lambda: tf.strings.split(["a<>b<><>c"], sep="<>").to_list())
call("split a scalar", lambda: tf.strings.split("a b  c"))
r = tf.strings.split(s)
call("ragged flat_values", lambda: r.flat_values)
call("ragged row_lengths", lambda: r.row_lengths())
call("ragged row_splits", lambda: r.row_splits)
call("ragged to_tensor", lambda: r.to_tensor())
call("ragged to_tensor default", lambda: r.to_tensor(default_value="<pad>"))
call("ragged to_tensor shape", lambda: r.to_tensor(shape=[2, 1]))
call("ragged row", lambda: r[0])
call("ragged last row", lambda: r[-1])
call("ragged repr", lambda: repr(r))
call("ragged shape", lambda: r.shape.as_list())
call("raw StringSplitV2", lambda: tf.raw_ops.StringSplitV2(input=["a b c", "d"], sep="", maxsplit=-1))
call("raw split of a matrix", lambda: tf.raw_ops.StringSplitV2(input=[["a b"]], sep="", maxsplit=-1))
call("raw split vector sep", lambda: tf.raw_ops.StringSplitV2(input=["a b"], sep=[" "], maxsplit=-1))

call("regex_replace global", lambda: tf.strings.regex_replace(["aaa bab", "xyz"], "a+", "<\\0>"))
call("regex_replace first", lambda: tf.strings.regex_replace(["aaa bab"], "a", "X", replace_global=False))
call("regex_replace group", lambda: tf.strings.regex_replace(["abc", "cba"], "(b)(.)", "[\\2\\1]"))
call("regex_replace empty matches", lambda: tf.strings.regex_replace(["abc"], "x*", "-"))
call("regex_replace tensor pattern", lambda: tf.strings.regex_replace(["abc"], tf.constant("b"), tf.constant("X")))
call("regex_full_match", lambda: tf.strings.regex_full_match(["abc", "ab", "x", "abcc"], "a.c?"))
call("regex_full_match tensor", lambda: tf.strings.regex_full_match(["abc", "x"], tf.constant("[a-c]+")))

call("as_string floats", lambda: tf.strings.as_string([1.5, 2.0, 1e10, -0.0, float("nan"), -float("inf")]))
call("as_string precision", lambda: tf.strings.as_string([1.5, 2.25, -3.125], precision=2))
call("as_string scientific", lambda: tf.strings.as_string([1.5, 123456.0], scientific=True))
call("as_string shortest", lambda: tf.strings.as_string([1.5, 2.0, 3.4e38, 1e-7], shortest=True))
call("as_string width fill", lambda: tf.strings.as_string([1, -22], width=5, fill="0"))
call("as_string width", lambda: tf.strings.as_string([1.5, -2.25], width=8, precision=1))
call("as_string left", lambda: tf.strings.as_string([7], width=4, fill="-"))
call("as_string plus", lambda: tf.strings.as_string([1.5, -1.0], fill="+"))
call("as_string bools", lambda: tf.strings.as_string([True, False]))
call("as_string int64", lambda: tf.strings.as_string(tf.constant([2**40, -5], tf.int64)))
call("as_string uint8", lambda: tf.strings.as_string(tf.constant([200], tf.uint8), width=5))
call("as_string double", lambda: tf.strings.as_string(tf.constant([1 / 3], tf.float64)))
call("as_string strings", lambda: tf.strings.as_string(["ab"], width=4))
call("as_string both notations", lambda: tf.strings.as_string([1.5], scientific=True, shortest=True))
call("as_string long fill", lambda: tf.strings.as_string([1], fill="ab"))
call("as_string bad fill", lambda: tf.strings.as_string([1], fill="x", width=3))
call("as_string int precision", lambda: tf.strings.as_string([1], precision=2))
call("as_string int scientific", lambda: tf.strings.as_string([1], scientific=True))

call("hash buckets", lambda: tf.strings.to_hash_bucket_fast(["hello", "world", "", "The quick brown fox", "a" * 100], 1000))
call("hash buckets wide", lambda: tf.strings.to_hash_bucket_fast(["hello", "\x00\xff"], 2**62))

m = tf.constant([["a", "b"], ["c", "d"]])
x3 = tf.constant([[["a", "b"], ["c", "d"]], [["e", "f"], ["g", "h"]]])
call("reduce_join all", lambda: tf.strings.reduce_join(m))
call("reduce_join vector", lambda: tf.strings.reduce_join(["a", "b", "c"], separator="-"))
call("reduce_join axis 1", lambda: tf.strings.reduce_join(m, axis=1))
call("reduce_join axis 0 keepdims", lambda: tf.strings.reduce_join(m, axis=0, keepdims=True))
call("reduce_join negative axis", lambda: tf.strings.reduce_join(m, axis=-1))
call("reduce_join axes 0 1", lambda: tf.strings.reduce_join(m, axis=[0, 1], separator="."))
call("reduce_join axes 1 0", lambda: tf.strings.reduce_join(m, axis=[1, 0], separator="."))
call("reduce_join axes 2 0", lambda: tf.strings.reduce_join(x3, axis=[2, 0]))
call("reduce_join axes 0 2", lambda: tf.strings.reduce_join(x3, axis=[0, 2]))
call("reduce_join scalar", lambda: tf.strings.reduce_join("abc"))
call("reduce_join empty", lambda: tf.strings.reduce_join(tf.constant([], tf.string)))
call("reduce_join bad axis", lambda: tf.strings.reduce_join(m, axis=2))
call("reduce_join duplicate axis", lambda: tf.raw_ops.ReduceJoin(inputs=m, reduction_indices=[0, 0]))

call("format", lambda: tf.strings.format("x={} y={}", (tf.constant(3), tf.constant([1.5, 2.0]))))
call("format summarize", lambda: tf.strings.format("{}", tf.range(10), summarize=2))
call("format a string", lambda: tf.strings.format("v: {}", tf.constant("hi")))
call("format a Python value", lambda: tf.strings.format("{} {}", [tf.constant([1, 2]), "s"]))
call("format placeholder", lambda: tf.strings.format("%s!", tf.constant(1.5), placeholder="%s"))
call("format count mismatch", lambda: tf.strings.format("{} {}", tf.constant(1)))
call("bincount", lambda: tf.math.bincount(tf.constant([1, 1, 3])))
call("bincount minlength", lambda: tf.math.bincount(tf.constant([1, 1, 3]), minlength=6))
call("bincount weights", lambda: tf.math.bincount(tf.constant([1, 1, 3]), weights=[0.5, 1.0, 2.0]))
call("bincount negative", lambda: tf.math.bincount(tf.constant([1, -1])))


@tf.function
def parse(lines):
    words = tf.strings.split(tf.strings.lower(lines))
    cleaned = tf.strings.regex_replace(words.flat_values, "[^a-z]", "")
    return (words.to_tensor(), words.row_lengths(), cleaned,
            tf.strings.to_hash_bucket_fast(cleaned, 100),
            tf.strings.reduce_join(lines, separator="|"),
            tf.strings.as_string(tf.strings.length(lines)),
            tf.strings.regex_full_match(lines, ".*[0-9].*"))


lines = tf.constant(["Hello, World!", "tf 2.21 rocks", ""])
call("parse", parse, lines)
call("parse another batch", parse, tf.constant(["One", "two three four"]))
count("parse traces", parse)
record("parse nodes", nodes(parse.get_concrete_function(tf.TensorSpec([None], tf.string))))
