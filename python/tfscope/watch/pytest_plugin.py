"""The pytest plugin (entry point pytest11 = tfscope_watch): guards a test suite's tf.functions.

    pytest --tfscope-max-traces=N    each test runs under a watch: a trace past N raises
    @pytest.mark.max_traces(1)       the budget for one test (a watch even without the option)
    def test_x(tfscope_watch): ...   the test's Watch (tfscope_watch.functions, .summary())

A trace over the budget raises tfscope.watch.RetraceError inside the call that made it, naming its
reason and hint, so the test fails there. Budgets count per Python function, per test.
"""
import pytest


def pytest_addoption(parser):
    group = parser.getgroup("tfscope", "tfscope watch (real TensorFlow's tf.function traces)")
    group.addoption("--tfscope-max-traces", type=int, default=None, metavar="N",
                    help="run each test under tfscope watch; a tf.function's trace past N raises "
                         "RetraceError naming its reason")


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "max_traces(n): run the test under tfscope watch, a tf.function's trace past "
        "n raises RetraceError")
    n = config.getoption("--tfscope-max-traces")
    if n is not None and n < 1:
        raise pytest.UsageError("--tfscope-max-traces must be at least 1, not %d" % n)


def _budget(item):
    mark = item.get_closest_marker("max_traces")
    if mark is not None:
        if len(mark.args) != 1 or not isinstance(mark.args[0], int) or mark.args[0] < 1:
            raise pytest.UsageError("%s: max_traces takes one whole number of traces >= 1"
                                    % item.nodeid)
        return mark.args[0], "@pytest.mark.max_traces(%d)" % mark.args[0]
    n = item.config.getoption("--tfscope-max-traces")
    return n, (None if n is None else "--tfscope-max-traces=%d" % n)


def _watch_for(item):
    from tfscope import watch
    w = getattr(item, "_tfscope_watch", None)
    if w is None:
        limit, source = _budget(item)
        w = watch.Watch(max_traces=limit, budget_source=source)
        item._tfscope_watch = w
    return w


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_setup(item):
    limit, _ = _budget(item)
    if limit is not None or "tfscope_watch" in getattr(item, "fixturenames", ()):
        _watch_for(item).start()
    yield


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_teardown(item, nextitem):
    yield
    w = getattr(item, "_tfscope_watch", None)
    if w is not None:
        w.stop()


@pytest.fixture
def tfscope_watch(request):
    """The Watch this test runs under (started before the test, stopped after it)."""
    return _watch_for(request.node)
