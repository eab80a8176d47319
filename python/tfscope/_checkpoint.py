"""Checkpoints (tfscope/checkpoint.h): tf.train.load_checkpoint, list_variables, load_variable and
latest_checkpoint read one by the names its tensors were saved under (tf.compat.v1.train.Saver's
are the variables' names, as in the public BERT checkpoints; tf.train.Checkpoint's are object
paths); tf.train.Checkpoint and tf.train.CheckpointManager write and restore object-based ones as
TF 2.21 does: each variable under the path of local names from the root, and the object graph."""
import logging as _logging
import os
import time

from . import _core


class CheckpointReader:
    """What tf.train.load_checkpoint returns: tensors by name, as numpy arrays."""

    def __init__(self, core):
        self._core = core
        self._vars = {name: (dtype, list(shape)) for name, dtype, shape in core.variables()}

    def get_variable_to_shape_map(self):
        return {name: list(shape) for name, (_, shape) in self._vars.items()}

    def get_variable_to_dtype_map(self):
        return {name: dtype for name, (dtype, _) in self._vars.items()}

    def has_tensor(self, name):
        return self._core.has_tensor(name)

    def get_tensor(self, name):
        return self._core.get_tensor(name).numpy()


def load_checkpoint(ckpt_dir_or_file):
    return CheckpointReader(_core.CheckpointReaderCore(os.fspath(ckpt_dir_or_file)))


def list_variables(ckpt_dir_or_file):
    reader = load_checkpoint(ckpt_dir_or_file)
    return sorted(reader.get_variable_to_shape_map().items())


def load_variable(ckpt_dir_or_file, name):
    if name.endswith(":0"):
        name = name[:-2]
    return load_checkpoint(ckpt_dir_or_file).get_tensor(name)


def latest_checkpoint(checkpoint_dir, latest_filename=None):
    if latest_filename is not None:
        raise NotImplementedError("[checkpoint] latest_filename is not supported")
    return _core.latest_checkpoint(os.fspath(checkpoint_dir)) or None


# ---- tf.train.Checkpoint ----

def _is_trackable(value):
    from ._saved_objects import _trackable
    return _trackable(value)


def _object_tree(root):
    """The objects a checkpoint of `root` holds, as _core.checkpoint_write takes them."""
    from . import Variable
    from ._saved_objects import checkpoint_children, number_objects

    def describe(o, i):
        entry = ([], o._tfscope_variable if isinstance(o, Variable) else None)
        return entry, entry[0], checkpoint_children(o)

    return number_objects(root, describe)


def _write_state(directory, latest, paths, timestamps=None, last_preserved=None):
    """The `checkpoint` file (CheckpointState, text format), paths relative to `directory`."""
    def rel(p):
        return os.path.basename(p) if os.path.dirname(p) == directory else p

    lines = [f'model_checkpoint_path: "{rel(latest)}"']
    lines += [f'all_model_checkpoint_paths: "{rel(p)}"' for p in paths]
    if timestamps is not None:
        lines += [f"all_model_checkpoint_timestamps: {t!r}" for t in timestamps]
        lines.append(f"last_preserved_timestamp: {last_preserved!r}")
    tmp = os.path.join(directory, "checkpoint.tmp")
    with open(tmp, "w") as f:
        f.write("\n".join(lines) + "\n")
    os.replace(tmp, os.path.join(directory, "checkpoint"))


class _Restore:
    """One restore's bookkeeping (TF's restore coordinator): the checkpoint's nodes, which of its
    values were restored, and whether the program said a partial restore is expected. When it
    goes (with the Checkpoint and the status holding it) with values left unrestored, TF warns."""

    def __init__(self, nodes, reader):
        self.nodes = nodes
        self.reader = reader
        self.restored = set()  # node ids whose value went into a variable
        self.matched = set()   # ids of the Python variables that received a value
        self.partial_expected = False

    def __del__(self):
        if self.partial_expected:
            return
        paths = _node_paths(self.nodes)
        left = [i for i, (_, _, key) in enumerate(self.nodes) if key and i not in self.restored]
        if not left:
            return
        log = _logging.getLogger("tensorflow")
        log.warning(
            "Detecting that an object or model or tf.train.Checkpoint is being deleted with "
            "unrestored values. See the following logs for the specific values in question. To "
            "silence these warnings, use `status.expect_partial()`. See "
            "https://www.tensorflow.org/api_docs/python/tf/train/Checkpoint#restorefor details "
            "about the status object returned by the restore function.")
        for i in left:
            log.warning("Value in checkpoint could not be found in the restored object: %s",
                        paths[i])


def _node_paths(nodes):
    """Each node's path as TF prints it: "(root).model.layers.0.w", breadth-first."""
    paths = {0: "(root)"}
    queue = [0]
    for n in queue:
        for name, child in nodes[n][0]:
            if child not in paths:
                paths[child] = f"{paths[n]}.{name}"
                queue.append(child)
    return paths


