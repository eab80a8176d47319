"""Records TF 2.21's HLO text (stage='hlo') for the functions tests/hlo/hlo_test.cc lowers.

Run with the oracle: /root/.cache/tfscope/oracle-venv/bin/python tests/hlo/record_tf.py
The text depends on TF's version only (not on the CPU); conformance/hlo_ir.py checks the same
families live.
"""
import os
import tensorflow as tf

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "tf_2_21")


def dense(x, w):
    return tf.nn.relu(tf.matmul(x, w) + 1.0)


def means(x):
    return tf.reduce_mean(x, axis=0, keepdims=True), tf.reduce_max(x)


def shapes(x):
    return tf.transpose(tf.reshape(x, [3, 2])) - tf.constant([1.0, 2.0, 3.0])


def softmax(x):
    return tf.nn.softmax(x)


def gather_slice(x):
    return tf.slice(tf.gather(x, [2, 0]), [0, 1], [2, 2]), tf.argmax(x, axis=1)


def gelu(x):
    return tf.nn.gelu(x)


def cond(x):
    return tf.cond(tf.reduce_sum(x) > 0.0, lambda: x * 2.0, lambda: x - 1.0)


def while_loop(x):
    return tf.while_loop(lambda i, y: i < 3, lambda i, y: (i + 1, y * 2.0), [tf.constant(0), x])


CASES = {
    "dense": (dense, tf.ones([2, 3]), tf.ones([3, 4])),
    "means": (means, tf.ones([2, 3])),
    "shapes": (shapes, tf.ones([2, 3])),
    "softmax": (softmax, tf.ones([2, 3])),
    "gather_slice": (gather_slice, tf.ones([3, 4])),
    "gelu": (gelu, tf.ones([2, 3])),
    "cond": (cond, tf.ones([2, 3])),
    "while_loop": (while_loop, tf.ones([2, 3])),
}

if __name__ == "__main__":
    os.makedirs(HERE, exist_ok=True)
    for name, (fn, *args) in CASES.items():
        text = tf.function(fn, jit_compile=True).experimental_get_compiler_ir(*args)(stage="hlo")
        with open(os.path.join(HERE, name + ".hlo"), "w") as f:
            f.write(text)
        print("wrote", name)
