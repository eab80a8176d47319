"""Why a real tf.function traced: TF's own TraceTypes of the call against an earlier trace's.

TF 2.21 keys its trace cache on the FunctionType of the call (one TraceType per parameter:
TensorSpec for tensors, Literal for Python scalars/strings/None, Tuple/List/Dict/NamedTuple/Attrs
for nests, Weakref for other objects, by identity) plus the call's context (the scope that allows
or forbids variable creation, the parent graph, device and save policies). A trace's reason is the
difference between its key and the closest earlier key of the same function, written in TF's
vocabulary; the hint is the change that would have reused a trace.
"""


def _cls(t):
    return type(t).__name__


def _spec_parts(t):
    """(shape, dtype) of a TensorSpec-like TraceType, or None."""
    shape = getattr(t, "shape", None)
    dtype = getattr(t, "dtype", None)
    if shape is None or dtype is None or not hasattr(shape, "rank"):
        return None
    return shape, dtype


def _shape_text(shape):
    if shape.rank is None:
        return "<unknown>"
    dims = ["None" if d is None else str(d) for d in shape.as_list()]
    return "(" + ", ".join(dims) + ("," if len(dims) == 1 else "") + ")"


def _dtype_text(dtype):
    return getattr(dtype, "name", str(dtype))


def _children(t):
    """Named components of a nest TraceType, or None for a leaf."""
    cls = _cls(t)
    if cls == "Tuple":
        return [("[%d]" % i, c) for i, c in enumerate(t.components)]
    if cls == "List":
        return [("[%d]" % i, c) for i, c in enumerate(t.components_tuple.components)]
    if cls == "NamedTuple":
        return [("." + n, c) for n, c in zip(t.attribute_names, t.attributes.components)]
    if cls == "Attrs":
        na = t.named_attributes
        return [("." + n, c) for n, c in zip(na.attribute_names, na.attributes.components)]
    if cls == "Dict":
        return [("[%r]" % (k,), v) for k, v in t.mapping.items()]
    # Python nests inside TypeSpecs (an IteratorSpec's or DatasetSpec's element_spec)
    if isinstance(t, (tuple, list)):
        return [("[%d]" % i, c) for i, c in enumerate(t)]
    if isinstance(t, dict):
        return [("[%r]" % (k,), v) for k, v in t.items()]
    if _spec_parts(t) is None and hasattr(t, "_element_spec"):
        return [(".element_spec", t._element_spec)]
    return None


def _structure_id(t):
    cls = _cls(t)
    kids = _children(t)
    if kids is None:
        return cls
    if cls == "NamedTuple":
        return (cls, t.type_name, tuple(n for n, _ in kids))
    if cls == "Attrs":
        return (cls, t.named_attributes.type_name, tuple(n for n, _ in kids))
    return (cls, tuple(n for n, _ in kids))


def _weakref_text(t):
    ref = getattr(t, "_ref", None)
    obj = ref() if ref is not None else None
    if obj is None:
        return "a Python object (since collected)"
    return "%s object at 0x%x" % (type(obj).__name__, id(obj))


def type_text(t):
    """A TraceType as TF prints it, objects by class and address."""
    if _cls(t) == "Weakref":
        return _weakref_text(t)
    return repr(t)


def diff_types(path, old, new, out):
    """Appends (path, kind, text) for each way `new` differs from `old`."""
    if old == new:
        return
    so, sn = _spec_parts(old), _spec_parts(new)
    if so is not None and sn is not None and _cls(old) == _cls(new):
        if so[1] != sn[1]:
            out.append((path, "dtype", "%s: dtype %s -> %s" % (path, _dtype_text(so[1]),
                                                              _dtype_text(sn[1]))))
        if so[0] != sn[0]:
            out.append((path, "shape", "%s: shape %s -> %s" % (path, _shape_text(so[0]),
                                                              _shape_text(sn[0]))))
        if so[1] == sn[1] and so[0] == sn[0]:
            no, nn = getattr(old, "name", None), getattr(new, "name", None)
            text = ("%s: TensorSpec name %r -> %r" % (path, no, nn) if no != nn
                    else "%s: %r -> %r" % (path, old, new))
            out.append((path, "spec", text))
        return
    ko, kn = _children(old), _children(new)
    if ko is not None and kn is not None and _structure_id(old) == _structure_id(new):
        for (name, a), (_, b) in zip(ko, kn):
            diff_types(path + name, a, b, out)
        return
    if _cls(old) == "Weakref" and _cls(new) == "Weakref":
        out.append((path, "identity", "%s: a new object identity (%s; was %s)" % (
            path, _weakref_text(new), _weakref_text(old))))
        return
    if _cls(old) == "Literal" and _cls(new) == "Literal":
        out.append((path, "literal", "%s: %r -> %r" % (path, old, new)))
        return
    kind = "literal-tensor" if {_cls(old), _cls(new)} == {"Literal", "TensorSpec"} else "kind"
    out.append((path, kind, "%s: %s -> %s" % (path, type_text(old), type_text(new))))


def _params(function_type):
    return {n: p.type_constraint for n, p in function_type.parameters.items()}


def _context_parts(ctx):
    """The parts of a FunctionContext a call can differ in, by name."""
    if ctx is None:
        return {}
    parts = {"scope": getattr(ctx, "scope_type", None)}
    inner = getattr(ctx, "context", None)
    for name in ("parent_graph", "device_functions", "colocation_stack",
                 "in_cross_replica_context", "variable_policy", "xla_context_id"):
        parts[name] = getattr(inner, name, None)
    return parts


