"""tf.saved_model and tf.lite through the Python API, checked against numpy written out here.

The byte-level and cross-loading checks against real TF and LiteRT live in conformance/saved_model
and conformance/tflite; these tests pin the Python surface.
"""
import os

import numpy as np
import pytest

import tfscope as tf


class Dense(tf.Module):
    def __init__(self, n_in, n_out, seed):
        super().__init__()
        rng = np.random.default_rng(seed)
        self.w = tf.Variable(rng.standard_normal((n_in, n_out)).astype(np.float32) * 0.1)
        self.b = tf.Variable(rng.standard_normal(n_out).astype(np.float32) * 0.1)

    @tf.function(input_signature=[tf.TensorSpec([None, 64], tf.float32)])
    def __call__(self, x):
        return tf.nn.relu(tf.matmul(x, self.w) + self.b)


def numpy_dense(m, x):
    return np.maximum(x @ m.w.numpy() + m.b.numpy(), 0.0)


def test_saved_model_round_trip_is_exact(tmp_path):
    m = Dense(64, 32, seed=1)
    x = np.random.default_rng(2).standard_normal((5, 64)).astype(np.float32)
    expected = m(tf.constant(x)).numpy()
    np.testing.assert_allclose(expected, numpy_dense(m, x), rtol=1e-5, atol=1e-6)
    path = str(tmp_path / "dense")
    tf.saved_model.save(m, path)
    loaded = tf.saved_model.load(path)
    out = loaded.signatures["serving_default"](x=tf.constant(x))
    (value,) = out.values()
    np.testing.assert_array_equal(value.numpy(), expected)  # bit-exact after the round trip


class _Scale(tf.Module):
    def __init__(self):
        super().__init__()
        self.k = tf.Variable(3.0)
        self.inner = Dense(64, 32, seed=5)

    @tf.function
    def scale(self, x):
        return x * self.k


def test_saved_module_restores_with_its_methods_and_traces(tmp_path):
    m = _Scale()
    m.scale(tf.constant(2.0))
    m.scale(tf.constant([1.0, 2.0]))
    path = str(tmp_path / "scale")
    tf.saved_model.save(m, path)
    loaded = tf.saved_model.load(path)
    assert loaded.k.numpy() == 3.0
    assert loaded.scale(tf.constant(4.0)).numpy() == 12.0
    assert loaded.scale(tf.constant([1.0, -2.0])).numpy().tolist() == [3.0, -6.0]
    assert loaded.scale(0.5).numpy() == 1.5  # a Python float converts to the scalar trace
    x = np.random.default_rng(6).standard_normal((3, 64)).astype(np.float32)
    np.testing.assert_array_equal(loaded.inner(tf.constant(x)).numpy(),
                                  m.inner(tf.constant(x)).numpy())
    # TF 2.21's text for an input no saved trace accepts (recorded from TF).
    with pytest.raises(ValueError) as e:
        loaded.scale(tf.constant([1.0, 2.0, 3.0]))
    assert str(e.value) == (
        "Could not find matching concrete function to call loaded from the SavedModel. Got:\n"
        "  Positional arguments (1 total):\n"
        "    * <tf.Tensor 'x:0' shape=(3,) dtype=float32>\n"
        "  Keyword arguments: {}\n\n"
        " Expected these arguments to match one of the following 2 option(s):\n\n"
        "Option 1:\n  Positional arguments (1 total):\n"
        "    * TensorSpec(shape=(), dtype=tf.float32, name='x')\n  Keyword arguments: {}\n\n"
        "Option 2:\n  Positional arguments (1 total):\n"
        "    * TensorSpec(shape=(2,), dtype=tf.float32, name='x')\n  Keyword arguments: {}")
    assert loaded.fingerprint["version"] == 4


