"""Compiler IR: the errors (no jit_compile, unknown stage, an op XLA has no kernel for), hlo_no_metadata, the trace the getter makes."""
import importlib.util
import os

_spec = importlib.util.spec_from_file_location("_hlo", os.path.join(os.path.dirname(__file__), "_hlo.py"))
_hlo = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_hlo)

x23 = tf.ones([2, 3])


def body(a):
    return a * 2.0


plain = tf.function(body)
attempt("no jit_compile", lambda: plain.experimental_get_compiler_ir(x23))
attempt("jit_compile=False", lambda: tf.function(body, jit_compile=False).experimental_get_compiler_ir(x23))

jit = tf.function(body, jit_compile=True)
count("before the getter", jit)
getter = jit.experimental_get_compiler_ir(x23)
count("after the getter", jit)
attempt("unknown stage", lambda: getter(stage="nonsense"))
call("positional stage", lambda: _hlo.normalize(getter("hlo")))
call("default stage", lambda: _hlo.normalize(getter()))
call("hlo_no_metadata", lambda: _hlo.normalize(getter(stage="hlo_no_metadata")))
jit(x23)
count("a call after the getter reuses its trace", jit)


@tf.function(jit_compile=True)
def printing(a):
    tf.print(a)
    return a + 1.0


def first_line_of_error(thunk):
    # TF's message goes on with the Python frames that created the op; its first line is the error.
    try:
        thunk()
        return "no error"
    except Exception as e:  # noqa: BLE001 - the type is recorded
        return "%s: %s" % (type(e).__name__, str(e).split("\n")[0])


call("tf.print has no XLA kernel", lambda: first_line_of_error(lambda: _hlo.ir(printing, x23)))
