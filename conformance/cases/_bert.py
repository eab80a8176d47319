"""BERT-tiny for the bert_* cases: the package's own model files (python/tfscope/models), loaded by
path so that they run under real TF too (they import only numpy and take the `tf` module), and
small fixed inputs with padding."""
import hashlib
import importlib.util
import os
import sys

import numpy as np

_MODELS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python", "tfscope",
                       "models")


def _package():
    """python/tfscope/models as a package of its own (its modules import each other relatively)."""
    if "_bert_models" not in sys.modules:
        spec = importlib.util.spec_from_file_location(
            "_bert_models", os.path.join(_MODELS, "__init__.py"), submodule_search_locations=[_MODELS])
        mod = importlib.util.module_from_spec(spec)
        sys.modules["_bert_models"] = mod
        spec.loader.exec_module(mod)
    return "_bert_models"


def _load(name):
    return importlib.import_module(_package() + "." + name)


bert_tiny = _load("bert_tiny")
pair_task = _load("pair_task")
# The full-size BERT-tiny but for the vocabulary and positions (the task's 64 tokens).
CONFIG = bert_tiny.BertConfig(vocab_size=64, max_position_embeddings=64)


def inputs(n=4, seed=0):
    """(ids, mask, segments, labels) of n generated pairs, int32 numpy."""
    d = pair_task.generate(n, vocab_size=CONFIG.vocab_size, seq_length=16, seed=seed)
    return d.input_ids, d.input_mask, d.segment_ids, d.labels


def bits(a):
    """A float array's exact bits, as a short digest (and shape)."""
    a = np.ascontiguousarray(np.asarray(a))
    return "%s%s sha256 %s" % (a.dtype, list(a.shape), hashlib.sha256(a.tobytes()).hexdigest()[:16])


def ints(a):
    """A float32 array's bits, element by element (where they differ is then visible)."""
    return np.ascontiguousarray(np.asarray(a, np.float32)).view(np.uint32).ravel().tolist()
