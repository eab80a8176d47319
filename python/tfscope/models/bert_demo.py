"""BERT-tiny end to end with tfscope, the story of `tfscope demo --only bert`:

    python -m tfscope.models.bert_demo [--json] [--steps N] [--out DIR]

trains BERT-tiny on the generated pair task (GradientTape, Adam with tf ops, one tf.function),
reports its float test accuracy, traces and inspects the forward pass (GraphReport, ledger,
tfscope.profile), saves it as a SavedModel (TF 2.21 loads it: python/tests/test_bert_tiny.py)
and loads it back, and, where tfscope's TFLite converter covers the model, the dynamic-range int8
`.tflite` run by tfscope's interpreter: int8 accuracy, the accuracy delta and the max-abs logit
delta, which ops got int8 weights and the delta of each op's output (tf.lite.compare_models). The C++ demo runs this module (the model is defined once, in Python) and prints its text
or takes its JSON."""
import argparse
import json
import os
import sys
import tempfile

import numpy as np

import tfscope as tf

from . import bert_tiny, bert_train


def _int8(model, test, float_logits, out_dir):
    """The float and dynamic-range int8 `.tflite` models of the forward pass (tfscope's converter,
    a fixed sequence length as TFLite's static shapes want) run by tfscope's interpreter on the
    test split, or why there are none."""
    length = test.input_ids.shape[1]
    spec = [tf.TensorSpec([None, length], tf.int32, name=n)
            for n in ("input_ids", "input_mask", "segment_ids")]
    fn = tf.function(lambda ids, mask, seg: {"logits": model(ids, mask, seg)}, input_signature=spec)
    try:
        models = []
        for quantize in (False, True):
            conv = tf.lite.TFLiteConverter.from_concrete_functions([fn.get_concrete_function()],
                                                                   model)
            if quantize:
                conv.optimizations = [tf.lite.Optimize.DEFAULT]
            models.append(conv.convert())
        interp = tf.lite.Interpreter(model_content=models[1])
        feeds = {"input_ids": test.input_ids, "input_mask": test.input_mask,
                 "segment_ids": test.segment_ids}
        inputs = [next(v for k, v in feeds.items() if k in d["name"])
                  for d in interp.get_input_details()]
        ev = tf.lite.evaluate_accuracy(models[0], models[1], inputs, test.labels)
        delta = tf.lite.compare_models(models[0], models[1])
    except Exception as e:  # noqa: BLE001  (the converter's one-line reason is the report)
        return {"int8_accuracy": None, "accuracy_delta": None, "max_abs_logit_delta": None,
                "int8_error": "%s: %s" % (type(e).__name__, str(e).splitlines()[0] if str(e)
                                          else "")}
    for name, flat in zip(("bert_tiny_float.tflite", "bert_tiny_int8.tflite"), models):
        with open(os.path.join(out_dir, name), "wb") as f:
            f.write(flat)
    float_acc = bert_train.accuracy(float_logits, test.labels)
    return {"int8_accuracy": ev["int8_accuracy"],
            "accuracy_delta": ev["int8_accuracy"] - float_acc,
            "max_abs_logit_delta": ev["max_abs_logit_delta"],
            "tflite_float_accuracy": ev["float_accuracy"],
            "float_model_bytes": len(models[0]), "int8_model_bytes": len(models[1]),
            # convert_tflite_dynamic's delta report of the same two files: which ops got int8
            # weights, and each op's output delta on random probes (errors accumulate)
            "quantized_ops": delta["quantized_ops"],
            "per_layer_delta": [{"op": l["op"], "tensor": l["tensor"], "quantized": l["quantized"],
                                 "max_abs_delta": l["max_abs_delta"],
                                 "mean_abs_delta": l["mean_abs_delta"]}
                                for l in delta["layers"]],
            "probe_max_abs_logit_delta": delta["max_abs_delta"], "probes": delta["probes"]}


