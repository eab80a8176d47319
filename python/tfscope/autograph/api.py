"""AutoGraph's entry points for tfscope: convert a Python function with the C++ converter (the
same text tf.autograph.to_code prints), load the converted code against the function's own
globals and closure cells, and call it with the ``ag__`` runtime (TF 2.21's impl/api.py and
core/function_wrappers.py, reduced to what tf.function needs).
"""
import enum
import functools
import inspect
import logging
import sys
import textwrap
import types

from .. import _core
from . import operators

_log = logging.getLogger("tensorflow")


class Feature(enum.Enum):
    ALL = "ALL"
    AUTO_CONTROL_DEPS = "AUTO_CONTROL_DEPS"
    ASSERT_STATEMENTS = "ASSERT_STATEMENTS"
    BUILTIN_FUNCTIONS = "BUILTIN_FUNCTIONS"
    EQUALITY_OPERATORS = "EQUALITY_OPERATORS"
    LISTS = "LISTS"
    NAME_SCOPES = "NAME_SCOPES"


class ConversionOptions(object):
    def __init__(self, recursive=False, user_requested=False, internal_convert_user_code=True,
                 optional_features=Feature.ALL):
        self.recursive = recursive
        self.user_requested = user_requested
        self.internal_convert_user_code = internal_convert_user_code
        if optional_features is None:
            optional_features = ()
        elif isinstance(optional_features, Feature):
            optional_features = (optional_features,)
        self.optional_features = frozenset(optional_features)

    def uses(self, feature):
        return Feature.ALL in self.optional_features or feature in self.optional_features

    def call_options(self):
        return ConversionOptions(recursive=self.recursive, user_requested=False,
                                 internal_convert_user_code=self.recursive,
                                 optional_features=self.optional_features)


STANDARD_OPTIONS = ConversionOptions(recursive=True, user_requested=False,
                                     internal_convert_user_code=True, optional_features=None)


class FunctionScope(object):
    """The `with ag__.FunctionScope(...) as fscope:` of every converted function."""

    def __init__(self, function_name, scope_name, options):
        self.name = scope_name
        self.options = options
        self.callopts = options.call_options()

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc_val, exc_tb):
        return False

    def ret(self, value, did_return):
        del did_return
        if isinstance(value, operators.UndefinedReturnValue):
            return None
        return value


def autograph_artifact(entity):
    setattr(entity, "autograph_info__", frozenset())
    return entity


def is_autograph_artifact(entity):
    return hasattr(entity, "autograph_info__")


def do_not_convert(func=None):
    """tf.autograph.experimental.do_not_convert: the function is always called as written."""
    if func is None:
        return do_not_convert

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        return func(*args, **kwargs)

    return autograph_artifact(wrapper)


# ---- errors (TF's classes, by name) ----

class PyCTError(Exception):
    pass


class UnsupportedLanguageElementError(PyCTError, NotImplementedError):
    pass


class ConversionError(Exception):
    pass


class InaccessibleSourceCodeError(PyCTError, ValueError):
    pass


_ERRORS = {
    "UnsupportedLanguageElementError": UnsupportedLanguageElementError,
    "ConversionError": ConversionError,
}


# ---- conversion ----

def _source_of(fn):
    try:
        return textwrap.dedent(inspect.getsource(fn))
    except (OSError, TypeError) as e:
        raise InaccessibleSourceCodeError(
            "Unable to locate the source code of {}. Note that functions defined in certain "
            "environments, like the interactive Python shell, do not expose their source code. "
            "If that is the case, you should define them in a .py source file. If you are "
            "certain the code is graph-compatible, wrap the call using "
            "@tf.autograph.experimental.do_not_convert. Original error: {}".format(fn, e)) from e


def _convert_text(fn):
    """(converted source, diff) of a plain function, or TF's exception."""
    code = fn.__code__
    if code.co_name == "<lambda>":
        raise InaccessibleSourceCodeError("lambda functions are run as written by tfscope")
    source = _source_of(fn)
    ok, text, diff, tf_type = _core.autograph_convert(
        source, code.co_name, list(fn.__globals__), code.co_filename)
    if not ok:
        text = text.replace("<function %s at 0x0>" % code.co_name, repr(fn))
        raise _ERRORS.get(tf_type, ConversionError)(text)
    return text, diff


# code object -> (factory code, converted name) ; the converted text is what to_code returns.
_factories = {}


def _factory_for(fn):
    code = fn.__code__
    hit = _factories.get(code)
    if hit is not None:
        return hit
    text, _ = _convert_text(fn)
    freevars = code.co_freevars
    lines = ["def __ag_outer():"]
    lines += ["    %s = None" % v for v in freevars]
    lines.append("    def __ag_inner(ag__):")
    lines.append(textwrap.indent(text, "        ").rstrip("\n"))
    lines.append("        return tf__%s" % code.co_name)
    lines.append("    return __ag_inner")
    module_code = compile("\n".join(lines) + "\n", "<autograph %s>" % code.co_filename, "exec")
    outer = next(c for c in module_code.co_consts if isinstance(c, types.CodeType))
    inner = next(c for c in outer.co_consts
                 if isinstance(c, types.CodeType) and c.co_name == "__ag_inner")
    _factories[code] = inner
    return inner


