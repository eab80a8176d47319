"""BERT-tiny end to end (python/tfscope/models): the model restored from a checkpoint that real TF
2.21 writes with BERT's variable names (tf.compat.v1.train.Saver, as google-research/bert's
checkpoints are), tf.train.load_checkpoint's reader against TF's, training on the generated pair
task, and the SavedModel tfscope writes loaded and run by TF. The TF side runs in the conformance
oracle's environment, on this machine, with the same model source (loaded by path)."""
import json
import os

import numpy as np
import pytest

import tfscope as tf
import watch_oracle
from tfscope.models import bert_tiny, bert_train, pair_task

MODELS = os.path.dirname(os.path.abspath(bert_tiny.__file__))
CONFIG = bert_tiny.BertConfig(vocab_size=64, max_position_embeddings=64)

# The TF side: the model files loaded by path (they import only numpy), the model built on TF.
_TF_PRELUDE = r"""
import importlib.util, json, os, sys
import numpy as np
import tensorflow as tf

def load(name):
    spec = importlib.util.spec_from_file_location(name, os.path.join(sys.argv[1], name + ".py"))
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod

bert_tiny = load("bert_tiny")
pair_task = load("pair_task")
CONFIG = bert_tiny.BertConfig(vocab_size=64, max_position_embeddings=64)
out_dir = sys.argv[2]
"""

_TF_WRITE_CHECKPOINT = _TF_PRELUDE + r"""
model = bert_tiny.BertClassifier(tf, CONFIG, seed=7)
saver = tf.compat.v1.train.Saver({v.name[:-2]: v for v in model.variables})
prefix = saver.save(None, os.path.join(out_dir, "bert_model.ckpt"))
d = pair_task.generate(6, seed=11)
logits = model(tf.constant(d.input_ids), tf.constant(d.input_mask), tf.constant(d.segment_ids))
reader = tf.train.load_checkpoint(out_dir)
np.savez(os.path.join(out_dir, "tf.npz"), logits=logits.numpy(),
         **{"var:" + v.name[:-2]: v.numpy() for v in model.variables})
json.dump({"prefix": prefix, "list": tf.train.list_variables(out_dir),
           "dtypes": {k: v.name for k, v in reader.get_variable_to_dtype_map().items()}},
          open(os.path.join(out_dir, "tf.json"), "w"))
"""

_TF_RUN_SAVED_MODEL = _TF_PRELUDE + r"""
z = np.load(os.path.join(out_dir, "inputs.npz"))
loaded = tf.saved_model.load(os.path.join(out_dir, "bert_sm"))
sig = loaded.signatures["serving_default"]
out = sig(input_ids=tf.constant(z["ids"]), input_mask=tf.constant(z["mask"]),
          segment_ids=tf.constant(z["seg"]))
np.save(os.path.join(out_dir, "tf_logits.npy"), out["logits"].numpy())
from tensorflow.python.util import _pywrap_util_port
json.dump({"onednn": bool(_pywrap_util_port.IsMklEnabled()),
           "inputs": sorted(sig.structured_input_signature[1]),
           "outputs": sorted(sig.structured_outputs), "weights": sorted(loaded.weights)},
          open(os.path.join(out_dir, "tf.json"), "w"))
"""


def run_tf(tmp_path, program):
    script = tmp_path / "tf_side.py"
    script.write_text(program)
    watch_oracle.run(tmp_path, [str(script), MODELS, str(tmp_path)])


def test_names_are_the_public_checkpoints():
    """The names google-research/bert's modeling.py and run_classifier.py give the variables."""
    names = list(bert_tiny.variable_shapes(bert_tiny.BertConfig()))
    assert names[:5] == ["bert/embeddings/word_embeddings", "bert/embeddings/token_type_embeddings",
                         "bert/embeddings/position_embeddings", "bert/embeddings/LayerNorm/gamma",
                         "bert/embeddings/LayerNorm/beta"]
    assert "bert/encoder/layer_1/attention/self/query/kernel" in names
    assert "bert/encoder/layer_0/attention/output/LayerNorm/beta" in names
    assert "bert/encoder/layer_1/intermediate/dense/kernel" in names
    assert names[-4:] == ["bert/pooler/dense/kernel", "bert/pooler/dense/bias", "output_weights",
                          "output_bias"]
    # 2 layers of 16 tensors, 5 embedding tensors, the pooler's 2 and the classifier's 2.
    assert len(names) == 5 + 2 * 16 + 2 + 2
    shapes = bert_tiny.variable_shapes(bert_tiny.BertConfig())
    assert shapes["bert/embeddings/word_embeddings"] == (30522, 128)
    assert shapes["bert/encoder/layer_0/intermediate/dense/kernel"] == (128, 512)
    assert shapes["output_weights"] == (3, 128)


