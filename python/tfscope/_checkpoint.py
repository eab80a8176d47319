"""tf.train.load_checkpoint, list_variables, load_variable and latest_checkpoint over the engine's
TensorBundle reader (tfscope/checkpoint.h): a checkpoint read by the names its tensors were saved
under (tf.compat.v1.train.Saver's are the variables' names, as in the public BERT checkpoints)."""
import os

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
