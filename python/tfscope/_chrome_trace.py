"""Trace Event Format (Perfetto, chrome://tracing): the one writer of tfscope's timelines, for
the watch's calls and traces (tfscope watch --chrome-trace) and for tfscope.profile's ops."""
import json


class Trace:
    """Complete ("X") events on numbered thread tracks of one process; times in microseconds."""

    def __init__(self):
        self.events = []
        self._tids = {}
        self._names = {}  # track number -> its name

    def track(self, thread, name=None):
        """The track number of `thread` (any hashable key), numbered from 1 in order of use."""
        n = self._tids.get(thread)
        if n is None:
            n = self._tids[thread] = len(self._tids) + 1
            self._names[n] = name or "thread %d" % n
        return n

    def span(self, name, cat, ts_us, dur_us, thread, args=None):
        e = {"name": name, "cat": cat, "ph": "X", "ts": ts_us, "dur": dur_us, "pid": 1,
             "tid": self.track(thread)}
        if args:
            e["args"] = args
        self.events.append(e)

    def document(self):
        names = [{"name": "thread_name", "ph": "M", "pid": 1, "tid": n, "args": {"name": name}}
                 for n, name in sorted(self._names.items())]
        return {"traceEvents": self.events + names, "displayTimeUnit": "ms"}

    def write(self, path):
        with open(path, "w") as f:
            json.dump(self.document(), f)
            f.write("\n")
