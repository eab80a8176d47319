"""AutoGraph's entry points for tfscope: convert a Python function with the C++ converter (the
same text tf.autograph.to_code prints), load the converted code against the function's own
globals and closure cells, and call it with the ``ag__`` runtime (TF 2.21's impl/api.py and
core/function_wrappers.py, reduced to what tf.function needs).
"""
import collections
import enum
import functools
import inspect
import logging
import os
import re
import sys
import textwrap
import traceback
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


def with_function_scope(thunk, scope_name, options):
    """The body of a converted lambda runs as thunk(scope)."""
    with FunctionScope("lambda_", scope_name, options) as scope:
        return thunk(scope)


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
    # Python's own, where its limits or TF's converter's recursion refuse the source
    "RecursionError": RecursionError,
    "MemoryError": MemoryError,
    "SyntaxError": SyntaxError,
    "IndentationError": IndentationError,
    "TabError": TabError,
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
    """(converted source, diff, source line per converted line) of a plain function, or TF's
    exception."""
    code = fn.__code__
    source = _source_of(fn)
    if code.co_name == "<lambda>":
        # Found, as TF finds it, by its first line (the first line of its source) and parameters.
        ok, text, diff, tf_type, line_origins = _core.autograph_convert_lambda(
            source, 1, _parameter_names(code), list(fn.__globals__), code.co_filename)
        if not ok:
            if tf_type == "UnsupportedLanguageElementError":
                # Several lambdas on the line with its signature: TF warns and runs it as is.
                raise UnsupportedLanguageElementError(
                    text.replace("<function <lambda> at 0x0>", repr(fn)))
            raise _LambdaSourceError(text)
        return text, diff, (source, line_origins)
    ok, text, diff, tf_type, line_origins = _core.autograph_convert(
        source, code.co_name, list(fn.__globals__), code.co_filename)
    if not ok:
        text = text.replace("<function %s at 0x0>" % code.co_name, repr(fn))
        raise _ERRORS.get(tf_type, ConversionError)(text)
    return text, diff, (source, line_origins)


class _LambdaSourceError(InaccessibleSourceCodeError):
    """The lambda's source lines do not parse alone (it starts inside a longer expression) or
    hold several lambdas with its parameters: it runs as written."""


def _parameter_names(code):
    """Parameter names in source order: positional, *args, keyword-only, **kwargs."""
    names = list(code.co_varnames[:code.co_argcount])
    kwonly = list(code.co_varnames[code.co_argcount:code.co_argcount + code.co_kwonlyargcount])
    i = code.co_argcount + code.co_kwonlyargcount
    if code.co_flags & inspect.CO_VARARGS:
        names.append(code.co_varnames[i])
        i += 1
    names += kwonly
    if code.co_flags & inspect.CO_VARKEYWORDS:
        names.append(code.co_varnames[i])
    return names


# code object -> the compiled factory of its converted function.
_factories = {}
# (compiled file, line) -> (user's file, line, function name, source line): TF's source map.
_source_map = {}


def _factory_for(fn):
    code = fn.__code__
    hit = _factories.get(code)
    if hit is not None:
        return hit
    text, _, (source, line_origins) = _convert_text(fn)
    freevars = code.co_freevars
    lines = ["def __ag_outer():"]
    lines += ["    %s = None" % v for v in freevars]
    lines.append("    def __ag_inner(ag__):")
    header = len(lines)
    lines.append(textwrap.indent(textwrap.dedent(text), "        ").rstrip("\n"))
    # TF's namer drops a trailing _<digits> (f_1 -> tf__f); read the name the converter chose.
    converted_name = re.search(r"^\s*(?:def (tf__\w+)\(|(tf__lam) = )", text, re.M)
    lines.append("        return %s" % (converted_name.group(1) or converted_name.group(2)))
    lines.append("    return __ag_inner")
    filename = "<autograph %s:%d %s>" % (code.co_filename, code.co_firstlineno, code.co_name)
    source_lines = source.splitlines()
    for i, origin in enumerate(line_origins):
        if origin:
            _source_map[(filename, header + i + 1)] = (
                code.co_filename, code.co_firstlineno + origin - 1, code.co_name,
                source_lines[origin - 1] if origin <= len(source_lines) else None)
    module_code = compile("\n".join(lines) + "\n", filename, "exec")
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


