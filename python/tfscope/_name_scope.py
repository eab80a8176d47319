"""tf.name_scope (TF 2's name_scope_v2) and tf.get_current_name_scope.

Eagerly a scope is only a prefix the thread's context keeps (TF's `context.scope_name`): it names
the variables created inside it and is never made unique. In a graph it is the graph's name
stack: `with tf.name_scope("layer")` takes the graph's next unique name for it ("layer",
"layer_1", ...), a name ending in "/" re-enters that scope as it is, and "" goes back to the top.
"""
import re
import threading

from . import _core

# TF's patterns (ops.py): a scope at the top of the graph is named as an op is; under another
# scope it may also start with "_", ">", "-", "/" or "\".
_ROOT_SCOPE = re.compile(r"^[A-Za-z0-9.][A-Za-z0-9_.\\/>-]*$")
_INNER_SCOPE = re.compile(r"^[A-Za-z0-9_.\\/>-]*$")


class _EagerScope(threading.local):
    name = ""  # "" or "a/b/": what TF's eager context calls scope_name


_eager = _EagerScope()


def eager_scope_name():
    """The current thread's eager scope ("outer/inner/" or "")."""
    return _eager.name


def get_current_name_scope():
    """tf.get_current_name_scope(): the scope ops are named in now, without the final "/"."""
    if _core.executing_eagerly():
        return _eager.name[:-1] if _eager.name else ""
    return _core.get_name_scope()


class name_scope:  # noqa: N801  (a context manager, as tf.name_scope)
    """tf.name_scope(name): ops and variables created inside are named under `name`."""

    def __init__(self, name):
        if not isinstance(name, str):
            raise ValueError("name for name_scope must be a string.")
        self._name = name
        self._restore = []

    @property
    def name(self):
        return self._name

    def __enter__(self):
        name = self._name
        if _core.executing_eagerly():
            old = _eager.name
            if not name:
                scope = ""
            elif name.endswith("/"):
                scope = name
            else:
                scope = old + name + "/"
            _eager.name = scope
            self._restore.append(("eager", old))
            return scope
        if name:
            pattern = _INNER_SCOPE if _core.get_name_scope() else _ROOT_SCOPE
            if not pattern.match(name):
                kind = "scope" if pattern is _INNER_SCOPE else "root scope"
                raise ValueError(f"'{name}' is not a valid {kind} name. A {kind} name has to "
                                 f"match the following pattern: {pattern.pattern}")
        if not name:
            _core.enter_exact_scope("")
            scope = ""
        elif name.endswith("/"):
            _core.enter_exact_scope(name[:-1])
            scope = name
        else:
            scope = _core.enter_name_scope(name, True) + "/"
        self._restore.append(("graph", None))
        return scope

    def __exit__(self, *exc):
        kind, old = self._restore.pop()
        if kind == "eager":
            _eager.name = old
        else:
            _core.exit_name_scope()
        return False


def variable_name(name):
    """A new variable's name without ":0": TF opens `name_scope(name or "Variable")` for it, so
    it is prefixed by the current scope (eager or graph, never made unique), or taken as it is
    when it ends in "/"."""
    name = name or "Variable"
    if name.endswith("/"):
        return name[:-1]
    if _core.executing_eagerly():
        return _eager.name + name
    scope = _core.get_name_scope()
    return f"{scope}/{name}" if scope else name


def enter_init_scope(graph_scope):
    """tf.init_scope from a graph keeps the graph's name scope in the eager code it lifts to
    (TF opens `name_scope(graph_scope + "/")` there, or "" at the graph's top); from eager code
    (graph_scope None) the eager scope stays."""
    old = _eager.name
    if graph_scope is not None:
        _eager.name = graph_scope + "/" if graph_scope else ""
    return old


def exit_init_scope(old):
    _eager.name = old


_IDENTIFIER = re.compile(r"^[a-zA-Z_][a-zA-Z0-9_]*$")


def _snake_case(class_name):
    """TF's camel_to_snake: "_" before a capital that follows a lower-case letter or a digit, or
    that starts a capitalized word after the first character ("HTTPServer" -> "http_server")."""
    out = []
    for i, ch in enumerate(class_name):
        if ch.isupper() and i > 0:
            prev, nxt = class_name[i - 1], class_name[i + 1:i + 2]
            if prev.islower() or prev.isdigit() or nxt.islower():
                out.append("_")
        out.append(ch)
    return "".join(out).lower()


def module_name(cls, name):
    """tf.Module's name: the class name in snake case by default; a given one must be a Python
    identifier."""
    if name is None:
        return _snake_case(cls.__name__)
    if not isinstance(name, str) or not _IDENTIFIER.match(name):
        raise ValueError(f"'{name}' is not a valid module name. Module names must be valid Python "
                         "identifiers (e.g. a valid class name).")
    return name
