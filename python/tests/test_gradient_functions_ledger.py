"""The ledger and the GraphReport name the gradient functions (TF's forward/backward pairs) and the
call that built them. When TF builds a pair, and its names, are compared with TF 2.21 in
conformance/cases/ad_gradient_function_names.py: the first call under a tape builds one, later
tape calls reuse it, a persistent tape builds a second one, a gradient of a call inside a traced
function builds the callee's pair during that trace."""
import json
import re

import tfscope as tf


def name(cf):
    return cf.name.decode()  # bytes, as TF's ConcreteFunction.name


def pairs_of(cf_name):
    return [p for p in tf._core.gradient_functions() if p["of"] == cf_name]


def test_eager_tape_calls_name_the_pairs_they_built():
    v = tf.Variable([1.0, 2.0])

    @tf.function
    def f(x):
        return tf.reduce_sum(tf.exp(x) * v)

    x = tf.constant([3.0, 4.0])
    f(x)  # call 1: no tape
    for persistent in (False, False, True):  # calls 2, 3, 4
        with tf.GradientTape(persistent=persistent) as t:
            y = f(x)
        t.gradient(y, v)
    cf = name(f.get_concrete_function(x))
    first, higher = pairs_of(cf)
    assert (first["kind"], first["call"]) == ("tape", 2)
    assert (higher["kind"], higher["call"]) == ("higher-order tape", 4)
    assert re.fullmatch(r"__forward_f_\d+", first["forward"])
    assert re.fullmatch(r"__inference___backward_f_\d+_\d+", first["backward"])

    text = f.ledger()
    built = [l.strip() for l in text.splitlines() if "built gradient functions" in l]
    assert built == [
        "call 2 built gradient functions: %s (%d nodes), %s (%d nodes) of %s (a GradientTape "
        "recorded the call)" % (first["forward"], first["forward_nodes"], first["backward"],
                                first["backward_nodes"], cf),
        "call 4 built gradient functions: %s (%d nodes), %s (%d nodes) of %s (a persistent or "
        "nested GradientTape recorded the call)" % (higher["forward"], higher["forward_nodes"],
                                                    higher["backward"], higher["backward_nodes"],
                                                    cf),
    ]
    entries = json.loads(f.ledger_json())["entries"]
    listed = [(g["call"], g["forward"], g["backward"]) for e in entries
              for g in e.get("gradient_functions", [])]
    assert listed == [(2, first["forward"], first["backward"]),
                      (4, higher["forward"], higher["backward"])]

    cfn = f.get_concrete_function(x)
    report = tf.report(cfn)
    assert "  gradient functions:\n" in report
    assert ("    %s (%d nodes), %s (%d nodes): built by call 2 of %s (a GradientTape recorded "
            "the call)\n" % (first["forward"], first["forward_nodes"], first["backward"],
                             first["backward_nodes"], cf)) in report
    rj = json.loads(tf.report(cfn, "json"))
    assert [(g["forward"], g["kind"], g["call"]) for g in rj["gradient_functions"]] == [
        (first["forward"], "tape", 2), (higher["forward"], "higher-order tape", 4)]


def test_a_trace_names_the_pair_of_the_call_it_differentiates():
    @tf.function
    def inner(x):
        return tf.exp(x) * x

    @tf.function
    def outer(x):
        with tf.GradientTape() as t:
            t.watch(x)
            y = inner(x)
        return t.gradient(y, x)

    x = tf.constant([1.0, 2.0])
    outer(x)
    outer(x)
    inner_fn, outer_fn = inner.get_concrete_function(x), outer.get_concrete_function(x)
    inner_cf, outer_cf = name(inner_fn), name(outer_fn)
    (p,) = pairs_of(inner_cf)
    assert (p["kind"], p["built_by"], p["call"]) == ("graph", outer_cf, 1)
    built = [l.strip() for l in outer.ledger().splitlines() if "built gradient functions" in l]
    assert built == ["call 1 built gradient functions: %s (%d nodes), %s (%d nodes) of %s (a "
                     "gradient of its call in a graph)" % (p["forward"], p["forward_nodes"],
                                                          p["backward"], p["backward_nodes"],
                                                          inner_cf)]
    # The outer trace's library holds the pair; the inner function's report says who built it.
    assert p["forward"] in tf.report(outer_fn) and p["backward"] in tf.report(outer_fn)
    assert "built by call 1 of %s (a gradient of its call in a graph)" % outer_cf in \
        tf.report(inner_fn)
    assert not [l for l in inner.ledger().splitlines() if "built gradient functions" in l]


def test_a_call_under_a_tape_that_watches_nothing_builds_nothing():
    @tf.function
    def g(x):
        return x * 2.0

    x = tf.constant([1.0])
    with tf.GradientTape():
        g(x)
    assert pairs_of(name(g.get_concrete_function(x))) == []
    assert "built gradient functions" not in g.ledger()
