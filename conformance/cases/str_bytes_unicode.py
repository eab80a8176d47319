"""tf.strings as bytes and as Unicode characters, the way text pipelines use them: bytes_split and
unicode_split/unicode_decode of scalars and batches (a RaggedTensor per batch), malformed UTF-8
under each `errors` mode, UTF-16-BE, unicode_encode back, and tf.io.decode_raw of fixed-size
records (both byte orders), with TF's errors; eagerly and inside a tf.function."""
words = tf.constant(["héllo", "", "🦆 duck", "abc"])
record("bytes_split scalar", tf.strings.bytes_split("Duck"))
record("bytes_split batch", tf.strings.bytes_split(words).to_list())
record("unicode_decode batch", tf.strings.unicode_decode(words, "UTF-8").to_list())
record("unicode_split batch", tf.strings.unicode_split(words, "UTF-8").to_list())
record("unicode_split scalar", tf.strings.unicode_split("アヒル 🦆", "UTF-8"))
record("decode int64 splits", tf.strings.unicode_decode(words, "UTF-8").row_splits)

# Malformed UTF-8: a lone continuation byte, a truncated 3-byte sequence, an overlong form, a
# surrogate, a byte that never starts a sequence, a sequence past U+10FFFF.
bad = tf.constant([b"a\x80b", b"\xe3\x82", b"\xc0\xafz", b"\xed\xa0\x80!", b"\xff", b"\xf4\x90\x80\x80"])
record("replace", tf.strings.unicode_decode(bad, "UTF-8").to_list())
record("replace with ?", tf.strings.unicode_decode(bad, "UTF-8", replacement_char=63).to_list())
record("ignore", tf.strings.unicode_decode(bad, "UTF-8", errors="ignore").to_list())
call("strict", lambda: tf.strings.unicode_decode(bad, "UTF-8", errors="strict"))
record("control characters", tf.strings.unicode_decode(
    tf.constant(["a\tb\x00\x1fc\x7f"]), "UTF-8", replace_control_characters=True).to_list())

utf16 = tf.strings.unicode_encode(tf.strings.unicode_decode(words, "UTF-8"), "UTF-16-BE")
record("to UTF-16-BE", utf16)
record("from UTF-16-BE", tf.strings.unicode_decode(utf16, "UTF-16-BE").to_list())
record("encode ragged", tf.strings.unicode_encode(
    tf.ragged.constant([[72, 105], [], [128512, 33]]), "UTF-8"))
record("encode vector", tf.strings.unicode_encode([104, 105, 0x1F986], "UTF-8"))
record("encode matrix", tf.strings.unicode_encode([[104, 105], [111, 107]], "UTF-8"))
record("encode invalid replace", tf.strings.unicode_encode([65, -1, 0x110000, 0xD800, 66], "UTF-8"))
record("encode invalid ignore", tf.strings.unicode_encode([65, -1, 66], "UTF-8", errors="ignore"))

raw = tf.constant([b"\x01\x00\x00\x00\x02\x00\x00\x00", b"\xff\xff\xff\xff\x00\x00\x80\x3f"])
record("decode_raw int32", tf.io.decode_raw(raw, tf.int32))
record("decode_raw big endian", tf.io.decode_raw(raw, tf.int32, little_endian=False))
record("decode_raw float32", tf.io.decode_raw(raw, tf.float32))
record("decode_raw uint8", tf.io.decode_raw(tf.constant("Duck"), tf.uint8))
record("decode_raw int16 matrix", tf.io.decode_raw(tf.constant([[b"ab"], [b"cd"]]), tf.int16))
call("decode_raw sizes differ", lambda: tf.io.decode_raw(tf.constant([b"abcd", b"ab"]), tf.int16))
call("decode_raw not a multiple", lambda: tf.io.decode_raw(tf.constant([b"abcde"]), tf.int32))


@tf.function
def tokens(s):
    chars = tf.strings.unicode_decode(s, "UTF-8")
    return tf.strings.bytes_split(s).values, chars.values, chars.row_splits, tf.io.decode_raw(s, tf.uint8)


call("in a function", tokens, tf.constant(["ab", "cd"]))

# fixed_length: each record cut or zero-padded to that many bytes (DecodePaddedRaw).
rec = tf.constant([b"\x01\x02\x03", b"\x04\x05\x06\x07\x08\x09", b""])
record("padded uint8", tf.io.decode_raw(rec, tf.uint8, fixed_length=4))
record("padded int16", tf.io.decode_raw(rec, tf.int16, fixed_length=4))
record("padded int16 big endian", tf.io.decode_raw(rec, tf.int16, little_endian=False, fixed_length=4))
call("padded not a multiple", lambda: tf.io.decode_raw(rec, tf.int16, fixed_length=3))
call("padded zero", lambda: tf.io.decode_raw(rec, tf.int16, fixed_length=0))