def _instantiate(fn):
    inner = _factory_for(fn)
    cells = dict(zip(fn.__code__.co_freevars, fn.__closure__ or ()))
    closure = tuple(cells[name] for name in inner.co_freevars)
    factory = types.FunctionType(inner, fn.__globals__, "__ag_inner", None, closure)
    from . import ag__
    new_fn = factory(ag__)
    new_fn.__defaults__ = fn.__defaults__
    new_fn.__kwdefaults__ = fn.__kwdefaults__
    return new_fn


def to_code(entity, recursive=True, experimental_optional_features=None):
    """tf.autograph.to_code: the converted source, as TF 2.21 prints it."""
    fn = getattr(entity, "python_function", entity)
    fn = inspect.unwrap(getattr(fn, "__func__", fn))
    return _convert_text(fn)[0]


# ---- converted_call ----

_DO_NOT_CONVERT = ("collections", "copy", "cProfile", "inspect", "ipdb", "linecache", "mock",
                   "pathlib", "pdb", "posixpath", "pstats", "re", "threading", "urllib",
                   "matplotlib", "numpy", "pandas", "tensorflow", "PIL", "keras", "tfscope",
                   "functools", "builtins", "typing", "abc", "enum", "weakref")


def _is_allowlisted(f):
    module = getattr(f, "__module__", None) or ""
    top = module.split(".")[0]
    return top in _DO_NOT_CONVERT or top in sys.stdlib_module_names


def _is_tf_function(f):
    from .._function import Function
    return isinstance(f, Function)


def _fall_back_unconverted(f, args, kwargs, exc):
    template = ("AutoGraph could not transform %s and will run it as-is.\n%sCause: %s\n"
                "To silence this warning, decorate the function with"
                " @tf.autograph.experimental.do_not_convert")
    if isinstance(exc, (InaccessibleSourceCodeError, UnsupportedLanguageElementError)):
        if not isinstance(exc, InaccessibleSourceCodeError) or "lambda" not in str(exc):
            _log.warning(template, f, "", exc)
    else:
        _log.warning(template, f,
                     "Please report this to the TensorFlow team. When filing the bug, set the "
                     "verbosity to 10 (on Linux, `export AUTOGRAPH_VERBOSITY=10`) and attach the "
                     "full output.\n", exc)
    return f(*args, **kwargs)


def converted_call(f, args, kwargs, caller_fn_scope=None, options=None):
    if options is None:
        options = caller_fn_scope.callopts
    kwargs = kwargs or {}
    if is_autograph_artifact(f) or _is_tf_function(f):
        return f(*args, **kwargs)
    if isinstance(f, functools.partial):
        new_kwargs = dict(f.keywords or {})
        new_kwargs.update(kwargs)
        return converted_call(f.func, f.args + tuple(args), new_kwargs, caller_fn_scope, options)
    if isinstance(f, (types.BuiltinFunctionType, types.BuiltinMethodType)) or any(
            f is b for b in (range, int, float)):
        return operators.overload_of(f)(*args, **kwargs)
    if inspect.isclass(f) or getattr(f, "__wrapped__", None) is not None and hasattr(
            f, "cache_info"):
        return f(*args, **kwargs)
    if not options.user_requested and _is_allowlisted(f):
        return f(*args, **kwargs)
    if not options.internal_convert_user_code:
        return f(*args, **kwargs)

    if inspect.ismethod(f):
        target, effective_args = f.__func__, (f.__self__,) + tuple(args)
    elif inspect.isfunction(f):
        target, effective_args = f, tuple(args)
    elif callable(f) and inspect.isfunction(getattr(type(f), "__call__", None)):
        target, effective_args = type(f).__call__, (f,) + tuple(args)
    else:
        return f(*args, **kwargs)
    if is_autograph_artifact(target) or target.__code__.co_filename == "<string>":
        return f(*args, **kwargs)
    if inspect.isgeneratorfunction(target):
        return f(*args, **kwargs)
    try:
        converted = _instantiate(target)
    except Exception as e:  # TF falls back to the unconverted function on any conversion error
        return _fall_back_unconverted(f, args, kwargs, e)
    return converted(*effective_args, **kwargs)


def convert(python_function, optional_features=None):
    """What tf.function calls instead of the Python function when autograph=True."""
    options = ConversionOptions(recursive=True, user_requested=True,
                                optional_features=optional_features)

    @functools.wraps(python_function)
    def converted(*args, **kwargs):
        return converted_call(python_function, args, kwargs, options=options)

    return autograph_artifact(converted)