def _node_text(children, full_name, key):
    """A variable's node of the object graph in protobuf's text format, as TF prints it."""
    text = "".join(f'children {{\n  node_id: {c}\n  local_name: "{n}"\n}}\n'
                   for n, c in children)
    text += (f'attributes {{\n  name: "VARIABLE_VALUE"\n  full_name: "{full_name}"\n'
             f'  checkpoint_key: "{key}"\n}}\n')
    return text + "has_checkpoint_values {\n  value: true\n}\n"


class _LoadStatus:
    """What Checkpoint.restore/read return: which saved values and Python objects were matched."""

    def __init__(self, checkpoint, restore=None):
        self._checkpoint = checkpoint
        self._restore = restore
        self._matched = restore.matched if restore is not None else set()

    def _unmatched(self):
        """The variables reachable from the checkpoint that no value went into, depth first.
        (A loop, not a recursive closure: a closure cycle would keep the status, and so the
        restore and its deletion warning, alive until the garbage collector runs.)"""
        from . import Variable
        from ._saved_objects import checkpoint_children
        seen, out, stack = set(), [], [self._checkpoint._tree_root()]
        while stack:
            o = stack.pop()
            if id(o) in seen:
                continue
            seen.add(id(o))
            if isinstance(o, Variable) and id(o) not in self._matched:
                out.append(o)
            stack.extend(reversed([c for _, c in checkpoint_children(o)]))
        return out

    def _raise_unmatched(self, unmatched):
        shown = unmatched[:10]
        raise AssertionError(
            f"Found {len(unmatched)} Python objects that were not bound to checkpointed values, "
            "likely due to changes in the Python program. Showing "
            f"{len(shown)} of {len(unmatched)} unmatched objects: {shown}")

    def assert_existing_objects_matched(self):
        unmatched = self._unmatched()
        if unmatched:
            self._raise_unmatched(unmatched)
        return self

    def assert_consumed(self):
        """The Python objects all matched, and every value in the checkpoint went somewhere (TF
        names the first that did not, with its node of the object graph as text)."""
        self.assert_existing_objects_matched()
        if self._restore is not None:
            nodes = self._restore.nodes
            for i, (children, full_name, key) in enumerate(nodes):
                if key and i not in self._restore.restored:
                    raise AssertionError(
                        f"Unresolved object in checkpoint {_node_paths(nodes)[i]}: "
                        f"{_node_text(children, full_name, key)}")
        return self

    def assert_nontrivial_match(self):
        if not self._matched:
            raise AssertionError(
                "Nothing except the root object matched a checkpointed value. Typically this "
                "means that the checkpoint does not match the Python program. The following "
                f"objects have no matching checkpointed value: {self._unmatched()}")
        return self

    def expect_partial(self):
        if self._restore is not None:
            self._restore.partial_expected = True
        return self

    def run_restore_ops(self, session=None):
        return None

    def initialize_or_restore(self, session=None):
        return None


class InitializationOnlyStatus(_LoadStatus):
    """restore(None): nothing to restore."""

    def assert_consumed(self):
        raise AssertionError("No checkpoint specified (save_path=None); nothing is being restored.")

    assert_existing_objects_matched = assert_consumed
    assert_nontrivial_match = assert_consumed


def _restore_value(var, key, reader):
    from . import TensorShape, init_scope
    value = reader.get_tensor(key)
    if tuple(var.shape) != tuple(value.shape):
        raise ValueError(
            f"Received incompatible tensor with shape {TensorShape(value.shape)} when attempting "
            f"to restore variable with shape {var.shape} and name {var.name}.")
    with init_scope():
        var.assign(value.astype(var.dtype.as_numpy_dtype))


def _restore(obj, node_id, restore, seen):
    """Gives `obj` (and what hangs from it) the values of checkpoint node `node_id`; children not
    created yet wait on their parent Module (restored when the attribute is assigned)."""
    from . import Module, Variable
    from ._saved_objects import checkpoint_children
    if (id(obj), node_id) in seen:
        return
    seen.add((id(obj), node_id))
    children, _, key = restore.nodes[node_id]
    if isinstance(obj, Variable):
        if key:
            restore.restored.add(node_id)  # bound to an object, even if its value then fails
            _restore_value(obj, key, restore.reader)
            restore.matched.add(id(obj))
        return
    present = dict(checkpoint_children(obj))
    for name, child_id in children:
        if name in present:
            _restore(present[name], child_id, restore, seen)
        elif isinstance(obj, Module):
            pending = obj.__dict__.setdefault("_tfscope_deferred_restores", {})
            pending[name] = (child_id, restore)


def restore_deferred(module, name, value):
    """Module.__setattr__'s hook: an attribute a restored checkpoint had a value for."""
    pending = module.__dict__.get("_tfscope_deferred_restores")
    if pending and name in pending:
        child_id, restore = pending.pop(name)
        _restore(value, child_id, restore, set())


