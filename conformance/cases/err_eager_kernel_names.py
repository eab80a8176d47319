"""Eager kernel errors name the function TF wraps the op in; with oneDNN on (TF's default on this
kind of CPU, off under TF_ENABLE_ONEDNN_OPTS=0 or on CPUs without AVX-512 VNNI/BF16 or AMX) TF
rewrites float32 MatMul, BatchMatMulV2, Einsum, the convolutions and AvgPool to its oneDNN ops
first, and the name is the rewritten op's; other dtypes and MaxPool keep theirs."""
# conformance: live-only: the wrapper names and texts depend on whether TF runs oneDNN on this CPU (and TF_ENABLE_ONEDNN_OPTS)
call("matmul", lambda: tf.linalg.matmul(tf.zeros([2, 3]), tf.zeros([2, 3])))
call("matmul float64", lambda: tf.linalg.matmul(tf.zeros([2, 3], tf.float64), tf.zeros([2, 3], tf.float64)))
call("batch matmul", lambda: tf.linalg.matmul(tf.zeros([1, 2, 3]), tf.zeros([1, 2, 3])))
call("einsum", lambda: tf.einsum("ij,jk->ik", tf.zeros([2, 3]), tf.zeros([2, 3])))
call("einsum int32", lambda: tf.einsum("ij,jk->ik", tf.zeros([2, 3], tf.int32), tf.zeros([2, 3], tf.int32)))
call("conv2d", lambda: tf.nn.conv2d(tf.zeros([1, 4, 4, 3]), tf.zeros([2, 2, 2, 1]), 1, "VALID"))
call("depthwise", lambda: tf.nn.depthwise_conv2d(tf.zeros([1, 4, 4, 3]), tf.zeros([2, 2, 2, 1]), [1, 1, 1, 1], "VALID"))
call("avg_pool", lambda: tf.nn.avg_pool2d(tf.zeros([1, 4, 4]), 2, 1, "VALID"))
call("max_pool", lambda: tf.nn.max_pool2d(tf.zeros([1, 4, 4]), 2, 1, "VALID"))
call("softmax of a scalar", lambda: tf.nn.softmax(tf.zeros([])))
