"""The Variables guide as users run it: a variable's repr (numpy's text on its own line when it spans several), assign's shape check and its error, assign_add/sub, variables of bool and complex, tf.device (every spec form, its parsing errors, a variable's and a tensor's device), a Python list @ a variable or tensor, the operators a variable takes (not the bitwise ones on integers: tfscope has no BitwiseAnd/Or/Xor/Invert yet), and gradients with respect to variables of several kinds."""
my_tensor = tf.constant([[1.0, 2.0], [3.0, 4.0]])
my_variable = tf.Variable(my_tensor)
record("repr of a 2x2 variable", repr(my_variable))
record("repr of a scalar variable", repr(tf.Variable(1.5, name="s")))
record("repr of bool and complex variables",
       [repr(tf.Variable([False, True])), repr(tf.Variable([5 + 4j, 6 + 1j]))])
record("argmax and reshape", [tf.math.argmax(my_variable), tf.reshape(my_variable, [1, 4])])
a = tf.Variable([2.0, 3.0])
record("assign ints", a.assign([1, 2]))
attempt("assign another shape", lambda: a.assign([1.0, 2.0, 3.0]))
attempt("assign another shape (a tensor)", lambda: a.assign(tf.constant([[1.0, 2.0]])))
b = tf.Variable(a)
a.assign([5, 6])
record("a copy keeps its value", [a, b])
record("assign_add, assign_sub", [a.assign_add([2, 3]).numpy(), a.assign_sub([7, 9]).numpy()])
record("two variables of one name", [tf.Variable(my_tensor, name="Mark").name,
                                     tf.Variable(my_tensor + 1, name="Mark").name])
record("a == b", tf.Variable(my_tensor, name="Mark") == tf.Variable(my_tensor + 1, name="Mark"))

with tf.device("CPU:0"):
    dv = tf.Variable([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    dc = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    record("matmul under tf.device", tf.matmul(dv, dc))
record("devices", [dv.device, dc.device, tf.constant(1.0).device])
for spec in ["/cpu:0", "GPU", "cpu:*", "", "CPU:0/GPU:0", "device:CPU:x", "CPU:a", "XYZ:0", 3]:
    def enter(spec=spec):
        with tf.device(spec):
            return tf.constant(1.0).device
    call(f"tf.device({spec!r})", enter)
attempt("tf.device('XYZ:0') not entered", lambda: tf.device("XYZ:0"))

w = tf.Variable(tf.constant([[0.5, -1.0], [2.0, 0.25], [-0.75, 1.5]]), name="w")
bias = tf.Variable(tf.zeros(2, dtype=tf.float32), name="b")
xx = [[1.0, 2.0, 3.0]]
record("list @ variable", xx @ w)
record("list @ tensor", xx @ tf.constant([[1.0], [2.0], [3.0]]))
with tf.GradientTape(persistent=True) as tape:
    y = xx @ w + bias
    loss = tf.reduce_mean(y ** 2)
dl_dw, dl_db = tape.gradient(loss, [w, bias])
record("gradients", [dl_dw, dl_db, tape.gradient(loss, {"w": w, "b": bias})])
x0 = tf.Variable(3.0, name="x0")
x1 = tf.Variable(3.0, name="x1", trainable=False)
x2 = tf.Variable(2.0, name="x2") + 1.0
x3 = tf.constant(3.0, name="x3")
with tf.GradientTape() as tape:
    y = (x0 ** 2) + (x1 ** 2) + (x2 ** 2)
record("gradients of trainable, non-trainable, tensor, constant", tape.gradient(y, [x0, x1, x2, x3]))
record("watched", [v.name for v in tape.watched_variables()])
iv = tf.Variable([6, 7])
record("integer variable operators", [iv // 4, 4 // iv, iv % 4, 20 % iv, 2 ** iv, -iv, abs(-iv)])
bv = tf.Variable([True, False])
record("bool variable operators", [bv & True, bv | False, ~bv])
