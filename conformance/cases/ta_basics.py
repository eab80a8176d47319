"""tf.TensorArray: eagerly a Python list of tensors (write returns the same object, reads clear
by default, TF's OutOfRange/InvalidArgument/ValueError texts); in a tf.function TensorList ops
(TensorListReserve, SetItem, GetItem, Stack, FromTensor, Gather, ScatterIntoExistingList,
ConcatV2, Length) named as TF names them, with the kernels' run-time errors; tf.raw_ops for the
list kernels' own errors."""


def nodes(cf):
    return [[n.name, n.op, list(n.input)] for n in cf.graph.as_graph_def().node]


# ---- eager ----
# (Each write's result is used: TF wraps it in a tf_should_use proxy that logs "Object was never
# used" with TF's own frames when one is dropped.)
ta = tf.TensorArray(tf.float32, size=3)
ta = ta.write(0, 1.).write(2, 3.)
call("eager stack with an unset element", lambda: ta.stack())
call("eager size", lambda: ta.size())
call("eager read", lambda: tf.TensorArray(tf.int32, size=2).write(1, 7).read(1))
ta = tf.TensorArray(tf.float32, size=2)
ta = ta.write(0, 1.)
call("eager read once", lambda: ta.read(0))
attempt("eager read twice", lambda: ta.read(0))
ta = tf.TensorArray(tf.float32, size=2, clear_after_read=False)
ta = ta.write(0, 1.)
call("eager read twice without clear_after_read", lambda: [ta.read(0), ta.read(0)])
attempt("eager read past the end", lambda: tf.TensorArray(tf.float32, size=2).read(5))
attempt("eager read negative", lambda: tf.TensorArray(tf.float32, size=2).read(-1))
attempt("eager write past the end", lambda: tf.TensorArray(tf.float32, size=2).write(2, 1.))
attempt("eager write negative", lambda: tf.TensorArray(tf.float32, size=2).write(-1, 1.))
attempt("eager write wrong dtype",
        lambda: tf.TensorArray(tf.float32, size=2).write(0, tf.constant([1], tf.int32)))
call("eager write an int list to float", lambda: tf.TensorArray(tf.float32, size=1).write(0, [1]).stack())
ta = tf.TensorArray(tf.float32, size=2)
ta = ta.write(0, [1.])
attempt("eager write wrong shape", lambda: ta.write(1, [1., 2.]))
record("eager element_shape after a write", repr(ta.element_shape))
call("eager dynamic_size grows", lambda: tf.TensorArray(tf.float32, size=1, dynamic_size=True).write(3, 1.).stack())
call("eager empty dynamic stack", lambda: tf.TensorArray(tf.float32, size=0, dynamic_size=True).stack())
call("eager empty stack with element_shape",
     lambda: tf.TensorArray(tf.float32, size=0, dynamic_size=True, element_shape=[2]).stack())
attempt("eager stack of unset elements of unknown shape", lambda: tf.TensorArray(tf.float32, size=2).stack())
call("eager stack of unset elements of known shape",
     lambda: tf.TensorArray(tf.float32, size=2, element_shape=[3]).stack())
u = tf.TensorArray(tf.float32, size=2).unstack([[1., 2.], [3., 4.]])
call("eager unstack then concat", lambda: u.concat())
call("eager gather", lambda: tf.TensorArray(tf.float32, size=2).unstack([[1., 2.], [3., 4.]]).gather([1, 1, 0]))
record("eager element_shape after unstack", repr(u.element_shape))
attempt("eager unstack too many", lambda: tf.TensorArray(tf.float32, size=2).unstack([1., 2., 3.]))
call("eager scatter", lambda: tf.TensorArray(tf.float32, size=3).scatter([2, 0], [[1., 2.], [3., 4.]]).stack())
attempt("eager without a size", lambda: tf.TensorArray(tf.float32))
record("eager dtype and dynamic_size",
       [repr(tf.TensorArray(tf.int32, size=1).dtype), tf.TensorArray(tf.int32, size=1, dynamic_size=True).dynamic_size])


# ---- in a tf.function ----
@tf.function
def loop(x):
    ta = tf.TensorArray(tf.float32, size=3)
    for i in tf.range(3):
        ta = ta.write(i, x * tf.cast(i, tf.float32))
    return ta.stack()


x = tf.constant([1., 2.])
call("loop", loop, x)
cf = loop.get_concrete_function(x)
record("loop nodes", nodes(cf))
record("loop output shape", repr(cf.structured_outputs.shape))


@tf.function
def gather_scatter_concat():
    ta = tf.TensorArray(tf.float32, size=3)
    ta = ta.scatter([0, 2], [[1., 2.], [3., 4.]])
    return ta.stack(), ta.gather([2, 0]), ta.concat(), ta.size()


call("gather scatter concat", gather_scatter_concat)
cf = gather_scatter_concat.get_concrete_function()
record("gather scatter concat nodes", nodes(cf))
record("gather scatter concat shapes", [repr(t.shape) for t in cf.structured_outputs])


@tf.function
def squares(n):
    ta = tf.TensorArray(tf.int32, size=0, dynamic_size=True)
    for i in tf.range(n):
        ta = ta.write(i, i * i)
    return ta.stack(), ta.size()


call("dynamic squares", squares, tf.constant(4))
call("dynamic squares of 0", squares, tf.constant(0))
record("dynamic squares nodes", nodes(squares.get_concrete_function(tf.constant(4))))
count("dynamic squares traces", squares)


