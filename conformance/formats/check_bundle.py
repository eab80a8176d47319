"""TensorBundle conformance: tfscope's writer against TF 2.21's, in both directions.

  /work/oracle-venv/bin/python conformance/formats/check_bundle.py build-fmt/tests/savedmodel/savedmodel_tool

For each case, TF (tf.raw_ops.SaveV2) and tfscope (savedmodel_tool write-bundle) write the same tensors in the same
order; the script checks that
  1. TF's output is deterministic (two saves give the same bytes),
  2. tfscope's .index and .data files equal TF's byte for byte,
  3. TF reads tfscope's checkpoint (tf.train.load_checkpoint(prefix).get_tensor(key)) exactly,
  4. tfscope reads TF's checkpoint exactly.
Exits non-zero on the first difference.
"""
import json
import os
import subprocess
import sys
import tempfile

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import numpy as np
import tensorflow as tf

TOOL = sys.argv[1] if len(sys.argv) > 1 else "build-fmt/tests/savedmodel/savedmodel_tool"
DTYPES = {np.float32: 1, np.float64: 2, np.int32: 3, np.uint8: 4, np.int16: 5, np.int8: 6,
          np.complex64: 8, np.int64: 9, np.bool_: 10, np.uint16: 17, np.complex128: 18,
          np.float16: 19, np.uint32: 22, np.uint64: 23}


def cases():
    rng = np.random.default_rng(7)
    yield "every_dtype", [
        ("f32", rng.normal(size=(3, 4)).astype(np.float32)),
        ("f64", rng.normal(size=(5,)).astype(np.float64)),
        ("i32", rng.integers(-2**31, 2**31, size=(2, 2), dtype=np.int32)),
        ("u8", rng.integers(0, 256, size=(7,), dtype=np.uint8)),
        ("i16", rng.integers(-2**15, 2**15, size=(3,), dtype=np.int16)),
        ("i8", rng.integers(-128, 128, size=(4,), dtype=np.int8)),
        ("c64", (rng.normal(size=3) + 1j * rng.normal(size=3)).astype(np.complex64)),
        ("i64", rng.integers(-2**62, 2**62, size=(2,), dtype=np.int64)),
        ("b", rng.integers(0, 2, size=(5,)).astype(np.bool_)),
        ("u16", rng.integers(0, 2**16, size=(2,), dtype=np.uint16)),
        ("c128", (rng.normal(size=2) + 1j * rng.normal(size=2)).astype(np.complex128)),
        ("f16", rng.normal(size=(6,)).astype(np.float16)),
        ("u32", rng.integers(0, 2**32, size=(2,), dtype=np.uint32)),
        ("u64", rng.integers(0, 2**63, size=(2,), dtype=np.uint64)),
        ("scalar", np.array(3.5, dtype=np.float32)),
        ("empty", np.zeros((2, 0, 3), dtype=np.int32)),
        ("strings", np.array([b"", b"a", "\u00e9t\u00e9".encode(), b"x" * 300, bytes(range(256))],
                             dtype=object)),
        ("string_scalar", np.array(b"only one", dtype=object)),
    ]
    # Keys out of order, sharing prefixes, and bytes above 0x7f: the index sorts, data keeps order.
    yield "key_order", [(k, np.array([i], dtype=np.int32)) for i, k in enumerate(
        ["zeta", "alpha/beta", "alpha", "alpha/b", "\u00fcber", "Zed", "a" * 200, "0"])]
    # Enough entries for several 256 KiB index data blocks, and one large tensor.
    yield "many_blocks", [(f"model/layer_{i:05d}/kernel/.ATTRIBUTES/VARIABLE_VALUE",
                           np.array([i, -i], dtype=np.int64)) for i in range(6000)] + [
        ("big", rng.normal(size=(512, 512)).astype(np.float32))]


def tf_save(prefix, tensors):
    tf.raw_ops.SaveV2(prefix=prefix, tensor_names=[k for k, _ in tensors],
                      shape_and_slices=[""] * len(tensors),
                      tensors=[tf.constant(list(v.reshape(-1)) if v.dtype == object else v)
                               if v.dtype != object or v.ndim else tf.constant(v.item())
                               for _, v in tensors])


def spec(prefix, tensors):
    out = []
    for k, v in tensors:
        if v.dtype == object:
            out.append({"key": k, "dtype": 7, "shape": list(v.shape),
                        "strings_hex": [s.hex() for s in v.reshape(-1)]})
        else:
            out.append({"key": k, "dtype": DTYPES[v.dtype.type], "shape": list(v.shape),
                        "hex": np.ascontiguousarray(v).astype(v.dtype.newbyteorder("<")).tobytes().hex()})
    return {"prefix": prefix, "tensors": out}


def read(path):
    with open(path, "rb") as f:
        return f.read()


def same_value(got, want):
    if want.dtype == object:
        return np.array(got, dtype=object).reshape(want.shape).tolist() == want.tolist()
    got = np.asarray(got)
    return got.dtype == want.dtype and got.shape == want.shape and got.tobytes() == want.tobytes()


def main():
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        for name, tensors in cases():
            d = os.path.join(tmp, name)
            os.makedirs(d)
            tf_a, tf_b, ours = (os.path.join(d, p) for p in ("tf_a", "tf_b", "ours"))
            tf_save(tf_a, tensors)
            tf_save(tf_b, tensors)
            with open(os.path.join(d, "spec.json"), "w") as f:
                json.dump(spec(ours, tensors), f)
            subprocess.run([TOOL, "write-bundle", os.path.join(d, "spec.json")], check=True)
            checks = {}
            for suffix in (".index", ".data-00000-of-00001"):
                checks["tf deterministic " + suffix] = read(tf_a + suffix) == read(tf_b + suffix)
                checks["tfscope == tf " + suffix] = read(ours + suffix) == read(tf_a + suffix)
            reader = tf.train.load_checkpoint(ours)
            checks["tf reads tfscope"] = all(same_value(reader.get_tensor(k), v) for k, v in tensors)
            dumped = json.loads(subprocess.run([TOOL, "read-bundle", tf_a], check=True,
                                               capture_output=True, text=True).stdout)
            want = sorted(spec(tf_a, tensors)["tensors"], key=lambda t: t["key"].encode())
            checks["tfscope reads tf"] = dumped == want
            for what, ok in checks.items():
                print(f"{'ok  ' if ok else 'FAIL'} {name}: {what}")
                failures += not ok
            print(f"     {name}: {len(tensors)} tensors, index {os.path.getsize(ours + '.index')} "
                  f"bytes, data {os.path.getsize(ours + '.data-00000-of-00001')} bytes")
    print("all bundle checks passed" if not failures else f"{failures} bundle checks FAILED")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
