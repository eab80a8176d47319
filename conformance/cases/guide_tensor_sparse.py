"""TF's "Introduction to Tensors" guide, its sparse section: a SparseTensor printed, then made
dense."""
sparse_tensor = tf.sparse.SparseTensor(indices=[[0, 0], [1, 2]], values=[1, 2], dense_shape=[3, 4])
print(sparse_tensor, "\n")
print(tf.sparse.to_dense(sparse_tensor))