@tf.function
def write_twice():
    ta = tf.TensorArray(tf.float32, size=2)
    ta = ta.write(0, 1.)
    ta = ta.write(0, 2.)
    return ta.stack()


@tf.function
def inconsistent_shapes():
    ta = tf.TensorArray(tf.float32, size=2)
    ta = ta.write(0, [1.])
    ta = ta.write(1, [1., 2.])
    return ta.stack()


call("graph write an index twice", write_twice)
call("graph inconsistent shapes", inconsistent_shapes)


seen_shapes = []


@tf.function
def unstack_read(t):
    ta = tf.TensorArray(tf.float32, size=2, element_shape=[2])
    ta = ta.unstack(t)
    seen_shapes.append(repr(ta.element_shape))
    return ta.read(1)


call("graph unstack and read", unstack_read, tf.constant([[1., 2.], [3., 4.]]))
record("graph unstack element_shape", seen_shapes)
record("graph unstack and read nodes", nodes(unstack_read.get_concrete_function(tf.constant([[1., 2.], [3., 4.]]))))

# ---- the list kernels' own errors (raw ops) ----
R = tf.raw_ops
lst = R.TensorListReserve(element_shape=[2], num_elements=3, element_dtype=tf.float32)
lst = R.TensorListSetItem(input_handle=lst, index=1, item=[1., 2.])
call("gather", lambda: R.TensorListGather(input_handle=lst, indices=[1, 0, 1], element_shape=[-1], element_dtype=tf.float32))
call("gather out of range", lambda: R.TensorListGather(input_handle=lst, indices=[1, 5], element_shape=[-1], element_dtype=tf.float32))
call("gather 2-d indices", lambda: R.TensorListGather(input_handle=lst, indices=[[1, 0]], element_shape=[-1], element_dtype=tf.float32))
call("gather element_shape mismatch", lambda: R.TensorListGather(input_handle=lst, indices=[0], element_shape=[3], element_dtype=tf.float32))
call("gather element_shape rank", lambda: R.TensorListGather(input_handle=lst, indices=[0], element_shape=[3, 1], element_dtype=tf.float32))
call("gather dtype", lambda: R.TensorListGather(input_handle=lst, indices=[0], element_shape=-1, element_dtype=tf.int32))
unk = R.TensorListReserve(element_shape=-1, num_elements=3, element_dtype=tf.float32)
call("gather uninitialized", lambda: R.TensorListGather(input_handle=unk, indices=[0], element_shape=-1, element_dtype=tf.float32))
mixed = R.TensorListSetItem(input_handle=R.TensorListSetItem(input_handle=unk, index=0, item=1.), index=2, item=[1., 2.])
call("gather mixed ranks", lambda: R.TensorListGather(input_handle=mixed, indices=[0, 2], element_shape=-1, element_dtype=tf.float32))
call("gather with an unset element", lambda: R.TensorListGather(input_handle=mixed, indices=[2, 1], element_shape=-1, element_dtype=tf.float32))
S = R.TensorListScatterIntoExistingList
stack2 = lambda l: R.TensorListStack(input_handle=l, element_shape=[2], element_dtype=tf.float32)
call("scatter", lambda: stack2(S(input_handle=lst, tensor=[[5., 6.], [7., 8.]], indices=[2, 0])))
call("scatter past the end grows", lambda: R.TensorListLength(input_handle=S(input_handle=lst, tensor=[[5., 6.]], indices=[4])))
call("scatter count", lambda: S(input_handle=lst, tensor=[[5., 6.], [7., 8.]], indices=[1]))
call("scatter dtype", lambda: S(input_handle=lst, tensor=[[5, 6]], indices=[1]))
call("scatter scalar", lambda: S(input_handle=lst, tensor=5., indices=[1]))
call("scatter 2-d indices", lambda: S(input_handle=lst, tensor=[[5., 6.]], indices=[[1]]))
lead = tf.zeros([0], tf.int64)
C = lambda l, es: R.TensorListConcatV2(input_handle=l, element_shape=es, leading_dims=lead, element_dtype=tf.float32)
two = R.TensorListReserve(element_shape=-1, num_elements=2, element_dtype=tf.float32)
call("concat", lambda: C(R.TensorListSetItem(input_handle=R.TensorListSetItem(input_handle=two, index=0, item=[1., 2.]), index=1, item=[3.]), -1))
call("concat unset with element_shape", lambda: C(lst, -1))
call("concat only unset", lambda: C(two, -1))
call("concat only unset [-1, 3]", lambda: C(two, [-1, 3]))
call("concat only unset [2, 3]", lambda: C(two, [2, 3]))
one = R.TensorListSetItem(input_handle=two, index=1, item=[[1., 2., 3.]])
call("concat infers the unset shape", lambda: C(one, -1))
call("concat first dim mismatch", lambda: C(one, [2, 3]))
call("concat scalars", lambda: C(R.TensorListSetItem(input_handle=R.TensorListSetItem(input_handle=two, index=0, item=1.), index=1, item=2.), -1))
call("concat shape mismatch", lambda: C(R.TensorListSetItem(input_handle=R.TensorListSetItem(input_handle=two, index=0, item=[[1., 2.]]), index=1, item=[[2., 3., 4.]]), -1))
empty = R.TensorListReserve(element_shape=-1, num_elements=0, element_dtype=tf.float32)
call("concat empty", lambda: C(empty, -1))
call("concat empty [-1, 3]", lambda: C(empty, [-1, 3]))
