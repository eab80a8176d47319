"""Checks tfscope's .proto files against TensorFlow 2.21's own descriptors.

  /work/oracle-venv/bin/python conformance/formats/check_protos.py

Compiles src/savedmodel/proto with protoc into a descriptor set and compares, message by message
and enum by enum, with the descriptors TF's Python package registers: every field's name, number,
type, label, message/enum type, oneof, packing and proto3 presence, and every enum value. Fields
TF has and we lack count as failures too.
"""
import importlib
import os
import subprocess
import sys
import tempfile

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
from google.protobuf import descriptor_pb2

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PROTO_DIR = os.path.join(ROOT, "src", "savedmodel", "proto")
TF_MODULES = [
    "tensorflow.core.protobuf.saved_model_pb2", "tensorflow.core.protobuf.fingerprint_pb2",
    "tensorflow.core.protobuf.tensor_bundle_pb2", "tensorflow.core.protobuf.saver_pb2",
    "tensorflow.core.protobuf.trackable_object_graph_pb2",
]


def ours():
    files = sorted(os.path.join(dp, f) for dp, _, fs in os.walk(PROTO_DIR) for f in fs
                   if f.endswith(".proto"))
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "set.pb")
        subprocess.run(["protoc", "-I", PROTO_DIR, "--include_imports",
                        f"--descriptor_set_out={out}"] + files, check=True)
        s = descriptor_pb2.FileDescriptorSet()
        with open(out, "rb") as f:
            s.ParseFromString(f.read())
    return {fd.name: fd for fd in s.file if fd.package == "tensorflow"}


def theirs():
    seen = {}

    def walk(fd):
        if fd.name in seen:
            return
        p = descriptor_pb2.FileDescriptorProto()
        fd.CopyToProto(p)
        seen[fd.name] = p
        for d in fd.dependencies:
            walk(d)

    for m in TF_MODULES:
        walk(importlib.import_module(m).DESCRIPTOR)
    return {p.name: p for p in seen.values() if p.package == "tensorflow"}


def collect(files):
    """full name -> ("message", {number: field facts}) or ("enum", {name: number})."""
    out = {}

    def msg(m, prefix):
        full = f"{prefix}.{m.name}"
        fields = {}
        for f in m.field:
            oneof = m.oneof_decl[f.oneof_index].name if f.HasField("oneof_index") else None
            fields[f.number] = (f.name, f.type, f.label, f.type_name, oneof,
                                f.options.packed if f.options.HasField("packed") else None,
                                f.proto3_optional)
        out[full] = ("message", fields)
        for e in m.enum_type:
            out[f"{full}.{e.name}"] = ("enum", {v.name: v.number for v in e.value})
        for n in m.nested_type:
            msg(n, full)

    for fd in files.values():
        for m in fd.message_type:
            msg(m, "." + fd.package)
        for e in fd.enum_type:
            out[f".{fd.package}.{e.name}"] = ("enum", {v.name: v.number for v in e.value})
    return out


def main():
    mine, tfs = collect(ours()), collect(theirs())
    problems = []
    for name, (kind, facts) in sorted(tfs.items()):
        if name not in mine:
            problems.append(f"missing {kind} {name}")
        elif mine[name] != (kind, facts):
            want, got = facts, mine[name][1]
            for key in sorted(set(want) | set(got), key=str):
                if want.get(key) != got.get(key):
                    problems.append(f"{name} [{key}]: TF {want.get(key)} vs ours {got.get(key)}")
    for name in sorted(set(mine) - set(tfs)):
        problems.append(f"extra {mine[name][0]} {name} (not in TF)")
    n_fields = sum(len(f) for k, f in tfs.values() if k == "message")
    for p in problems:
        print("FAIL", p)
    print(f"{len(tfs)} messages/enums, {n_fields} fields compared with TF "
          f"{importlib.import_module('tensorflow').__version__}: "
          + ("all match" if not problems else f"{len(problems)} differences"))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
