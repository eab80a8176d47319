"""Errors: len() (autograph=False vs on), np.array() and .numpy() on symbolic tensors."""
@tf.function(autograph=False)
def length(x):
    return len(x)

call("len", length, tf.constant([1, 2, 3]))

@tf.function
def length_ag(x):
    return len(x)

call("len with autograph", length_ag, tf.constant([1, 2, 3]))

@tf.function
def to_numpy(x):
    return np.array(x)

call("np.array", to_numpy, tf.constant([1, 2]))

@tf.function
def numpy_method(x):
    return x.numpy()

call(".numpy() in graph", numpy_method, tf.constant([1, 2]))
