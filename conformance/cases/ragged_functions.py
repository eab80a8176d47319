"""RaggedTensor through tf.function as a text-parsing program writes it: tf.strings.split's
ragged result returned from a function (flattened into flat_values and row_splits, packed back),
passed to other functions as an argument (traced as its RaggedTensorSpec: a new row count is a new
trace, a new value count a hit; reduce_retracing relaxes the rows), inside one function from
another, in an input_signature (tf.RaggedTensorSpec, with TF's cast errors), and in tf.nest with
expand_composites. Values, trace counts, signatures and graphs node for node."""


def nodes(cf):
    return [[n.name, n.op, list(n.input)] for n in cf.graph.as_graph_def().node]


@tf.function
def tokenize(sentences):
    return tf.strings.split(sentences)


@tf.function
def tokens_per_row(tokens):
    return tokens.row_lengths()


@tf.function
def padded(tokens):
    return tokens.to_tensor(default_value="<pad>")


@tf.function
def row(tokens, i):
    return tokens[i]


@tf.function
def parse(sentences):
    tokens = tokenize(sentences)
    return tokens_per_row(tokens), padded(tokens), tokens


batch = tf.constant(["the cat sat", "on the mat", "hi"])
other = tf.constant(["a b", "c d e f"])  # a new row count
longer = tf.constant(["x y z w", "v", "u t"])  # the rows of batch, more tokens

tokens = call("tokenize", tokenize, batch)
call("tokenize to_list", lambda: tokens.to_list())
call("tokenize again", tokenize, batch)
call("tokenize two rows", tokenize, other)
count("tokenize traces", tokenize)
call("counts", tokens_per_row, tokens)
call("counts more values", tokens_per_row, tokenize(longer))
call("counts two rows", tokens_per_row, tokenize(other))
count("counts traces", tokens_per_row)
call("padded", padded, tokens)
call("row 0", row, tokens, 0)
call("row -1", row, tokens, -1)
count("row traces", row)
out = call("parse", parse, batch)
call("parse ragged to_list", lambda: out[2].to_list())
call("parse other", parse, other)
count("parse traces", parse)
signatures("tokenize signatures", tokenize)
signatures("counts signatures", tokens_per_row)
signatures("parse signatures", parse)
describe("tokenize graph", tokenize.get_concrete_function(batch))
record("tokenize nodes", nodes(tokenize.get_concrete_function(batch)))
record("counts nodes", nodes(tokens_per_row.get_concrete_function(tokens)))
record("padded nodes", nodes(padded.get_concrete_function(tokens)))
describe("parse graph", parse.get_concrete_function(batch))

int_rows = tf.ragged.constant([[1, 2], [3]])
call("int32 values", tokens_per_row, int_rows)
call("int32 row splits", tokens_per_row, tf.ragged.constant([[1, 2], [3]], row_splits_dtype=tf.int32))
count("counts traces after dtypes", tokens_per_row)


@tf.function(reduce_retracing=True)
def relaxed(tokens):
    return tokens.row_lengths()


call("relaxed 3 rows", relaxed, tokens)
call("relaxed 2 rows", relaxed, tokenize(other))
call("relaxed 4 rows", relaxed, tokenize(tf.constant(["a", "b", "c", "d e"])))
count("relaxed traces", relaxed)
signatures("relaxed signatures", relaxed)


@tf.function(input_signature=[tf.RaggedTensorSpec(shape=[None, None], dtype=tf.string)])
def with_signature(tokens):
    return tokens.row_lengths(), tokens


call("signature 3 rows", with_signature, tokens)
call("signature 2 rows", with_signature, tokenize(other))
count("signature traces", with_signature)
signatures("signature signatures", with_signature)
record("signature concrete without arguments",
       repr(with_signature.get_concrete_function().structured_input_signature))
record("signature concrete of a narrower spec", repr(with_signature.get_concrete_function(
    tf.RaggedTensorSpec([2, None], tf.string)).structured_input_signature))
call("signature concrete of another dtype's spec",
     lambda: with_signature.get_concrete_function(tf.RaggedTensorSpec([2, None], tf.int32)))
count("signature traces after concrete", with_signature)
call("signature wrong dtype", with_signature, int_rows)
call("signature dense tensor", with_signature, batch)
record("spec repr", repr(tf.RaggedTensorSpec(shape=[None, None], dtype=tf.string)))
record("spec of a value", repr(tokens_per_row.get_concrete_function(tokens).structured_input_signature))
call("spec without rank", lambda: tf.RaggedTensorSpec())
call("spec equality", lambda: tf.RaggedTensorSpec([2, None], tf.int32) == tf.RaggedTensorSpec([2, None], tf.int32))

call("nest flatten expand", lambda: tf.nest.flatten(tokens, expand_composites=True))
call("nest flatten", lambda: [type(x).__name__ for x in tf.nest.flatten(tokens)])
call("nest pack expand", lambda: tf.nest.pack_sequence_as(
    tokens, [tf.constant(["p", "q"]), tf.constant([0, 1, 1, 2], tf.int64)],
    expand_composites=True).to_list())
call("nest nested flatten expand", lambda: len(tf.nest.flatten({"t": tokens, "n": batch}, expand_composites=True)))
record("row nodes", nodes(row.get_concrete_function(tokens, -1)))
call("row past the end", row, tokens, 3)
call("eager row past the end", lambda: tokens[3])
call("eager last row", lambda: tokens[-1])