# ---- errors raised in converted code (TF's pyct/error_utils.py and impl/api.py) ----

_PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_API_FILE = os.path.abspath(__file__)

KNOWN_STRING_CONSTRUCTOR_ERRORS = (AssertionError, AttributeError, NameError, NotImplementedError,
                                   RuntimeError, StopIteration, TypeError, UnboundLocalError,
                                   ValueError)


class AutoGraphError(Exception):
    pass


class StagingError(AutoGraphError):
    pass


class MultilineMessageKeyError(KeyError):
    def __init__(self, message, original_key):
        super().__init__(original_key)
        self.__message = message

    def __str__(self):
        return self.__message


_FrameInfo = collections.namedtuple(
    "_FrameInfo", ("filename", "lineno", "function_name", "code", "is_converted",
                   "is_allowlisted"))


def _stack_trace_inside_mapped_code(tb, converted_file):
    """The frames from the innermost one to the innermost frame of the converted function whose
    call caught the error (`converted_file`, its generated code: TF maps with that function's own
    source map, so an outer function's error names its own line, not an inner one's), converted
    frames at the user's lines; a frame of converted_call marks the frame below it as
    allowlisted."""
    result = []
    for filename, lineno, function_name, text in reversed(tb):
        origin = _source_map.get((filename, lineno)) if filename == converted_file else None
        if origin is not None:
            result.append(_FrameInfo(origin[0], origin[1], origin[2], origin[3], True, False))
            break
        if os.path.abspath(filename) == _API_FILE:
            if result:
                result[-1] = result[-1]._replace(is_converted=False, is_allowlisted=True)
            continue
        result.append(_FrameInfo(filename, lineno, function_name, text, False, False))
    return tuple(result)


def _include_frame(filename):
    # TF hides its own frames; tfscope hides the frames of its package.
    return not os.path.abspath(filename).startswith(_PACKAGE_DIR + os.sep)


class _ErrorMetadata(object):
    def __init__(self, callsite_tb, cause_metadata, cause_message, converted_file):
        translated = _stack_trace_inside_mapped_code(callsite_tb, converted_file)
        if cause_metadata is None:
            self.translated_stack = translated
            self.cause_message = cause_message
        else:
            self.translated_stack = cause_metadata.translated_stack + (translated[-1],)
            self.cause_message = cause_metadata.cause_message

    def get_message(self):
        lines = ["in user code:", ""]
        for frame in reversed(self.translated_stack):
            if not _include_frame(frame.filename):
                continue
            line = '    File "%s", line %d, in %s' % (frame.filename, frame.lineno,
                                                     frame.function_name)
            if frame.is_converted:
                line += "  *"
            elif frame.is_allowlisted:
                line += "  **"
            lines.append(line)
            lines.append("        " + ("<source unavailable>" if frame.code is None
                                       else frame.code.strip()))
        lines.append("")
        lines.extend("    " + ln for ln in self.cause_message.split("\n"))
        lines.append("")
        return "\n".join(lines)

    def create_exception(self, source_error):
        from .. import errors
        preferred_type = type(source_error)
        if issubclass(preferred_type, errors.OpError):
            # TF's: the source error's node_def, op and payloads with the new message.
            if preferred_type is errors.OpError:
                return preferred_type(source_error.node_def, source_error.op, self.get_message(),
                                      source_error.error_code, source_error.experimental_payloads)
            return preferred_type(source_error.node_def, source_error.op, self.get_message(),
                                  source_error.experimental_payloads)
        if preferred_type in (PyCTError, AutoGraphError, ConversionError, StagingError,
                              errors._InaccessibleTensorError,
                              errors.OperatorNotAllowedInGraphError):
            return preferred_type(self.get_message())
        to_ret = None
        if preferred_type.__init__ is Exception.__init__:
            to_ret = preferred_type(self.get_message())
        if preferred_type in KNOWN_STRING_CONSTRUCTOR_ERRORS:
            to_ret = preferred_type(self.get_message())
        elif preferred_type is KeyError:
            to_ret = MultilineMessageKeyError(self.get_message(), self.cause_message)
        if to_ret is not None:
            return to_ret.with_traceback(source_error.__traceback__)
        return StagingError(self.get_message())

    def to_exception(self, source_error):
        exc = self.create_exception(source_error)
        exc.__suppress_context__ = True
        exc.ag_error_metadata = self
        return exc


