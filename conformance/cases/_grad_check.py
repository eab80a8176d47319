"""Helpers the gradient cases share: a tensor's bits as a short digest, a central difference of
a numpy function (the independent reference a gradient is checked against), a closeness
test between the two, and a function library's view with argument names replaced by position."""
import hashlib
import re

import numpy as np

from cases._fn_graph import library


def bits(t):
    if t is None:
        return None
    a = np.ascontiguousarray(t.numpy())
    return f"{a.dtype}{list(a.shape)} sha256 {hashlib.sha256(a.tobytes()).hexdigest()[:16]}"


def central(fn, x, h=1e-3):
    x64 = np.asarray(x, np.float64)
    g = np.zeros_like(x64)
    for i in np.ndindex(x64.shape or ()):
        up, dn = x64.copy(), x64.copy()
        if x64.shape:
            up[i] += h
            dn[i] -= h
        else:
            up, dn = x64 + h, x64 - h
        g[i] = (fn(up) - fn(dn)) / (2 * h)
    return g


def near(grad, ref, tol=2e-2):
    return bool(np.allclose(np.asarray(grad.numpy(), np.float64), ref, rtol=tol, atol=tol))


def lib_view(cf):
    out = []
    for name, args, nodes in library(cf):
        text = repr(nodes)
        for i, a in enumerate(args):
            text = re.sub(r"'" + re.escape(a) + r"([:'])", f"'<arg{i}>\\1", text)
        out.append([re.sub(r"_\d+", "_N", name), len(args), text])
    return sorted(out)