def test_tflite_interpreter_tensor_calls_take_any_array_and_reject_bad_indices():
    # set_tensor / get_tensor run in C++ (NumPy's C API): arrays that are not float32 and
    # C-contiguous go through numpy.ascontiguousarray's conversion, and every output is a new array.
    m = Dense(64, 32, seed=5)
    model = tf.lite.TFLiteConverter.from_concrete_functions(
        [m.__call__.get_concrete_function()], m).convert()
    interp = tf.lite.Interpreter(model_content=model)
    i_in = interp.get_input_details()[0]["index"]
    i_out = interp.get_output_details()[0]["index"]
    rng = np.random.default_rng(8)
    x64 = rng.standard_normal((3, 64))  # float64, batch 3 (the file declares batch 1)
    want = numpy_dense(m, x64.astype(np.float32))
    wide = np.zeros((3, 128), np.float32)
    wide[:, ::2] = x64
    for value in [x64.astype(np.float32), x64, x64.tolist(), wide[:, ::2],
                  np.asfortranarray(x64.astype(np.float32)), x64.astype(">f4")]:
        interp.set_tensor(i_in, value)
        interp.invoke()
        np.testing.assert_allclose(interp.get_tensor(i_out), want, rtol=1e-5, atol=1e-6)
    x = x64[:1].astype(np.float32)
    interp.set_tensor(i_in, x)
    assert interp.get_tensor(i_in) is x  # the input as set_tensor kept it
    interp.invoke()
    y1, y2 = interp.get_tensor(i_out), interp.get_tensor(i_out)
    assert y1.shape == (1, 32) and y1.dtype == np.float32 and y1 is not y2
    y1[:] = 0  # a copy: the interpreter's output and the next get_tensor are untouched
    np.testing.assert_allclose(y2, numpy_dense(m, x), rtol=1e-5, atol=1e-6)
    np.testing.assert_array_equal(interp.get_tensor(i_out), y2)
    for call, err, text in [
            (lambda: interp.set_tensor(i_out, x), ValueError, "Invalid tensor index 1: set_tensor "
             "takes tfscope.lite.Interpreter's inputs 0..0"),
            (lambda: interp.set_tensor(-1, x), ValueError, "Invalid tensor index -1: set_tensor "
             "takes tfscope.lite.Interpreter's inputs 0..0"),
            (lambda: interp.get_tensor(7), ValueError, "Invalid tensor index 7: get_tensor takes "
             "tfscope.lite.Interpreter's inputs 0..0 and outputs 1..1"),
            (lambda: interp.get_tensor(-2), ValueError, "Invalid tensor index -2: get_tensor"),
            (lambda: interp.get_tensor("0"), TypeError, "tensor_index must be an int, got '0'"),
            (lambda: interp.get_tensor(None), TypeError, "tensor_index must be an int, got None"),
            (lambda: interp.set_tensor(i_in, None), TypeError, "value must be an array, got None"),
            (lambda: interp.get_tensor(i_out, 1), ValueError, "runs the first subgraph only"),
            # a shape the model cannot take fails when the run is planned, at invoke
            (lambda: (interp.set_tensor(i_in, np.zeros((1, 63), np.float32)), interp.invoke()),
             ValueError, "")]:
        with pytest.raises(err) as e:
            call()
        assert text in str(e.value) and "\n" not in str(e.value), str(e.value)
    # numpy integers index as ints; a subclass's own set_tensor is the one called
    interp.set_tensor(np.int32(i_in), x)

    class Logged(tf.lite.Interpreter):
        calls = 0

        def set_tensor(self, tensor_index, value):
            Logged.calls += 1
            super().set_tensor(tensor_index, value)

    sub = Logged(model_content=model)
    sub.set_tensor(i_in, x)
    sub.invoke()
    assert Logged.calls == 1
    np.testing.assert_array_equal(sub.get_tensor(i_out), y2)