def _attach_error_metadata(e, tb, converted):
    if hasattr(e, "ag_pass_through"):
        return
    metadata = getattr(e, "ag_error_metadata", None)
    message = "{}: {}".format(e.__class__.__name__, e) if metadata is None else None
    try:
        e.ag_error_metadata = _ErrorMetadata(traceback.extract_tb(tb)[1:], metadata, message,
                                             converted.__code__.co_filename)
    except AttributeError:  # exceptions whose attributes cannot be set pass unchanged
        pass


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
    if isinstance(exc, _LambdaSourceError):
        pass
    elif isinstance(exc, (InaccessibleSourceCodeError, UnsupportedLanguageElementError)):
        _log.warning(template, f, "", exc)
    else:
        _log.warning(template, f,
                     "Please report this to the TensorFlow team. When filing the bug, set the "
                     "verbosity to 10 (on Linux, `export AUTOGRAPH_VERBOSITY=10`) and attach the "
                     "full output.\n", exc)
    return f(*args, **kwargs)


def _super_in_original_context(caller_fn_scope):
    """Zero-argument super() called from converted code: the class and `self` of the converted
    method (its __class__ cell comes from the original's closure), as TF's py_builtins does."""
    frame, found = sys._getframe(1), None
    while frame is not None:
        if frame.f_locals.get(caller_fn_scope.name, None) is caller_fn_scope:
            found = frame  # the outermost frame holding the scope is the method itself
        frame = frame.f_back
    if found is None or "__class__" not in found.f_locals:
        raise RuntimeError("super(): __class__ cell not found")
    return super(found.f_locals["__class__"], found.f_locals[found.f_code.co_varnames[0]])


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
    if f is super and not args and caller_fn_scope is not None:
        return _super_in_original_context(caller_fn_scope)
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
    method = getattr(target, "_tfscope_module_method", None)
    if method is not None:  # tf.Module.with_name_scope: the user's method converted, in scope
        with effective_args[0].name_scope:
            return converted_call(method, effective_args, kwargs, caller_fn_scope, options)
    if inspect.isgeneratorfunction(target):
        return f(*args, **kwargs)
    try:
        converted = _instantiate(target)
    except Exception as e:  # TF falls back to the unconverted function on any conversion error
        return _fall_back_unconverted(f, args, kwargs, e)
    try:
        return converted(*effective_args, **kwargs)
    except Exception as e:
        _attach_error_metadata(e, sys.exc_info()[2], converted)
        raise


def convert(python_function, optional_features=None):
    """What tf.function calls instead of the Python function when autograph=True."""
    options = ConversionOptions(recursive=True, user_requested=True,
                                optional_features=optional_features)

    @functools.wraps(python_function)
    def converted(*args, **kwargs):
        try:
            return converted_call(python_function, args, kwargs, options=options)
        except Exception as e:
            # tf.function reports errors from converted code "in user code:" at the user's lines.
            metadata = getattr(e, "ag_error_metadata", None)
            if metadata is None:
                raise
            raise metadata.to_exception(e)

    return autograph_artifact(converted)
