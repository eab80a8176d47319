"""tfscope's half of objects.py (run with the tfscope package's Python):
  objects_tfscope.py load DIR OUT.pkl   load DIR with tfscope.saved_model.load, make every call
  objects_tfscope.py save DIR ASSET     build the module with tfscope, ASSET as its asset, and
                                        save it to DIR
  objects_tfscope.py wrappers DIR       each of _objects_module.wrapper_saves into DIR/<label>
  objects_tfscope.py bare DIR OUT.pkl   load DIR (TF's save of _objects_module.bare_module), pickle
                                        its bare concrete function's texts to OUT.pkl
  objects_tfscope.py v1 DIR OUT.txt     save _objects_module.v1_function to DIR (the v1 form), load
                                        it back, write its signature's text to OUT.txt
"""
import os
import pickle
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tfscope as tf  # noqa: E402
import _objects_module as mod  # noqa: E402


def main():
    what, d = sys.argv[1], sys.argv[2]
    if what == "bare":
        with open(sys.argv[3], "wb") as f:
            pickle.dump(mod.bare_texts(tf.saved_model.load(d)), f)
        return 0
    if what == "v1":
        tf.saved_model.save(mod.v1_function(tf), d)
        with open(sys.argv[3], "w") as f:
            f.write(mod.signature_text(tf.saved_model.load(d), "serving_default"))
        return 0
    if what == "wrappers":
        for label, (module, signatures) in mod.wrapper_saves(tf).items():
            tf.saved_model.save(module, os.path.join(d, label), signatures=signatures)
        return 0
    if what == "save":
        m = mod.build(tf)
        m.vocab = tf.saved_model.Asset(sys.argv[3])
        tf.saved_model.save(m, d, signatures={"serving_default": m.h, "tup": m.t})
        return 0
    m = tf.saved_model.load(d)
    out = mod.calls(tf, m)
    extra = {}
    vocab = getattr(m, "vocab", None)
    if vocab is not None:
        extra["asset_path"] = vocab.asset_path.numpy().decode()
    extra["fingerprint"] = m.fingerprint
    with open(sys.argv[3], "wb") as f:
        pickle.dump({"calls": out, "extra": extra}, f)
    return 0


if __name__ == "__main__":
    sys.exit(main())
