"""The GraphReport of a real TF concrete function, read by tfscope's C++ GraphDef reader from the
GraphDef TF serializes (tfs::report_graph_def): ops by type as TF's graph holds them, the inputs,
captures and outputs with their dtypes and shapes, the library functions, the signature. The
FuncGraph gives what a GraphDef does not hold: which placeholders are inputs and which captures,
which tensors are outputs."""
import json


def _capture_kind(external):
    if external.dtype.name == "resource":
        return "resource"
    return "tensor" if hasattr(external, "numpy") else "outer"  # an eager value, or a graph's


def graph_report(concrete):
    """tfscope's GraphReportCore of a TF ConcreteFunction (text(), json(), dot())."""
    from tfscope import _core
    g = concrete.graph
    internal = {id(t): e for e, t in g.captures}
    name = concrete.name
    name = name.decode() if isinstance(name, bytes) else str(name)
    return _core.graph_def_report(
        g.as_graph_def(add_shapes=True).SerializeToString(), name, g.name,
        concrete.pretty_printed_signature(verbose=False),
        [t.name for t in g.inputs],
        [(t.name, _capture_kind(internal[id(t)])) for t in g.inputs if id(t) in internal],
        [t.name for t in g.outputs])


def report_dict(concrete):
    """The GraphReport as the JSON object tfscope's report writes (function, graph, signature,
    num_nodes, op_counts, inputs, outputs, captures, library)."""
    return json.loads(graph_report(concrete).json())


def ops_text(report, most=12):
    """'AddV2 1, Identity 1, Placeholder 2' (the most frequent first, then by name)."""
    ops = sorted(report["op_counts"].items(), key=lambda kv: (-kv[1], kv[0]))
    text = ", ".join("%s %d" % kv for kv in ops[:most])
    return text + (", ... (%d op types)" % len(ops) if len(ops) > most else "")