def test_tflite_float_model_matches_numpy_and_int8_weights_follow_tfs_rule():
    m = Dense(64, 32, seed=3)
    cf = m.__call__.get_concrete_function()
    x = np.random.default_rng(4).standard_normal((1, 64)).astype(np.float32)

    float_model = tf.lite.TFLiteConverter.from_concrete_functions([cf], m).convert()
    interp = tf.lite.Interpreter(model_content=float_model)
    interp.allocate_tensors()
    interp.set_tensor(interp.get_input_details()[0]["index"], x)
    interp.invoke()
    y = interp.get_tensor(interp.get_output_details()[0]["index"])
    np.testing.assert_allclose(y, numpy_dense(m, x), rtol=1e-5, atol=1e-6)

    conv = tf.lite.TFLiteConverter.from_concrete_functions([cf], m)
    conv.optimizations = [tf.lite.Optimize.DEFAULT]
    int8_model = conv.convert()
    assert len(int8_model) < len(float_model)  # the 64x32 kernel (2048 >= 1024 elements) is int8
    interp = tf.lite.Interpreter(model_content=int8_model)
    interp.allocate_tensors()
    interp.set_tensor(interp.get_input_details()[0]["index"], x)
    interp.invoke()
    yq = interp.get_tensor(interp.get_output_details()[0]["index"])
    # TF's rule, written out: per output row, scale = max|w| / 127, q = round half away from zero.
    w = m.w.numpy().T.astype(np.float64)
    scale = np.abs(w).max(axis=1, keepdims=True) / 127.0
    q = np.clip(np.sign(w / scale) * np.floor(np.abs(w / scale) + 0.5), -127, 127)
    y_weights_only = np.maximum(x.astype(np.float64) @ (q * scale).T + m.b.numpy(), 0.0)
    # What remains is the kernel's own int8 quantization of the input row (asymmetric, 8 bits).
    input_step = (x.max() - x.min()) / 255.0
    bound = input_step * np.abs(q * scale).sum(axis=1).max()
    assert np.abs(yq - y_weights_only).max() <= bound


class SmallCnn(tf.Module):
    def __init__(self):
        super().__init__()
        rng = np.random.default_rng(5)
        self.w1 = tf.Variable(rng.standard_normal((3, 3, 1, 8)).astype(np.float32) * 0.3)
        self.b1 = tf.Variable(rng.standard_normal(8).astype(np.float32) * 0.1)
        self.dw = tf.Variable(rng.standard_normal((3, 3, 8, 16)).astype(np.float32) * 0.3)
        self.wd = tf.Variable(rng.standard_normal((4 * 4 * 128, 10)).astype(np.float32) * 0.05)

    @tf.function(input_signature=[tf.TensorSpec([None, 8, 8, 1], tf.float32)])
    def __call__(self, x):
        y = tf.nn.relu(tf.nn.bias_add(tf.nn.conv2d(x, self.w1, 1, "SAME"), self.b1))
        y = tf.nn.relu6(tf.nn.max_pool2d(y, 2, 2, "VALID"))
        y = tf.nn.depthwise_conv2d(y, self.dw, [1, 1, 1, 1], "SAME")
        y = tf.nn.avg_pool2d(y, 3, 1, "SAME")
        return tf.matmul(tf.reshape(y, [-1, 4 * 4 * 128]), self.wd)


