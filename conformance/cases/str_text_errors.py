"""tf.strings errors whose text comes from outside the kernel: an invalid RE2 pattern (the
kernel's error matches; TF's RE2 also logs a line naming its own build path), and a bucket count
below the attr's minimum (TF's attr validation names the NodeDef and the OpDef)."""
call("regex_replace bad pattern", lambda: tf.strings.regex_replace(["a"], "(", "x"))
call("regex_full_match bad", lambda: tf.strings.regex_full_match(["a"], "[a"))
call("hash buckets zero", lambda: tf.strings.to_hash_bucket_fast(["a"], 0))
