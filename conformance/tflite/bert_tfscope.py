"""tfscope's side of run.py's BERT-tiny case: trains python/tfscope/models/bert_tiny.py's model
briefly with tfscope (bert_train: GradientTape, Adam in tf ops, the generated pair task), converts
its forward pass (three int32 [batch, 16] inputs, as bert_demo converts it) to float and
dynamic-range int8 `.tflite` with tfscope's converter, and writes into OUTDIR:
bert_weights.npz (the trained variables by checkpoint name, for TF to build the same model),
bert_float.tflite, bert_dynamic.tflite, bert_test.npz (the test split: input_ids, input_mask,
segment_ids, labels) and bert_tfscope_logits.npy (tfscope's own float logits on it).

  python bert_tfscope.py OUTDIR STEPS
"""
import os
import sys

import numpy as np

import tfscope as tf
from tfscope.models import bert_train


def forward_function(tf, model, length):
    """The forward pass bert_demo converts (a fixed sequence length: TFLite's static shapes)."""
    spec = [tf.TensorSpec([None, length], tf.int32, name=n)
            for n in ("input_ids", "input_mask", "segment_ids")]
    return tf.function(lambda ids, mask, seg: {"logits": model(ids, mask, seg)},
                       input_signature=spec)


def main():
    out, steps = sys.argv[1], int(sys.argv[2])
    r = bert_train.train(tf, steps=steps)
    model, test = r["model"], r["test"]
    np.savez(os.path.join(out, "bert_weights.npz"),
             **{name: v.numpy() for name, v in model.weights.items()})
    fn = forward_function(tf, model, test.input_ids.shape[1])
    for kind, opt in [("float", []), ("dynamic", [tf.lite.Optimize.DEFAULT])]:
        conv = tf.lite.TFLiteConverter.from_concrete_functions([fn.get_concrete_function()], model)
        conv.optimizations = opt
        with open(os.path.join(out, f"bert_{kind}.tflite"), "wb") as f:
            f.write(conv.convert())
    np.savez(os.path.join(out, "bert_test.npz"), input_ids=test.input_ids,
             input_mask=test.input_mask, segment_ids=test.segment_ids, labels=test.labels)
    np.save(os.path.join(out, "bert_tfscope_logits.npy"), r["test_logits"])
    print(f"bert: {steps} training steps in tfscope, float test accuracy {r['float_accuracy']:.4f}")


if __name__ == "__main__":
    main()
