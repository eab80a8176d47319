"""tfscope's side of run.py's encoder case: builds encoder.py's model with tfscope
(`import tfscope as tf`) and writes tfscope's float and dynamic-range conversions of it, plus
its outputs on run.py's probe batches, into OUTDIR.

  python encoder_tfscope.py OUTDIR SEED BATCH...
writes OUTDIR/enc_float.tflite, OUTDIR/enc_dynamic.tflite and, per BATCH, OUTDIR/probe_<BATCH>.npz
read by run.py (ids, segments, mask from encoder.inputs) and OUTDIR/tfscope_<BATCH>.f32 (the
model's logits in tfscope's own runtime). When OUTDIR holds TF's conversions (tf_enc_float.tflite,
tf_enc_dynamic.tflite), it also writes OUTDIR/delta.json: the delta report (tfscope.lite's
compare_models, 64 probes) of tfscope's pair and of TF's pair, side by side, and prints both."""
import json
import os
import sys

import numpy as np

import tfscope as tf

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import encoder  # noqa: E402


def main():
    out, seed, batches = sys.argv[1], int(sys.argv[2]), [int(b) for b in sys.argv[3:]]
    model = encoder.make(tf, encoder.weights())
    fn = model.__call__.get_concrete_function()
    for kind, opt in [("float", []), ("dynamic", [tf.lite.Optimize.DEFAULT])]:
        conv = tf.lite.TFLiteConverter.from_concrete_functions([fn], model)
        conv.optimizations = opt
        with open(os.path.join(out, f"enc_{kind}.tflite"), "wb") as f:
            f.write(conv.convert())
    rng = np.random.default_rng(seed)
    for b in batches:
        ids, segments, mask = encoder.inputs(rng, b)
        np.savez(os.path.join(out, f"probe_{b}.npz"), ids=ids, segments=segments, mask=mask)
        logits = model(tf.constant(ids), tf.constant(segments), tf.constant(mask))
        np.asarray(logits.numpy(), dtype="<f4").tofile(os.path.join(out, f"tfscope_{b}.f32"))
    theirs = [os.path.join(out, f"tf_enc_{k}.tflite") for k in ["float", "dynamic"]]
    if all(os.path.exists(p) for p in theirs):
        reports = {}
        for who, pair in [("tfscope", [os.path.join(out, f"enc_{k}.tflite") for k in
                                       ["float", "dynamic"]]), ("tf", theirs)]:
            f, q = (open(p, "rb").read() for p in pair)
            reports[who] = tf.lite.compare_models(f, q, probes=64, seed=3)
        with open(os.path.join(out, "delta.json"), "w") as f:
            json.dump(reports, f, indent=1)
        for who in reports:
            print(f"== delta report, {who}'s converter\n" + reports[who]["text"])


if __name__ == "__main__":
    main()
