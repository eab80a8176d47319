"""Checks src/lite/schema/tflite_schema.fbs against TF 2.21's generated TFLite schema
(tensorflow/lite/python/schema_py_generated.py): every enum value and union member we declare has
TFLite's number, and every table field sits at TFLite's vtable offset. Values TF 2.21 does not
know yet are checked against ai-edge-litert's newer schema instead.

  /work/oracle-venv/bin/python conformance/formats/check_fbs.py
"""
import inspect
import os
import re
import sys

from ai_edge_litert import schema_py_generated as LITERT
from tensorflow.lite.python import schema_py_generated as S

FBS = os.path.join(os.path.dirname(__file__), "..", "..", "src", "lite", "schema",
                   "tflite_schema.fbs")


def parse_fbs(text):
    text = re.sub(r"//[^\n]*", "", text)
    text = re.sub(r"\([^)]*\)", "", text)  # attributes such as (force_align: 16)
    enums, tables = {}, {}
    for kind, name, body in re.findall(r"\b(enum|union|table)\s+(\w+)[^{]*\{([^}]*)\}", text):
        if kind in ("enum", "union"):
            values, nxt = {}, 0
            for item in [i.strip() for i in body.split(",") if i.strip()]:
                m = re.match(r"(\w+)(?:\s*=\s*(-?\d+))?", item)
                nxt = int(m[2]) if m[2] else nxt
                values[m[1]] = nxt
                nxt += 1
            enums[name] = (kind, values)
        else:
            tables[name] = [(f, t) for f, t in re.findall(r"(\w+)\s*:\s*([\w\[\]]+)", body)]
    return enums, tables


def camel(snake):
    return "".join(p[:1].upper() + p[1:] for p in snake.split("_"))


def tf_offsets(cls):
    """accessor name -> vtable offset, from the generated Python class."""
    out = {}
    for name, fn in vars(cls).items():
        if not callable(fn):
            continue
        m = re.search(r"self\._tab\.Offset\((\d+)\)", inspect.getsource(fn))
        if m and not name.endswith(("AsNumpy", "Length", "IsNone")):
            out[name] = int(m[1])
    return out


def main():
    with open(FBS) as f:
        enums, tables = parse_fbs(f.read())
    problems, n_values, n_fields = [], 0, 0
    for name, (kind, values) in enums.items():
        tf_enum = getattr(S, name, None)
        if name == "BuiltinOptions2":
            continue  # declared only for its slots (see the .fbs)
        if tf_enum is None:
            problems.append(f"{kind} {name} not in TFLite")
            continue
        tf_values = {k: v for k, v in vars(tf_enum).items() if not k.startswith("_")}
        newer = {k: v for k, v in vars(getattr(LITERT, name)).items() if not k.startswith("_")}
        for k, v in values.items():
            n_values += 1
            if k == "NONE" and kind == "union":
                continue
            want = tf_values.get(k, newer.get(k))
            if want != v or (k in newer and newer[k] != v):
                problems.append(f"{name}.{k} = {v}, TFLite has {want}")
        if kind == "enum" and set(tf_values) - set(values):
            problems.append(f"enum {name} lacks {sorted(set(tf_values) - set(values))}")
    union_names = {n for n, (k, _) in enums.items() if k == "union"}
    for name, fields in tables.items():
        tf_cls = getattr(S, name, None)
        if tf_cls is None:
            if not name.endswith("Placeholder"):
                problems.append(f"table {name} not in TFLite")
            continue
        want = tf_offsets(tf_cls)
        slot, mine = 0, {}
        for field, typ in fields:
            if typ in union_names:
                mine[camel(field) + "Type"] = 4 + 2 * slot
                slot += 1
            mine[camel(field)] = 4 + 2 * slot
            slot += 1
        for acc, off in want.items():
            n_fields += 1
            if mine.get(acc) != off:
                problems.append(f"{name}.{acc}: TFLite vtable offset {off}, ours {mine.get(acc)}")
    for p in problems:
        print("FAIL", p)
    print(f"{n_values} enum values and {n_fields} table fields compared with TF's schema: "
          + ("all match" if not problems else f"{len(problems)} differences"))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