def test_restore_from_a_tf_checkpoint(tmp_path):
    run_tf(tmp_path, _TF_WRITE_CHECKPOINT)
    with open(tmp_path / "tf.json") as f:
        tf_side = json.load(f)
    z = np.load(tmp_path / "tf.npz")
    # The reader: what TF's says of the same checkpoint.
    assert tf.train.latest_checkpoint(str(tmp_path)) == tf_side["prefix"]
    assert [[k, s] for k, s in tf.train.list_variables(str(tmp_path))] == tf_side["list"]
    reader = tf.train.load_checkpoint(tf_side["prefix"])
    assert {k: v.name for k, v in reader.get_variable_to_dtype_map().items()} == tf_side["dtypes"]
    # The model: seeded differently, then every variable restored by name.
    model = bert_tiny.BertClassifier(tf, CONFIG, seed=0)
    bert_tiny.load_checkpoint(tf, model, str(tmp_path))
    for name, var in model.weights.items():
        np.testing.assert_array_equal(var.numpy(), z["var:" + name], err_msg=name)
    d = pair_task.generate(6, seed=11)
    logits = model(tf.constant(d.input_ids), tf.constant(d.input_mask),
                   tf.constant(d.segment_ids)).numpy()
    np.testing.assert_allclose(logits, z["logits"], rtol=1e-5, atol=1e-6)


def test_checkpoint_errors(tmp_path):
    run_tf(tmp_path, _TF_WRITE_CHECKPOINT)
    small = bert_tiny.BertClassifier(tf, bert_tiny.BertConfig(vocab_size=40,
                                                              max_position_embeddings=64))
    with pytest.raises(ValueError, match="bert/embeddings/word_embeddings has shape \\[64, 128\\], "
                                         "the model's is \\[40, 128\\]"):
        bert_tiny.load_checkpoint(tf, small, str(tmp_path))
    three = bert_tiny.BertClassifier(tf, bert_tiny.BertConfig(
        vocab_size=64, max_position_embeddings=64, num_hidden_layers=3))
    with pytest.raises(ValueError, match="has no variable bert/encoder/layer_2/"):
        bert_tiny.load_checkpoint(tf, three, str(tmp_path))
    # TF's own texts (tf.train.load_checkpoint in TF 2.21).
    reader = tf.train.load_checkpoint(str(tmp_path))
    assert not reader.has_tensor("nope")
    with pytest.raises(tf.errors.NotFoundError, match="^Key nope not found in checkpoint$"):
        reader.get_tensor("nope")
    missing = str(tmp_path / "missing")
    with pytest.raises(tf.errors.NotFoundError) as e:
        tf.train.load_checkpoint(missing)
    assert str(e.value) == ("Unsuccessful TensorSliceReader constructor: Failed to find any "
                            "matching files for " + missing)
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(ValueError) as e:
        tf.train.load_checkpoint(str(empty))
    assert str(e.value) == ("Couldn't find 'checkpoint' file or checkpoints in given directory "
                            + str(empty))


def test_training_learns_the_pair_task():
    """A short training run (the demo's is longer): the loss falls and the held-out accuracy is
    well above chance (1/3): at least the NOT rule (contradiction) is learned."""
    r = bert_train.train(tf, steps=120)
    assert r["train_step"].experimental_get_tracing_count() == 1
    assert np.mean(r["losses"][-20:]) < 0.75 * np.mean(r["losses"][:20])
    assert r["float_accuracy"] > 0.55, r["float_accuracy"]


