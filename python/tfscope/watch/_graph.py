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


def _facts(concrete, signature=None):
    """(function name, graph name, signature, inputs, captures, outputs) of a ConcreteFunction;
    its signature text as TF prints it unless given."""
    g = concrete.graph
    internal = {id(t): e for e, t in g.captures}
    name = concrete.name
    name = name.decode() if isinstance(name, bytes) else str(name)
    if signature is None:
        signature = concrete.pretty_printed_signature(verbose=False)
    return (name, g.name, signature,
            [t.name for t in g.inputs],
            [(t.name, _capture_kind(internal[id(t)])) for t in g.inputs if id(t) in internal],
            [t.name for t in g.outputs])


def graph_report(concrete):
    """tfscope's GraphReportCore of a TF ConcreteFunction (text(), json(), dot()), read from TF's
    GraphDef with every node's `_output_shapes` (the drawing labels each edge with its shape)."""
    from tfscope import _core
    return _core.graph_def_report(
        concrete.graph.as_graph_def(add_shapes=True).SerializeToString(), *_facts(concrete))


def _serialized(g):
    """The graph's GraphDef as TF's C API serializes it (what as_graph_def parses), bytes."""
    from tensorflow.python.client import pywrap_tf_session
    from tensorflow.python.framework import c_api_util
    with g._lock:
        with c_api_util.tf_buffer() as buf:
            with g._c_graph.get() as c_graph:
                pywrap_tf_session.TF_GraphToGraphDef(c_graph, buf)
                return pywrap_tf_session.TF_GetBuffer(buf)


def _shape_dims(t):
    shape = t.shape
    return None if shape.rank is None else [-1 if d is None else d for d in shape.as_list()]


def report_dict(concrete):
    """The GraphReport as the JSON object tfscope's report writes (function, graph, signature,
    num_nodes, op_counts, inputs, outputs, captures, library)."""
    return GraphSource(concrete).resolve()[2]


class GraphSource:
    """What a trace's graph facts are made from, taken when TF has traced: the GraphDef as TF's C
    API serializes it (what as_graph_def parses; its add_shapes is a Python loop over every node,
    most of a trace's report time, for shapes the report's JSON does not show), the FuncGraph's
    facts and its inputs' and outputs' shapes. resolve() reads them (the watch does it when a
    report is made, or when the bytes kept grow past _session.PENDING_BYTES_KEPT): the same facts
    as reading the graph at trace time, since the bytes are the graph's then."""

    __slots__ = ("data", "facts", "function_type", "shapes", "size")

    def __init__(self, concrete):
        g = concrete.graph
        self.data = _serialized(g)
        self.size = len(self.data)
        # The signature's text is the FunctionType's (ConcreteFunction.pretty_printed_signature),
        # written when the report is made: formatting its specs is a good part of a small
        # trace's bookkeeping, and the FunctionType (trace types only, no graph) does not change.
        self.function_type = concrete.function_type
        self.facts = _facts(concrete, "" if self.function_type is not None else None)
        self.shapes = {t.name: _shape_dims(t) for t in list(g.inputs) + list(g.outputs)}

    def resolve(self, most=None):
        """(ops, the first `most` nodes for the drawing, the report's dict): the nodes as
        (name, op type, input op names, control input names), in the graph's order."""
        from tfscope import _core
        facts = self.facts
        if self.function_type is not None:
            facts = facts[:2] + (str(self.function_type),) + facts[3:]
        report = _core.graph_def_report(self.data, *facts, shapes=self.shapes)
        report = json.loads(report.json())
        nodes = None
        if most is not None:
            from tensorflow.core.framework import graph_pb2
            gd = graph_pb2.GraphDef()
            gd.ParseFromString(self.data)
            nodes = []
            for n in gd.node[:most]:
                inputs, control = [], []
                for i in n.input:
                    if i.startswith("^"):
                        control.append(i[1:])
                    else:
                        inputs.append(i.split(":", 1)[0])
                nodes.append((n.name, n.op, inputs, control))
        return report["num_nodes"], nodes, report


def ops_text(report, most=12):
    """'AddV2 1, Identity 1, Placeholder 2' (the most frequent first, then by name)."""
    ops = sorted(report["op_counts"].items(), key=lambda kv: (-kv[1], kv[0]))
    text = ", ".join("%s %d" % kv for kv in ops[:most])
    return text + (", ... (%d op types)" % len(ops) if len(ops) > most else "")
