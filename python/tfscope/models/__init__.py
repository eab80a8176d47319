"""Models written once against TF's API: each takes the `tf` module it runs on (tfscope or
TensorFlow), so the same source is what tfscope traces and what real TF runs beside it."""
