"""Records tests/savedmodel/fixtures/: SavedModels written by TF 2.21 and TF's outputs on fixed
inputs, for saved_model_tests (which must not need TF to run).

  tf_mlp/            tf.Module MLP (tf.Variables, tf.function with input_signature [None, 4])
  tf_mlp.json        {"inputs": [x...], "outputs": [serving_default output_0 ...]} as hex float32
  tf_gated/          the same with a tf.cond (If + branch functions) in the function
  tf_gated.json

  python conformance/saved_model/make_fixtures.py
"""
import json
import os
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run as R  # noqa: E402
import tensorflow as tf  # noqa: E402

OUT = os.path.join(R.ROOT, "tests", "savedmodel", "fixtures")


def record(module, name):
    d = os.path.join(OUT, name)
    shutil.rmtree(d, ignore_errors=True)
    tf.saved_model.save(module, d)
    sig = tf.saved_model.load(d).signatures["serving_default"]
    inputs = R.random_inputs(5)[:8]
    outputs = [sig(x=tf.constant(x))["output_0"].numpy() for x in inputs]
    with open(d + ".json", "w") as f:
        json.dump({"inputs": [R.to_json(x) for x in inputs],
                   "outputs": [R.to_json(y) for y in outputs]}, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    os.makedirs(OUT, exist_ok=True)
    record(R.Mlp(), "tf_mlp")
    record(R.Gated(), "tf_gated")
