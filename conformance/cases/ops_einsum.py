"""Ops: tf.einsum for the contractions transformers write ('bij,bjk->bik', 'bhqd,bhkd->bhqk',
'bqhd,bkhd->bhqk', 'bhqk,bkhd->bqhd', 'ij,jk->ik', 'ij,kj->ik', 'bi,bi->b') and a transpose
('ij->ji'): values (small integers and halves: exact sums in any order), static shapes, and the
one Einsum node TF 2.21 builds in an "einsum" scope."""
def grid(shape, scale=1.0, mod=7):
    i = np.arange(int(np.prod(shape)), dtype=np.int64)
    return ((i * 5 % mod - mod // 2) * scale).astype(np.float32).reshape(shape)


cases = [("bij,bjk->bik", [2, 3, 4], [2, 4, 5]), ("bhqd,bhkd->bhqk", [2, 2, 3, 4], [2, 2, 5, 4]),
         ("bqhd,bkhd->bhqk", [2, 3, 2, 4], [2, 5, 2, 4]), ("bhqk,bkhd->bqhd", [2, 2, 3, 5], [2, 5, 2, 4]),
         ("ij,jk->ik", [3, 4], [4, 2]), ("ij,kj->ik", [3, 4], [2, 4]), ("bi,bi->b", [3, 6], [3, 6]),
         ("ij,jk->ki", [3, 4], [4, 2])]
for eq, sa, sb in cases:
    record(eq, tf.einsum(eq, tf.constant(grid(sa)), tf.constant(grid(sb, 0.5, 5))))
record("ij->ji", tf.einsum("ij->ji", tf.constant(grid([2, 3]))))
record("int32 bij,bjk->bik", tf.einsum("bij,bjk->bik", tf.constant(grid([2, 2, 3]).astype(np.int32)),
                                       tf.constant(grid([2, 3, 2]).astype(np.int32))))
record("spaces in the equation", tf.einsum("ij, jk -> ik", tf.constant(grid([2, 3])), tf.constant(grid([3, 2]))))


@tf.function
def attention(q, k, v):
    s = tf.einsum("bhqd,bhkd->bhqk", q, k)
    return tf.einsum("bhqk,bhkd->bhqd", tf.nn.softmax(s), v)


q, k, v = (tf.constant(grid([1, 2, 3, 4], 0.25, m)) for m in (5, 7, 9))
call("attention", attention, q, k, v)
graph_ops("ops attention", attention.get_concrete_function(q, k, v))
record("static shape", attention.get_concrete_function(tf.TensorSpec([None, 2, None, 4]), tf.TensorSpec([None, 2, None, 4]), tf.TensorSpec([None, 2, None, 4])).outputs[0].shape)


def graph_error(label, fn):
    try:
        tf.function(fn, autograph=False).get_concrete_function()
        record(label, "no error")
    except Exception as e:  # noqa: BLE001
        record(label, f"{type(e).__name__}: {e}")


graph_error("graph: operand dtypes differ", lambda: tf.einsum("ij,jk->ik", tf.ones([2, 3]), tf.ones([3, 4], tf.float64)))
sa, sb = tf.TensorSpec([2, 3]), tf.TensorSpec([4, 5])


def graph_error_specs(label, fn, *specs):
    try:
        tf.function(fn, autograph=False).get_concrete_function(*specs)
        record(label, "no error")
    except Exception as e:  # noqa: BLE001
        record(label, f"{type(e).__name__}: {e}")


graph_error_specs("graph: operand rank", lambda a, b: tf.einsum("ijk,jk->ik", a, b), sa, sb)
graph_error_specs("graph: contracted sizes differ", lambda a, b: tf.einsum("ij,jk->ik", a, b), sa, sb)
a2, b2 = tf.ones([2, 3]), tf.ones([3, 4])
attempt("output label not in the inputs", lambda: tf.einsum("ij,jk->iz", a2, b2))
attempt("operand count", lambda: tf.einsum("ij,jk,kl->il", a2, b2))
attempt("bad subscripts", lambda: tf.einsum("i1,jk->ik", a2, b2))
record("implicit output", tf.einsum("ij,jk", tf.constant(grid([2, 3])), tf.constant(grid([3, 4]))))
record("int32 wraps", tf.einsum("ij,jk->ik", tf.constant([[2**30, 2**30]]), tf.constant([[2], [2]])))