class Checkpoint:
    """tf.train.Checkpoint: saves and restores the variables reachable from its keyword
    arguments, by their paths of attribute names."""

    def __init__(self, root=None, **kwargs):
        if root is not None and not _is_trackable(root):
            raise ValueError(
                f"`Checkpoint` was expecting root to be a trackable object (an object derived "
                f"from `Trackable`), got {root}. If you believe this object should be trackable "
                "(i.e. it is part of the TensorFlow Python API and manages state), please open "
                "an issue.")
        for k, v in sorted(kwargs.items()):
            if not _is_trackable(v):
                raise ValueError(
                    f"`Checkpoint` was expecting {k} to be a trackable object (an object derived "
                    f"from `Trackable`), got {v}. If you believe this object should be trackable "
                    "(i.e. it is part of the TensorFlow Python API and manages state), please "
                    "open an issue.")
            setattr(self, k, v)
        self.__dict__["_tfscope_root"] = root

    @property
    def save_counter(self):
        """The number of save() calls so far (an int64 variable, created on first use)."""
        counter = self.__dict__.get("save_counter")
        if counter is None:
            from . import Variable, init_scope, int64
            with init_scope():
                counter = Variable(0, dtype=int64, trainable=False, name="save_counter")
            self.__dict__["save_counter"] = counter
        return counter

    def _tree_root(self):
        return self if self._tfscope_root is None else self._tfscope_root

    def write(self, file_prefix, options=None):
        file_prefix = os.fspath(file_prefix)
        _core.checkpoint_write(file_prefix, _object_tree(self._tree_root()))
        return file_prefix

    def save(self, file_prefix, options=None):
        counter = self.save_counter
        counter.assign_add(1)
        path = self.write(f"{os.fspath(file_prefix)}-{int(counter.numpy())}")
        directory = os.path.dirname(path) or "."
        _write_state(directory, path, [path])
        return path

    def read(self, save_path, options=None):
        save_path = os.fspath(save_path)
        try:
            reader = _core.CheckpointReaderCore(save_path)
        except Exception as e:
            from .errors import NotFoundError
            if isinstance(e, NotFoundError):
                raise NotFoundError(
                    None, None,
                    f"Error when restoring from checkpoint or SavedModel at {save_path}: {e}\n"
                    "Please double-check that the path is correct. You may be missing the "
                    "checkpoint suffix (e.g. the '-1' in 'path/to/ckpt-1').") from None
            raise
        restore = _Restore(reader.object_graph(), _Values(reader))
        self.save_counter  # noqa: B018  (TF creates it before restoring, so it is restored too)
        self.__dict__["_tfscope_restore"] = restore  # lives as long as the Checkpoint
        _restore(self._tree_root(), 0, restore, set())
        return _LoadStatus(self, restore)

    def restore(self, save_path, options=None):
        if save_path is None:
            return InitializationOnlyStatus(self)
        return self.read(save_path, options)


class _Values:
    """Checkpoint tensors as numpy arrays."""

    def __init__(self, core):
        self._core = core

    def get_tensor(self, key):
        return self._core.get_tensor(key).numpy()


class CheckpointManager:
    """tf.train.CheckpointManager: numbered saves in a directory, the last `max_to_keep` kept."""

    def __init__(self, checkpoint, directory, max_to_keep, keep_checkpoint_every_n_hours=None,
                 checkpoint_name="ckpt", step_counter=None, checkpoint_interval=None,
                 init_fn=None):
        self._checkpoint = checkpoint
        self._directory = os.fspath(directory)
        self._max_to_keep = max_to_keep
        self._prefix = os.path.join(self._directory, checkpoint_name)
        self._kept = []  # (path, timestamp)
        self._last_preserved = time.time()
        state = os.path.join(self._directory, "checkpoint")
        if os.path.exists(state):
            paths = []
            with open(state) as f:
                for line in f:
                    if line.startswith("all_model_checkpoint_paths:"):
                        p = line.split(":", 1)[1].strip().strip('"')
                        paths.append(p if os.path.isabs(p) else os.path.join(self._directory, p))
            self._kept = [(p, self._last_preserved) for p in paths]

    @property
    def directory(self):
        return self._directory

    @property
    def checkpoint(self):
        return self._checkpoint

    @property
    def checkpoints(self):
        return [p for p, _ in self._kept]

    @property
    def latest_checkpoint(self):
        return self._kept[-1][0] if self._kept else None

    def save(self, checkpoint_number=None, check_interval=True, options=None):
        counter = self._checkpoint.save_counter
        counter.assign_add(1)
        number = int(counter.numpy()) if checkpoint_number is None else int(checkpoint_number)
        path = self._checkpoint.write(f"{self._prefix}-{number}")
        self._kept = [(p, t) for p, t in self._kept if p != path] + [(path, time.time())]
        if self._max_to_keep is not None:
            while len(self._kept) > self._max_to_keep:
                old, _ = self._kept.pop(0)
                for suffix in (".index", ".data-00000-of-00001"):
                    if os.path.exists(old + suffix):
                        os.remove(old + suffix)
        _write_state(self._directory, path, self.checkpoints, [t for _, t in self._kept],
                     self._last_preserved)
        return path

    def restore_or_initialize(self):
        if self.latest_checkpoint is not None:
            self._checkpoint.restore(self.latest_checkpoint)
            return self.latest_checkpoint
        return None