def test_saved_model_runs_in_tf(tmp_path):
    model = bert_tiny.BertClassifier(tf, CONFIG, seed=4)
    serve = bert_tiny.serving_function(tf, model)
    tf.saved_model.save(model, str(tmp_path / "bert_sm"), signatures={"serving_default": serve})
    d = pair_task.generate(8, seed=12)
    np.savez(tmp_path / "inputs.npz", ids=d.input_ids, mask=d.input_mask, seg=d.segment_ids)
    ours = serve(tf.constant(d.input_ids), tf.constant(d.input_mask),
                 tf.constant(d.segment_ids))["logits"].numpy()
    run_tf(tmp_path, _TF_RUN_SAVED_MODEL)
    with open(tmp_path / "tf.json") as f:
        tf_side = json.load(f)
    onednn = tf_side.pop("onednn")
    assert tf_side == {"inputs": ["input_ids", "input_mask", "segment_ids"],
                       "outputs": ["logits"], "weights": sorted(model.weights)}
    theirs = np.load(tmp_path / "tf_logits.npy")
    # Bit for bit where TF runs the graph as traced; with oneDNN TF's remapper fuses MatMul,
    # BiasAdd and the exact Gelu into one oneDNN kernel with its own erf (a few ulps).
    np.testing.assert_allclose(theirs, ours, rtol=1e-5, atol=1e-7)
    if not onednn:
        np.testing.assert_array_equal(theirs, ours)


def test_demo_section_bert_reports_float_and_int8(tmp_path):
    """`tfscope demo --json --only bert` (the installed command, which runs the Python module):
    one trace of the training step, accuracy well above chance (1/3), the dynamic-range int8 model
    within two test examples' accuracy of the float one, a logit delta that is there (int8
    weights) but small, and int8 weights a quarter of the float model's size or less (plus the
    unquantized biases and norms)."""
    import subprocess
    import tfscope
    exe = os.path.join(os.path.dirname(tfscope.__file__), "_bin", "tfscope")
    if not os.access(exe, os.X_OK):
        pytest.fail("the installed package carries no tfscope command (%s)" % exe)
    env = dict(os.environ, TMPDIR=str(tmp_path))  # its SavedModel and .tflite files go there
    p = subprocess.run([exe, "demo", "--json", "--only", "bert"], capture_output=True, text=True,
                       timeout=600, env=env)
    assert p.returncode == 0, p.stderr[-2000:]
    b = json.loads(p.stdout)["bert"]
    assert "error" not in b and "int8_error" not in b, b
    assert b["train_traces"] == 1
    assert b["final_loss"] < 0.75 * b["first_loss"]
    assert b["float_accuracy"] > 0.55, b["float_accuracy"]
    assert abs(b["accuracy_delta"]) <= 2.0 / b["test_examples"] + 1e-9, b
    assert b["accuracy_delta"] == pytest.approx(b["int8_accuracy"] - b["float_accuracy"])
    assert 0.0 < b["max_abs_logit_delta"] < 0.05, b["max_abs_logit_delta"]
    assert b["int8_model_bytes"] < 0.35 * b["float_model_bytes"], b
    assert b["savedmodel_roundtrip_exact"] is True
    assert b["savedmodel_dir"].startswith(str(tmp_path))
    # Which ops were quantized: exactly the operators of the int8 file that read an int8
    # constant tensor, as the file's own tensors say (tf.lite.inspect), and only the weight ops.
    facts = tf.lite.inspect(os.path.join(os.path.dirname(b["savedmodel_dir"]),
                                         "bert_tiny_int8.tflite"), as_json=True)
    sub = facts["subgraphs"][0]
    tensors = sub["tensors"]
    int8_readers = sorted(o["builtin"] for o in sub["operators"]
                          if any(i >= 0 and tensors[i]["type"] == "INT8" and
                                 tensors[i]["const_bytes"] > 0 for i in o["inputs"]))
    assert int8_readers and set(int8_readers) <= {"FULLY_CONNECTED", "GATHER"}, int8_readers
    assert sorted(q.split()[0] for q in b["quantized_ops"]) == int8_readers, b["quantized_ops"]
    # The delta per layer: one entry per float operator, non-negative, the quantized ones among
    # them, and the last one (the logits) carrying the probes' largest output delta.
    layers = b["per_layer_delta"]
    float_sub = tf.lite.inspect(os.path.join(os.path.dirname(b["savedmodel_dir"]),
                                             "bert_tiny_float.tflite"), as_json=True)["subgraphs"][0]
    assert len(layers) == len(float_sub["operators"])
    assert all(l["max_abs_delta"] >= l["mean_abs_delta"] >= 0.0 for l in layers), layers
    assert sum(l["quantized"] for l in layers) == len(int8_readers)
    assert [layers[-1]["tensor"]] == [float_sub["tensors"][i]["name"] for i in float_sub["outputs"]]
    assert layers[-1]["max_abs_delta"] == b["probe_max_abs_logit_delta"] > 0.0
    assert max(l["max_abs_delta"] for l in layers if l["quantized"]) > 0.0
