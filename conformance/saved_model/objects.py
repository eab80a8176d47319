"""SavedModel objects both ways (issue 16), against real TF 2.21:

1. TF -> tfscope: TF saves the module of _objects_module.py (variables, a nested module, a
   tf.function with two traces and no input_signature, methods with input signatures and dict /
   tuple outputs, a captured eager constant, two signatures, an asset); tfscope.saved_model.load
   restores the object and every call of _objects_module.calls gives TF's own outputs on its
   own loaded model, bit for bit, and TF's error texts (a function called with an input no
   concrete function accepts, a binding error); the variables hold TF's values; the asset
   path names the copied file; fingerprint.pb reads as TF's read_fingerprint reads it; the
   restored functions print their saved traces as TF prints them.
2. tfscope -> TF: tfscope builds the same module from the same seeds and saves it;
   tf.saved_model.load restores it with its methods and its asset, and every call gives the outputs TF gives
   on its own model, bit for bit, and the same errors; TF's read_fingerprint reads tfscope's
   fingerprint.pb (TF's fields); saver_def and the save/restore functions and calls it names
   equal TF's node by node, and TF's v1 loader restores and saves through them; the function
   library's names equal TF's (uids aside), the signature wrappers' too for each form of
   signatures= (a tf.function, a ConcreteFunction, none, a dict of both).
3. tfscope -> tfscope: the tfscope-saved model loads back in tfscope with the same results.

  python conformance/saved_model/objects.py [--python TFSCOPE_PYTHON]
"""
import argparse
import os
import pickle
import shutil
import subprocess
import sys
import tempfile

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import _objects_module as mod  # noqa: E402

results = []


def check(name, ok, detail=""):
    results.append(bool(ok))
    print(f"{'PASS' if ok else 'FAIL'}  {name}{': ' + detail if detail else ''}")


def same(a, b):
    if isinstance(a, str) or isinstance(b, str):
        return a == b
    if isinstance(a, tuple) or isinstance(b, tuple):
        return a == b
    if isinstance(a, dict) and isinstance(b, dict):
        return sorted(a) == sorted(b) and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, np.ndarray) and isinstance(b, np.ndarray):
        return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()
    return False


def compare(label, ours, theirs):
    bad = [k for k in theirs if k not in ours or not same(ours[k], theirs[k])]
    errors = sum(isinstance(v, tuple) for v in theirs.values())
    check(f"{label}: {len(theirs)} calls equal TF's ({errors} of them TF's error texts)", not bad,
          "" if not bad else "differ: " + "; ".join(f"{k}: ours {ours.get(k)!r} TF {theirs[k]!r}"[:600] for k in bad))


