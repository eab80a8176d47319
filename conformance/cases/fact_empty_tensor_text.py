"""How an empty tensor prints (str and repr): numpy's "[]" whatever the shape, the shape named in
the repr unless it is (0,); a max_pool2d whose window is larger than its input (VALID) is one."""
for shape in ([0], [2, 0], [0, 3], [1, 0, 0, 3], [2, 0, 1]):
    t = tf.zeros(shape)
    print(t)
    print(repr(t))
print(repr(tf.zeros([2, 0], tf.int32)))
print(tf.constant([["a"], ["b"]])[:, :0])
v = tf.Variable(tf.zeros([3, 0]))
print(repr(v))