def test_tflite_cnn_runs_like_its_function_with_tfs_op_names(tmp_path):
    # The Python front end's node names give the names TF 2.21's converter gave this module
    # (checked with the oracle, conformance/tflite/NOTES.md): the fused location activation;bias
    # add;conv;bias read, "Relu6;MaxPool2d" for a pool with its activation fused, and TF's ops.
    m = SmallCnn()
    cf = m.__call__.get_concrete_function()
    x = np.random.default_rng(6).standard_normal((2, 8, 8, 1)).astype(np.float32)
    model = tf.lite.TFLiteConverter.from_concrete_functions([cf], m).convert()
    interp = tf.lite.Interpreter(model_content=model)
    interp.resize_tensor_input(interp.get_input_details()[0]["index"], [2, 8, 8, 1])
    interp.allocate_tensors()
    interp.set_tensor(interp.get_input_details()[0]["index"], x)
    interp.invoke()
    y = interp.get_tensor(interp.get_output_details()[0]["index"])
    np.testing.assert_allclose(y, m(tf.constant(x)).numpy(), rtol=1e-4, atol=1e-5)
    path = tmp_path / "cnn.tflite"
    path.write_bytes(model)
    info = tf.lite.inspect(path, as_json=True)
    names = {t["name"] for t in info["subgraphs"][0]["tensors"]}
    assert "Relu;BiasAdd;Conv2D;BiasAdd/ReadVariableOp" in names
    assert "Relu6;MaxPool2d" in names
    ops = [o["builtin"] for o in info["subgraphs"][0]["operators"]]
    assert ops == ["CONV_2D", "MAX_POOL_2D", "DEPTHWISE_CONV_2D", "AVERAGE_POOL_2D", "RESHAPE",
                   "FULLY_CONNECTED"]


def _encoder():
    import importlib.util
    path = os.path.join(os.path.dirname(__file__), "..", "..", "conformance", "tflite", "encoder.py")
    spec = importlib.util.spec_from_file_location("lite_encoder", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_tflite_bert_shaped_encoder_int_inputs_quantized_embeddings_and_accuracy_report():
    # conformance/tflite/run.py case 5 checks these models against TF's converter and LiteRT; here
    # the Python surface: int32 inputs, the logits of the model, and evaluate_accuracy's numbers.
    enc = _encoder()
    model = enc.make(tf, enc.weights())
    cf = model.__call__.get_concrete_function()
    conv = tf.lite.TFLiteConverter.from_concrete_functions([cf], model)
    float_model = conv.convert()
    conv.optimizations = [tf.lite.Optimize.DEFAULT]
    int8_model = conv.convert()
    ids, segments, mask = enc.inputs(np.random.default_rng(4), 6)
    want = model(tf.constant(ids), tf.constant(segments), tf.constant(mask)).numpy()
    outs = {}
    for name, m in [("float", float_model), ("int8", int8_model)]:
        interp = tf.lite.Interpreter(model_content=m)
        details = interp.get_input_details()
        assert [d["name"] for d in details] == ["serving_default_ids:0",
                                                "serving_default_segments:0",
                                                "serving_default_mask:0"]
        assert all(d["dtype"] == np.int32 for d in details)
        for d, x in zip(details, [ids, segments, mask]):
            interp.set_tensor(d["index"], x)
        interp.invoke()
        outs[name] = interp.get_tensor(interp.get_output_details()[0]["index"])
    np.testing.assert_allclose(outs["float"], want, rtol=0, atol=1e-5 * np.abs(want).max())
    assert 0 < np.abs(outs["int8"] - want).max() < 0.05
    labels = np.argmax(want, axis=-1)
    labels[0] = (labels[0] + 1) % 3  # one example the float model gets wrong
    r = tf.lite.evaluate_accuracy(float_model, int8_model, [ids, segments, mask], labels)
    assert r["examples"] == 6
    assert r["float_accuracy"] == 5 / 6
    assert r["int8_accuracy"] == np.mean(np.argmax(outs["int8"], axis=-1) == labels)
    assert r["accuracy_delta"] == r["int8_accuracy"] - r["float_accuracy"]
    assert r["max_abs_logit_delta"] == float(np.abs(outs["float"] - outs["int8"]).max())
    with pytest.raises(ValueError, match="evaluate_accuracy: 5 labels for 6 examples"):
        tf.lite.evaluate_accuracy(float_model, int8_model, [ids, segments, mask], labels[:5])
    report = tf.lite.compare_models(float_model, int8_model, probes=4, seed=1)
    assert report["quantized_ops"][0] == "GATHER Gather (int8 [64, 128], 1 scale)"
    assert len(report["quantized_ops"]) == 14  # the table and 13 FULLY_CONNECTED weights
    assert report["layers"] and report["max_abs_delta"] > 0
