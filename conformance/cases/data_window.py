"""Dataset.window (basic): windows of size/shift/stride with and without drop_remainder, each
element a dataset per component (`_VariantDataset`), the window dataset's DatasetSpec element
spec and cardinality, as the tf.data guide's time-series section uses them."""
D = tf.data.Dataset


def windows(ds):
    out = []
    for w in ds:
        if isinstance(w, tuple):
            out.append(tuple([repr(c), int(c.cardinality()), list(c.as_numpy_iterator())] for c in w))
        else:
            out.append((repr(w), int(w.cardinality()), list(w.as_numpy_iterator())))
    return out


for label, ds in [("size 3", D.range(7).window(3)),
                  ("shift 1", D.range(5).window(3, shift=1)),
                  ("shift 1 drop", D.range(5).window(3, shift=1, drop_remainder=True)),
                  ("stride 2", D.range(10).window(3, shift=2, stride=2)),
                  ("stride drop", D.range(10).window(3, shift=2, stride=2, drop_remainder=True)),
                  ("tuple", D.zip((D.range(5), D.from_tensor_slices(["a", "b", "c", "d", "e"]))).window(2, shift=1, stride=2, drop_remainder=True)),
                  ("vectors", D.from_tensor_slices([[1, 2], [3, 4], [5, 6]]).window(2)),
                  ("taken", D.range(9).window(4).take(2)),
                  ("enumerated", D.range(4).window(2).enumerate())]:
    record(label + " repr", repr(ds))
    record(label + " cardinality", int(ds.cardinality()))
    if label == "enumerated":
        record(label, [(int(i), list(w.as_numpy_iterator())) for i, w in ds])
    else:
        record(label, windows(ds))
record("element_spec", repr(D.range(3).window(2).element_spec))