def _scope_name(scope):
    return getattr(scope, "name", str(scope))


def diff_traces(old, new):
    """The differences of trace key `new` from `old` as (path, kind, text), params first."""
    out = []
    po, pn = _params(old.lookup_type), _params(new.lookup_type)
    for name in pn:
        if name not in po:
            out.append((name, "new-param", "%s: a parameter the earlier trace did not have" % name))
        else:
            diff_types(name, po[name], pn[name], out)
    for name in po:
        if name not in pn:
            out.append((name, "missing-param", "%s: no longer passed" % name))
    co = dict(old.lookup_type.captures)
    cn = dict(new.lookup_type.captures)
    for key in cn:
        if key in co and co[key] != cn[key]:
            out.append(("capture", "capture", "a different captured value (%s -> %s)" % (
                type_text(co[key]), type_text(cn[key]))))
    xo, xn = _context_parts(old.context), _context_parts(new.context)
    for name, value in xn.items():
        if name not in xo or xo[name] == value:
            continue
        if name == "scope":
            if _scope_name(value) == "NO_VARIABLE_CREATION":
                text = ("variables created on the first call: TF traces again, forbidding "
                        "variable creation")
            else:
                text = "tracing scope %s -> %s" % (_scope_name(xo[name]), _scope_name(value))
            out.append(("context", "scope", text))
        elif name == "parent_graph":
            where = "eagerly" if value is None else "inside graph %r" % getattr(value, "name", "?")
            out.append(("context", "graph", "called %s (a different outer graph)" % where))
        elif name == "variable_policy":
            out.append(("context", "save", "traced again by tf.saved_model.save (its save "
                        "context is part of the trace key)"))
        else:
            out.append(("context", name, "a different %s in the call's context" %
                        name.replace("_", " ")))
    return out


def closest(earlier, new):
    """The earlier trace with the fewest differences from `new` (the latest on a tie)."""
    best, best_diff = None, None
    for t in earlier:
        d = diff_traces(t, new)
        if best is None or len(d) <= len(best_diff):
            best, best_diff = t, d
    return best, best_diff


def _spec_ctor(spec):
    shape, dtype = _spec_parts(spec)
    return "tf.TensorSpec(shape=%s, dtype=tf.%s)" % (
        "None" if shape.rank is None else _shape_text(shape), _dtype_text(dtype))


def generalized(types):
    """TF's most specific common supertype of `types` (what reduce_retracing traces), or None."""
    first, rest = types[0], types[1:]
    try:
        return first.most_specific_common_supertype(rest) if rest else first
    except Exception:  # a TraceType that cannot generalize
        return None


def hints(diffs, new, history):
    """Fix hints for the differences `diffs` of trace `new`; `history` is every trace before."""
    out = []
    kinds = {k for _, k, _ in diffs}
    if kinds & {"shape", "dtype", "kind"}:
        sig = _signature_hint(new, history)
        if sig:
            out.append(sig)
    for path, kind, _ in diffs:
        if kind == "literal":
            value = _literal_value(new, path)
            if isinstance(value, bool):
                out.append("%s is a Python bool: each value traces once (expected when it only "
                           "switches modes, like Keras's `training`)" % path)
            elif isinstance(value, (int, float)):
                out.append("pass tf.constant(%s): a Python number is part of the trace key, so "
                           "each new value traces again" % path)
            else:
                out.append("%s is a Python value in the trace key: pass it as a tensor, or keep "
                           "it constant" % path)
        elif kind == "identity":
            out.append("%s is compared by identity: pass the same object, its tensors, or give "
                       "its class a __tf_tracing_type__" % path)
        elif kind == "literal-tensor":
            out.append("%s switched between a Python value and a tensor (different trace keys): "
                       "pass it the same way on every call, as a tensor" % path)
    seen, uniq = set(), []
    for h in out:
        if h not in seen:
            seen.add(h)
            uniq.append(h)
    return uniq


def _literal_value(trace, path):
    node = _params(trace.lookup_type).get(path.split("[")[0].split(".")[0])
    if node is None:
        return None
    rest = path[len(path.split("[")[0].split(".")[0]):]
    while rest and node is not None:
        kids = dict(_children(node) or [])
        for name in sorted(kids, key=len, reverse=True):
            if rest.startswith(name):
                node, rest = kids[name], rest[len(name):]
                break
        else:
            return None
    return getattr(node, "value", None)


def _signature_hint(new, history):
    """input_signature with each tensor parameter generalized over every trace of its slot, or
    (with Python values or nests among the parameters) what reduce_retracing=True would trace."""
    gens, all_specs = [], True
    for name, p in new.lookup_type.parameters.items():
        if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
            all_specs = False
        types = [p.type_constraint] + [
            _params(t.lookup_type)[name] for t in history
            if name in _params(t.lookup_type) and t.scope == new.scope]
        gens.append((name, p.type_constraint, generalized(types)))
        if _spec_parts(p.type_constraint) is None:
            all_specs = False
    if all_specs and gens and all(g is not None for _, _, g in gens):
        return ("input_signature=[%s] (the spec reduce_retracing=True would trace)" %
                ", ".join(_spec_ctor(g) for _, _, g in gens))
    changed = [(n, g) for n, t, g in gens if g is not None and g != t]
    if not changed:
        return None
    return "reduce_retracing=True would trace %s" % ", ".join(
        "%s: %s" % (n, type_text(g)) for n, g in changed)
