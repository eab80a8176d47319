"""Views of a ConcreteFunction's graph and function library for the fn_* cases: node names, ops
and inputs as the GraphDef writes them, the attrs TF puts on a call node, and the library's
functions with their argument names and nodes. TF's uids are dropped: the suffix of function
names (__inference_inner_9) and the names of placeholders TF makes for captured eager tensors
("14", "blk/52", and a while body's argument for one, "while_189_0"; a loop condition's unused
argument "while_while_cond_1582___redundant_placeholder0"), which count every function TF has
built in the process."""
import re

_UID_NAME = re.compile(r"(^|/)\d+$")
# A while body's argument for a captured uid-named placeholder: "while_189_0".
_UID_WHILE_ARG = re.compile(r"^(while_)\d+(_\d+)$")
# A loop condition's unused argument, named after the uid-suffixed cond function.
_UID_REDUNDANT = re.compile(r"_\d+(___redundant_placeholder\d+)$")
CALL_OPS = ("PartitionedCall", "StatefulPartitionedCall")


def _name(n):
    n = _UID_WHILE_ARG.sub(lambda m: m.group(1) + "<uid>" + m.group(2), n)
    n = _UID_REDUNDANT.sub(lambda m: "_<uid>" + m.group(1), n)
    return _UID_NAME.sub(lambda m: m.group(1) + "<uid>", n)


def _input(i):
    ctrl = i.startswith("^")
    parts = (i[1:] if ctrl else i).split(":")
    parts[0] = _name(parts[0])
    return ("^" if ctrl else "") + ":".join(parts)


def fname(s):
    return re.sub(r"_\d+$", "", s.decode() if isinstance(s, bytes) else s)


def _call_attrs(n):
    a = n.attr
    return {
        "f": fname(a["f"].func.name),
        "Tin": list(a["Tin"].list.type),
        "Tout": list(a["Tout"].list.type),
        "read_only_resource_inputs": list(a["_read_only_resource_inputs"].list.i),
        "collective_manager_ids": list(a["_collective_manager_ids"].list.i),
        "config": a["config"].s.hex(),
        "config_proto": a["config_proto"].s.hex(),
        "executor_type": a["executor_type"].s.hex(),
    }


def _node(n):
    e = [_name(n.name), n.op, [_input(i) for i in n.input]]
    if n.op in CALL_OPS:
        e.append(_call_attrs(n))
    return e


def graph(cf):
    """[name, op, inputs(, call attrs)] per node of the function's graph."""
    return [_node(n) for n in cf.graph.as_graph_def().node]


def library(cf):
    """[name, argument names, nodes] per library function, sorted."""
    out = []
    for f in cf.graph.as_graph_def().library.function:
        args = [_name(a.name) for a in f.signature.input_arg]
        out.append([fname(f.signature.name), args, [_node(n) for n in f.node_def]])
    return sorted(out, key=repr)


def record_graph(record, label, cf):
    record(label + " graph", graph(cf))
    record(label + " library", library(cf))