def run(steps=200, out_dir=None, log=None):
    say = log or (lambda line: None)
    r = bert_train.train(tf, steps=steps)
    model, test = r["model"], r["test"]
    n_params = int(sum(np.prod(v.shape) for v in model.trainable_variables))
    say("BERT-tiny: %d layers, hidden %d, %d heads, intermediate %d; %d parameters (vocabulary "
        "cut to the task's %d tokens)" % (r["config"].num_hidden_layers, r["config"].hidden_size,
                                          r["config"].num_attention_heads,
                                          r["config"].intermediate_size, n_params,
                                          r["config"].vocab_size))
    say("trained %d Adam steps of batch 32 in %.1f s: loss %.3f -> %.3f; train_step traced %d "
        "time(s)" % (steps, r["seconds"], np.mean(r["losses"][:10]), np.mean(r["losses"][-10:]),
                     r["train_step"].experimental_get_tracing_count()))
    say("float test accuracy: %.4f on %d held-out pairs (chance 1/3)"
        % (r["float_accuracy"], len(test)))

    serve = bert_tiny.serving_function(tf, model)
    ids, mask, seg, _ = test.batch(0, 8)
    args = [tf.constant(a) for a in (ids, mask, seg)]
    cf = serve.get_concrete_function()
    report = json.loads(tf.report(cf, format="json"))
    prof = tf.profile(serve, *args)
    top = prof.op_types()[:5]
    say("forward graph: %d nodes; top ops by time in one call of batch 8: %s"
        % (len(cf.graph.as_graph_def().node),
           ", ".join("%s %.0f us" % (op, self_us) for op, _, _, self_us in top)))

    own = out_dir or tempfile.mkdtemp(prefix="tfscope_bert_")
    sm_dir = os.path.join(own, "bert_tiny_savedmodel")
    model.serve = serve
    tf.saved_model.save(model, sm_dir, signatures={"serving_default": serve})
    loaded = tf.saved_model.load(sm_dir).signatures["serving_default"]
    back = loaded(input_ids=args[0], input_mask=args[1], segment_ids=args[2])["logits"].numpy()
    exact = bool(np.array_equal(back, serve(*args)["logits"].numpy()))
    say("SavedModel %s: loaded back, logits %s" % (sm_dir, "bit-exact" if exact else "DIFFER"))

    result = {"float_accuracy": r["float_accuracy"]}
    result.update(_int8(model, test, r["test_logits"], own))
    if result["int8_accuracy"] is None:
        say("int8: not available yet (%s)" % result["int8_error"])
    else:
        say("int8 (dynamic range, tfscope's interpreter): accuracy %.4f (delta %+.4f), max-abs "
            "logit delta %.4g" % (result["int8_accuracy"], result["accuracy_delta"],
                                  result["max_abs_logit_delta"]))
        kinds = {}
        for q in result["quantized_ops"]:
            kinds[q.split()[0]] = kinds.get(q.split()[0], 0) + 1
        say("int8 weights: %s of the file's ops (%s); the rest stays float"
            % (len(result["quantized_ops"]), ", ".join("%d %s" % (n, k) for k, n in kinds.items())))
        layers = result["per_layer_delta"]
        say("delta per layer (%d ops, %d random probes, |float - int8| max of each op's output):"
            % (len(layers), result["probes"]))
        for i, l in enumerate(layers):
            if l["quantized"] or i == len(layers) - 1:
                say("  %-15s %-28s %s max %.3g, mean %.3g%s"
                    % (l["op"], l["tensor"][:28], "[int8] " if l["quantized"] else "[float]",
                       l["max_abs_delta"], l["mean_abs_delta"],
                       " (the logits)" if i == len(layers) - 1 else ""))
        worst = max(layers, key=lambda l: l["max_abs_delta"])
        say("  largest: %s %s max %.3g (errors accumulate; the logits are the last op)"
            % (worst["op"], worst["tensor"], worst["max_abs_delta"]))
    result.update({
        "test_examples": len(test), "steps": steps, "parameters": n_params,
        "train_seconds": round(r["seconds"], 2), "first_loss": r["losses"][0],
        "final_loss": float(np.mean(r["losses"][-10:])),
        "train_traces": r["train_step"].experimental_get_tracing_count(),
        "forward_nodes": len(cf.graph.as_graph_def().node),
        "report_ops": report.get("op_counts", report.get("ops")),
        "profile_top_ops": [{"op": op, "count": n, "self_us": round(s, 1)} for op, n, _, s in top],
        "savedmodel_dir": sm_dir, "savedmodel_roundtrip_exact": exact,
    })
    return result


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m tfscope.models.bert_demo")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--steps", type=int, default=200)
    p.add_argument("--out", help="folder for the SavedModel and .tflite (default: a new temp dir)")
    a = p.parse_args(argv)
    lines = []
    result = run(a.steps, a.out, log=lines.append if a.json else print)
    if a.json:
        result["narrative"] = lines
        json.dump(result, sys.stdout)
        print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
