"""The gradient functions (TF's forward/backward pairs) a process has built, read the way each
backend keeps them: TF in its eager context's function library (`__forward_f_27` with a
`backward_function_name` attribute naming `__inference___backward_f_15_28`), tfscope in its
record of the pairs it built (`tfscope._core.gradient_functions()`, what the ledger and the
GraphReport show). Cases import it by path; it is not a case (its name starts with `_`)."""
import re

_PREFIXES = ("__forward_", "__inference___backward_")


def pairs(tf):
    """[(forward, backward)] for every pair built so far."""
    if tf.__name__.startswith("tensorflow"):
        from tensorflow.python.eager import context

        ctx = context.context()
        out = []
        for n in ctx.list_function_names():
            if n.startswith("__forward_"):
                a = ctx.get_function_def(n).attr["backward_function_name"]
                out.append((n, a.s.decode()))
        return out
    return [(p["forward"], p["backward"]) for p in tf._core.gradient_functions()]


class Watcher:
    """The pairs built since the last step, with their uids ranked in building order over the
    whole case: TF's uids count every name it makes in the process, their order does not."""

    def __init__(self, tf):
        self.tf = tf
        self.seen = set(pairs(tf))
        self.uids = {}

    def _rank(self, name):
        def sub(m):
            u = int(m.group(0)[1:])
            return "_u%d" % self.uids[u]
        return re.sub(r"_\d+", sub, name)

    def new(self):
        now = set(pairs(self.tf))
        fresh = sorted(now - self.seen)
        self.seen = now
        for f, b in fresh:
            for n in (f, b):
                for u in re.findall(r"_(\d+)", n):
                    self.uids.setdefault(int(u), None)
        order = sorted(self.uids)
        self.uids = {u: i for i, u in enumerate(order)}
        return [[self._rank(f), self._rank(b)] for f, b in fresh]


def sizes(tf, forward, backward):
    """The nodes of each function of a pair, arguments included (tfscope's GraphReport count)."""
    if tf.__name__.startswith("tensorflow"):
        from tensorflow.python.eager import context

        ctx = context.context()

        def n(name):
            fd = ctx.get_function_def(name)
            return len(fd.node_def) + len(fd.signature.input_arg)
        return [n(forward), n(backward)]
    for p in tf._core.gradient_functions():
        if p["forward"] == forward:
            return [p["forward_nodes"], p["backward_nodes"]]
    return None
