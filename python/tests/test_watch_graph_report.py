"""The GraphReport of each real TF concrete function, read by tfscope's C++ GraphDef reader inside
watch: ops by type, inputs, captures, outputs, library and signature equal TF 2.21's own facts
about the same graph (recorded by the program through TF's Python API), for the user's functions
(a variable, a captured eager tensor, a nested tf.function, a float16 input, an op tfscope does not
define), Keras's train_function and a tf.data map function; and the text and HTML reports show
it."""
import pytest

import watch_oracle as wo

P = "graph_reports.py"


@pytest.fixture(scope="module")
def reports(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("graph_reports")
    html = tmp / "report.html"
    rep, tf_facts, p = wo.watch(tmp, P, options=["--html", str(html)])
    return rep, tf_facts, p, html.read_text()


def _traced(rep):
    for f in rep["functions"]:
        for t in f["trace_list"]:
            yield f, t


def test_every_trace_has_a_graph_report(reports):
    rep, _, _, _ = reports
    for f, t in _traced(rep):
        assert "graph_report_error" not in t, (f["name"], t["graph_report_error"])
        assert t["graph_report"] is not None, f["name"]
        assert t["graph_report"]["num_nodes"] == t["graph_ops"]


def test_graph_reports_equal_tfs_facts(reports):
    rep, tf_facts, _, _ = reports
    kinds = set()
    compared = 0
    for f, t in _traced(rep):
        g = t["graph_report"]
        tf = tf_facts.get(g["function"])
        if tf is None:  # a concrete function TF no longer keeps
            continue
        compared += 1
        kinds.add(f["kind"])
        for key in ("num_nodes", "op_counts", "inputs", "captures", "outputs", "library",
                    "signature"):
            assert g[key] == tf[key], (f["name"], g["function"], key)
    assert {"user", "keras", "tf.data"} <= kinds
    assert compared >= 5


def test_user_function_report(reports):
    rep, _, _, _ = reports
    f = wo.function(rep, "user")
    g = f["trace_list"][0]["graph_report"]
    assert g["op_counts"]["BesselI0e"] == 1
    assert g["op_counts"]["PartitionedCall"] == 1
    assert [c["kind"] for c in g["captures"]] == ["resource", "tensor"]
    assert g["inputs"][1] == {"name": "h", "dtype": "float16", "shape": "(2,)"}
    assert [t["name"] for t in g["inputs"][2:]] == [c["name"] for c in g["captures"]]
    assert g["library"][0].startswith("__inference_inner_")


def test_text_and_html_show_the_report(reports):
    rep, _, p, html = reports
    text = p.stderr + p.stdout
    assert "graph: " in text and "BesselI0e 1" in text
    assert "captures: add/ReadVariableOp/resource (resource)" in text
    g = wo.function(rep, "user")["trace_list"][0]["graph_report"]
    assert 'class="greport" data-function="%s" data-nodes="%d"' % (g["function"],
                                                                   g["num_nodes"]) in html
    assert "<tr><td>BesselI0e</td><td>1</td></tr>" in html