def tfscope(py, *args):
    r = subprocess.run([py, os.path.join(HERE, "objects_tfscope.py"), *args],
                       capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError(f"objects_tfscope.py {' '.join(args)}: {r.stderr.strip()[-2000:]}")


def fingerprint_fields(fp):
    """TF's Fingerprint object as a dict; its version is a VersionDef (the producer counts)."""
    d = {k: getattr(fp, k) for k in ("saved_model_checksum", "graph_def_program_hash",
                                      "signature_def_hash", "saved_object_graph_hash",
                                      "checkpoint_hash")}
    d["version"] = fp.version.producer
    return d


def saver_parts(d):
    """The saver of the SavedModel in `d`: saver_def, the main-graph nodes it names and the
    object-graph Const the save call takes (one-line protos), and the functions the two calls
    call, with the uid ending each function name dropped."""
    import re
    from google.protobuf import text_format
    from tensorflow.core.protobuf import saved_model_pb2
    sm = saved_model_pb2.SavedModel()
    with open(os.path.join(d, "saved_model.pb"), "rb") as f:
        sm.ParseFromString(f.read())
    mg = sm.meta_graphs[0]
    one = lambda m: text_format.MessageToString(m, as_one_line=True)
    s = mg.saver_def
    nodes = {n.name: n for n in mg.graph_def.node}
    lib = {f.signature.name: f for f in mg.graph_def.library.function}
    out = {"saver_def": one(s)}
    save = s.save_tensor_name.split(":")[0]
    names = [s.filename_tensor_name.split(":")[0], save, s.restore_op_name]
    if save in nodes and nodes[save].input:
        names.append(nodes[save].input[-1])
    for name in names:
        if name not in nodes:
            out["node " + name] = "missing"
            continue
        n = type(nodes[name]).FromString(nodes[name].SerializeToString())
        fn = n.attr["f"].func.name if "f" in n.attr else ""
        if fn:
            n.attr["f"].func.name = re.sub(r"_\d+$", "", fn)
            f = type(lib[fn]).FromString(lib[fn].SerializeToString()) if fn in lib else None
            if f is not None:
                f.signature.name = re.sub(r"_\d+$", "", f.signature.name)
            out["function of " + name] = one(f) if f is not None else "missing"
        out["node " + name] = one(n)
    return out


def library_names(d):
    """The names of the functions in d's saved_model.pb library, the uid ending each dropped,
    sorted (a name traced twice is there twice)."""
    import re
    from tensorflow.core.protobuf import saved_model_pb2
    sm = saved_model_pb2.SavedModel()
    with open(os.path.join(d, "saved_model.pb"), "rb") as f:
        sm.ParseFromString(f.read())
    return sorted(re.sub(r"_\d+$", "", f.signature.name)
                  for f in sm.meta_graphs[0].graph_def.library.function)


def saved_specs(d):
    """What d's saved_model.pb says each function takes and returns, in a form that compares
    without the uids and without a dict's order: the SignatureDefs (keys, tensor names, dtypes,
    shapes, method) and every SavedConcreteFunction's canonicalized input and output signature
    (the TensorSpecs with their names, as TF names them by nest path)."""
    import re
    from google.protobuf import text_format
    from tensorflow.core.protobuf import saved_model_pb2
    from tensorflow.python.saved_model import nested_structure_coder

    def canon(v):
        if isinstance(v, dict):
            return ("dict", tuple(sorted((k, canon(x)) for k, x in v.items())))
        if isinstance(v, (list, tuple)):
            return (type(v).__name__, getattr(v, "_fields", None), tuple(canon(x) for x in v))
        return repr(v)

    sm = saved_model_pb2.SavedModel()
    with open(os.path.join(d, "saved_model.pb"), "rb") as f:
        sm.ParseFromString(f.read())
    mg = sm.meta_graphs[0]
    one = lambda m: text_format.MessageToString(m, as_one_line=True)
    sigs = sorted((k, sorted((a, one(t)) for a, t in sd.inputs.items()),
                   sorted((a, one(t)) for a, t in sd.outputs.items()), sd.method_name)
                  for k, sd in mg.signature_def.items())
    fns = sorted((re.sub(r"_\d+$", "", name),
                  canon(nested_structure_coder.decode_proto(cf.canonicalized_input_signature)),
                  canon(nested_structure_coder.decode_proto(cf.output_signature)))
                 for name, cf in mg.object_graph_def.concrete_functions.items())
    return {"signature_defs": sigs, "concrete_functions": fns}


def saver_round_trip(d):
    """TF's v1 loader on `d` (it runs saver_def's restore op), then saver_def's save op to a new
    prefix: whether that checkpoint holds the keys and values of d's variables/."""
    out = os.path.join(tempfile.mkdtemp(prefix="tfscope_sm_saver_"), "ckpt")
    try:
        with tf.Graph().as_default(), tf.compat.v1.Session() as sess:
            s = tf.compat.v1.saved_model.loader.load(sess, ["serve"], d).saver_def
            sess.run(s.save_tensor_name, {s.filename_tensor_name: out})
        a = tf.train.load_checkpoint(os.path.join(d, "variables", "variables"))
        b = tf.train.load_checkpoint(out)
        keys = sorted(a.get_variable_to_shape_map())
        return keys == sorted(b.get_variable_to_shape_map()) and all(
            np.asarray(a.get_tensor(k)).tobytes() == np.asarray(b.get_tensor(k)).tobytes()
            for k in keys), f"{len(keys)} checkpoint keys"
    finally:
        shutil.rmtree(os.path.dirname(out), ignore_errors=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--python", default=os.environ.get(
        "TFSCOPE_PYTHON", os.path.join(ROOT, ".venv", "bin", "python")))
    args = ap.parse_args()
    work = tempfile.mkdtemp(prefix="tfscope_sm_objects_")
    try:
        # TF's model, with an asset.
        vocab = os.path.join(work, "vocab.txt")
        with open(vocab, "w") as f:
            f.write("a\nb\nc\n")
        m = mod.build(tf)
        m.vocab = tf.saved_model.Asset(vocab)
        tf_dir = os.path.join(work, "tf_saved")
        tf.saved_model.save(m, tf_dir, signatures={"serving_default": m.h, "tup": m.t})
        theirs = mod.calls(tf, tf.saved_model.load(tf_dir))

        # 1. TF -> tfscope.
        out = os.path.join(work, "ours_on_tf.pkl")
        tfscope(args.python, "load", tf_dir, out)
        with open(out, "rb") as f:
            ours = pickle.load(f)
        compare("TF-saved module restored by tfscope", ours["calls"], theirs)
        path = ours["extra"].get("asset_path", "")
        check("TF-saved asset: tfscope's asset_path names the copied file",
              os.path.isfile(path) and open(path).read() == "a\nb\nc\n", repr(path))
        tf_fp = fingerprint_fields(tf.saved_model.experimental.read_fingerprint(tf_dir))
        our_fp = dict(ours["extra"]["fingerprint"] or {})
        our_fp.pop("uuid", None)
        check("TF's fingerprint.pb read by tfscope: every field TF's reader gives", our_fp == tf_fp,
              f"ours {our_fp} TF {tf_fp}")

        # A ConcreteFunction attribute: TF saves it as a bare concrete function; restored, it
        # prints its parameters, its named output specs and its captured variable.
        bare_dir, bare_out = os.path.join(work, "tf_bare"), os.path.join(work, "bare.pkl")
        tf.saved_model.save(mod.bare_module(tf), bare_dir)
        theirs_bare = mod.bare_texts(tf.saved_model.load(bare_dir))
        tfscope(args.python, "bare", bare_dir, bare_out)
        with open(bare_out, "rb") as f:
            ours_bare = pickle.load(f)
        check("TF-saved ConcreteFunction attribute restored by tfscope: str, repr and short "
              "signature equal TF's", ours_bare == theirs_bare,
              "" if ours_bare == theirs_bare else f"ours {ours_bare!r} TF {theirs_bare!r}")

        # 2. tfscope -> TF.
        ts_dir = os.path.join(work, "tfscope_saved")
        tfscope(args.python, "save", ts_dir, vocab)
        loaded = tf.saved_model.load(ts_dir)
        path = loaded.vocab.asset_path.numpy().decode()
        check("tfscope-saved asset: TF's restored asset_path names the copied file in assets/",
              path == os.path.join(ts_dir, "assets", "vocab.txt") and
              open(path).read() == "a\nb\nc\n", repr(path))
        check("tfscope-saved module restores in TF with its methods",
              all(hasattr(loaded, a) for a in ("f", "h", "t", "v", "b")) and
              hasattr(loaded.child, "g") and sorted(loaded.signatures) == ["serving_default", "tup"],
              f"signatures {sorted(loaded.signatures)}")
        compare("tfscope-saved module restored by TF", mod.calls(tf, loaded), theirs)
        fp = tf.saved_model.experimental.read_fingerprint(ts_dir)
        check("tfscope's fingerprint.pb read by TF's read_fingerprint (version 4, TF's fields)",
              fingerprint_fields(fp)["version"] == 4 and
              all(isinstance(v, int) and v != 0 for v in fingerprint_fields(fp).values()),
              str(fingerprint_fields(fp)))
        # TF's own fingerprinting (what tf.saved_model.save runs after writing the files) over
        # tfscope's files: every hash equal to the one tfscope wrote.
        from tensorflow.core.protobuf import fingerprint_pb2
        from tensorflow.python.saved_model.pywrap_saved_model import fingerprinting as tf_fpr
        tf_made = fingerprint_pb2.FingerprintDef()
        tf_made.ParseFromString(tf_fpr.CreateFingerprintDef(ts_dir))
        check("tfscope's fingerprint.pb hashes equal TF's CreateFingerprintDef of the same files",
              fingerprint_fields(fp) == fingerprint_fields(tf_made),
              f"ours {fingerprint_fields(fp)} TF {fingerprint_fields(tf_made)}")
        ours_pb = fingerprint_pb2.FingerprintDef()
        with open(os.path.join(ts_dir, "fingerprint.pb"), "rb") as f:
            ours_pb.ParseFromString(f.read())
        check("tfscope's fingerprint uuid: a decimal of at least 20 digits, as TF's",
              ours_pb.uuid.isdigit() and len(ours_pb.uuid) >= 20, repr(ours_pb.uuid))

        # The saver: saver_def and what it names, node by node as TF writes them, and TF's v1
        # loader (TF Serving's path) restoring and saving through them.
        ours_saver, tf_saver = saver_parts(ts_dir), saver_parts(tf_dir)
        bad = [k for k in tf_saver if ours_saver.get(k) != tf_saver[k]]
        check(f"tfscope's saver_def and the {len(tf_saver) - 1} nodes and functions it names "
              "equal TF's (function uids aside)", not bad and len(ours_saver) == len(tf_saver),
              "; ".join(f"{k}: ours {ours_saver.get(k)!r:.400} TF {tf_saver[k]!r:.400}"
                        for k in bad))
        ours_specs, tf_specs = saved_specs(ts_dir), saved_specs(tf_dir)
        for part in tf_specs:
            same_part = ours_specs[part] == tf_specs[part]
            check(f"tfscope's saved {part.replace('_', ' ')} equal TF's (spec names included)",
                  same_part, "" if same_part else
                  f"ours {ours_specs[part]!r:.1500} TF {tf_specs[part]!r:.1500}")
        ours_lib, tf_lib = library_names(ts_dir), library_names(tf_dir)
        check("tfscope's function library names equal TF's (uids aside)", ours_lib == tf_lib,
              f"ours {ours_lib} TF {tf_lib}")
        # The signature wrappers' names by what signatures= is given.
        tfscope(args.python, "wrappers", os.path.join(work, "wrappers"))
        for label, (module, signatures) in mod.wrapper_saves(tf).items():
            tf_w = os.path.join(work, "tf_wrappers", label)
            tf.saved_model.save(module, tf_w, signatures=signatures)
            ours_lib = library_names(os.path.join(work, "wrappers", label))
            tf_lib = library_names(tf_w)
            check(f"signatures={label}: tfscope's library names equal TF's (uids aside)",
                  ours_lib == tf_lib, f"ours {ours_lib} TF {tf_lib}")
        # A v1 SavedModel (tfscope's save of a lone function): its signature as TF's v1 loader
        # prints it, and as tfscope prints it.
        v1_dir, v1_text = os.path.join(work, "v1"), os.path.join(work, "v1.txt")
        tfscope(args.python, "v1", v1_dir, v1_text)
        with open(v1_text) as f:
            ours_text = f.read()
        tf_text = mod.signature_text(tf.saved_model.load(v1_dir), "serving_default")
        check("tfscope's v1 SavedModel: its signature's text as TF's v1 loader prints it",
              ours_text == tf_text, "" if ours_text == tf_text else f"ours {ours_text!r} TF {tf_text!r}")
        ok, detail = saver_round_trip(ts_dir)
        check("TF's v1 loader runs tfscope's restore op, and its save op writes the same "
              "checkpoint back", ok, detail)

        # 3. tfscope -> tfscope.
        out = os.path.join(work, "ours_on_ours.pkl")
        tfscope(args.python, "load", ts_dir, out)
        with open(out, "rb") as f:
            ours = pickle.load(f)
        compare("tfscope-saved module restored by tfscope", ours["calls"], theirs)
        check("tfscope-saved asset restored by tfscope",
              ours["extra"].get("asset_path") == os.path.join(ts_dir, "assets", "vocab.txt"),
              repr(ours["extra"].get("asset_path")))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(f"{sum(results)}/{len(results)} checks passed")
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
