"""tf.strings over TF's string kernels (the generated wrappers' names: "StringLower",
"StringJoin", ...): lower, upper, strip, length, to_number, join, substr (src/ops/strings.cc);
split (to a RaggedTensor), regex_replace, regex_full_match, as_string, to_hash_bucket_fast,
reduce_join (src/ops/strings_text.cc) and format (StringFormat, tf.print's op)."""
from . import _core
from ._gen import name_scope
from ._types import as_dtype

_string = as_dtype("string")
_int32 = as_dtype("int32")
_int64 = as_dtype("int64")


def _unary(op, input, name, attrs=None):  # noqa: A002  (TF's argument name)
    return _core.apply_op(op, [input], attrs, name)


class strings:  # noqa: N801  (tf.strings namespace)
    @staticmethod
    def lower(input, encoding="", name=None):  # noqa: A002
        return _unary("StringLower", input, name, {"encoding": encoding})

    @staticmethod
    def upper(input, encoding="", name=None):  # noqa: A002
        return _unary("StringUpper", input, name, {"encoding": encoding})

    @staticmethod
    def strip(input, name=None):  # noqa: A002
        return _unary("StringStrip", input, name)

    @staticmethod
    def length(input, unit="BYTE", name=None):  # noqa: A002
        return _unary("StringLength", input, name, {"unit": unit})

    @staticmethod
    def to_number(input, out_type=as_dtype("float32"), name=None):  # noqa: A002
        return _core.apply_op("StringToNumber", [input], {"out_type": as_dtype(out_type)}, name)

    @staticmethod
    def join(inputs, separator="", name=None):
        return _core.apply_op("StringJoin", [inputs], {"separator": separator}, name)

    @staticmethod
    def substr(input, pos, len, unit="BYTE", name=None):  # noqa: A002
        return _core.apply_op("Substr", [input, pos, len], {"unit": unit}, name)

    # ---- splitting, regexes, formatting, hashing (src/ops/strings_text.cc) ----
    @staticmethod
    def split(input, sep=None, maxsplit=-1, name=None):  # noqa: A002
        """TF's tf.strings.split: StringSplitV2 in a "StringSplit" scope; a vector gives a
        RaggedTensor (from_value_rowids of the sparse result), a scalar a vector of tokens."""
        from . import _ragged
        import tfscope as tf
        with name_scope(name, "StringSplit"):
            input = tf.convert_to_tensor(input, _string, name="input")  # noqa: A001
            rank = input.shape.rank
            if rank is not None and rank > 1:
                raise NotImplementedError(
                    "[python] tf.strings.split of a rank-%d input is not supported "
                    "(tfscope's RaggedTensor has one ragged dimension)" % rank)
            if rank == 0:
                return _split_v2(tf.stack([input]), sep, maxsplit)[1]
            indices, values, shape = _split_v2(input, sep, maxsplit)
            return _ragged.RaggedTensor.from_value_rowids(
                values=values, value_rowids=indices[:, 0], nrows=shape[0], validate=False)

    # ---- bytes and Unicode characters (src/ops/strings_unicode.cc) ----
    @staticmethod
    def bytes_split(input, name=None):  # noqa: A002
        """TF's string_bytes_split: the v1 StringSplit with an empty delimiter; a vector gives a
        RaggedTensor of each string's bytes, a scalar a vector of its bytes."""
        from . import _ragged
        import tfscope as tf
        with name_scope(name, "StringsByteSplit"):
            input = tf.convert_to_tensor(input, _string, name="input")  # noqa: A001
            rank = _rank_at_most_one(input, "bytes_split",
                                     "input must have a statically-known rank.")
            source = tf.stack([input]) if rank == 0 else input
            indices, values, shape = _core.apply_op(
                "StringSplit", [source, tf.convert_to_tensor("", _string)],
                {"skip_empty": False})
            if rank == 0:
                return values
            return _ragged.RaggedTensor.from_value_rowids(
                values=values, value_rowids=indices[:, 0], nrows=shape[0], validate=False)

    @staticmethod
    def unicode_decode(input, input_encoding, errors="replace", replacement_char=65533,  # noqa: A002
                       replace_control_characters=False, name=None):
        """TF's unicode_decode: UnicodeDecode of the flattened input; a scalar gives its code
        points, a vector a RaggedTensor of each string's."""
        from . import _ragged
        import tfscope as tf
        with name_scope(name, "UnicodeDecode"):
            input = tf.convert_to_tensor(input, _string)  # noqa: A001
            rank = _rank_at_most_one(input, "unicode_decode",
                                     "Rank of `input` must be statically known.")
            splits, chars = _core.apply_op(
                "UnicodeDecode", [tf.reshape(input, [-1])],
                {"input_encoding": input_encoding, "errors": errors,
                 "replacement_char": int(replacement_char),
                 "replace_control_characters": bool(replace_control_characters)})
            if rank == 0:
                return chars
            return _ragged.RaggedTensor.from_row_splits(chars, splits, validate=False)

    @staticmethod
    def unicode_encode(input, output_encoding, errors="replace", replacement_char=65533,  # noqa: A002
                       name=None):
        """TF's unicode_encode of a RaggedTensor of code points (one string per row) or of a
        dense vector (one string) or matrix (one string per row)."""
        from . import _ragged
        import tfscope as tf
        attrs = {"output_encoding": output_encoding, "errors": errors,
                 "replacement_char": int(replacement_char)}
        with name_scope(name, "UnicodeEncode"):
            if isinstance(input, _ragged.RaggedTensor):
                return _core.apply_op("UnicodeEncode", [input.values, input.row_splits], attrs)
            t = tf.convert_to_tensor(input, _int32)
            rank = t.shape.rank
            if rank == 1:
                n = tf.shape(t, out_type=_int64)[0]
                out = _core.apply_op("UnicodeEncode", [t, tf.stack([tf.constant(0, _int64), n])],
                                     attrs)
                return tf.reshape(out, [])
            if rank == 2:
                rows = tf.shape(t, out_type=_int64)
                splits = tf.range(rows[0] + 1, dtype=_int64) * rows[1]
                return _core.apply_op("UnicodeEncode", [tf.reshape(t, [-1]), splits], attrs)
            raise NotImplementedError(
                "[python] tf.strings.unicode_encode of a rank-%s dense input is not supported"
                % rank)

    @staticmethod
    def unicode_split(input, input_encoding, errors="replace", replacement_char=65533,  # noqa: A002
                      name=None):
        """TF's unicode_split: the code points, each encoded back as one string."""
        from . import _ragged
        with name_scope(name, "UnicodeSplit"):
            points = strings.unicode_decode(input, input_encoding, errors, replacement_char)
            enc = dict(errors=errors, replacement_char=replacement_char)
            if isinstance(points, _ragged.RaggedTensor):
                one = _ragged.RaggedTensor.from_row_splits(
                    points.values, _row_splits_of_ones(points.values), validate=False)
                chars = strings.unicode_encode(one, input_encoding, **enc)
                return _ragged.RaggedTensor.from_row_splits(chars, points.row_splits,
                                                            validate=False)
            one = _ragged.RaggedTensor.from_row_splits(points, _row_splits_of_ones(points),
                                                       validate=False)
            return strings.unicode_encode(one, input_encoding, **enc)

    @staticmethod
    def regex_replace(input, pattern, rewrite, replace_global=True, name=None):  # noqa: A002
        if isinstance(pattern, (str, bytes)) and isinstance(rewrite, (str, bytes)):
            return _core.apply_op("StaticRegexReplace", [input],
                                  {"pattern": _text(pattern), "rewrite": _text(rewrite),
                                   "replace_global": bool(replace_global)}, name)
        return _core.apply_op("RegexReplace", [input, pattern, rewrite],
                              {"replace_global": bool(replace_global)}, name)

    @staticmethod
    def regex_full_match(input, pattern, name=None):  # noqa: A002
        if isinstance(pattern, (str, bytes)):
            return _core.apply_op("StaticRegexFullMatch", [input], {"pattern": _text(pattern)},
                                  name)
        return _core.apply_op("RegexFullMatch", [input, pattern], None, name)

    @staticmethod
    def as_string(input, precision=-1, scientific=False, shortest=False, width=-1,  # noqa: A002
                  fill="", name=None):
        return _core.apply_op("AsString", [input],
                              {"precision": int(precision), "scientific": bool(scientific),
                               "shortest": bool(shortest), "width": int(width), "fill": fill},
                              name)

    @staticmethod
    def to_hash_bucket_fast(input, num_buckets, name=None):  # noqa: A002
        return _core.apply_op("StringToHashBucketFast", [input], {"num_buckets": int(num_buckets)},
                              name)

    @staticmethod
    def reduce_join(inputs, axis=None, keepdims=False, separator="", name=None):
        """TF reduces every axis, last first, when axis is None (a row-major join)."""
        import tfscope as tf
        with name_scope(None, "ReduceJoin"):
            inputs_t = tf.convert_to_tensor(inputs, _string)
            if axis is None:
                rank = inputs_t.shape.rank
                if rank is None:
                    axis = tf.range(tf.rank(inputs_t) - 1, -1, -1)
                else:
                    axis = tf.constant(list(range(rank - 1, -1, -1)), as_dtype("int32"))
            return _core.apply_op("ReduceJoin", [inputs_t, axis],
                                  {"keep_dims": bool(keepdims), "separator": separator}, name)

    @staticmethod
    def format(template, inputs, placeholder="{}", summarize=3, name=None):
        if not isinstance(inputs, (list, tuple)):
            inputs = [inputs]
        count = template.count(placeholder)
        if count != len(inputs):
            raise ValueError(
                "The template expects %d tensors, but the inputs only has %d. Please ensure "
                "the number of placeholders in template matches inputs length."
                % (count, len(inputs)))
        return _core.apply_op("StringFormat", [list(inputs)],
                              {"template": template, "placeholder": placeholder,
                               "summarize": int(summarize)}, name)


def _text(s):
    return s.decode() if isinstance(s, bytes) else s


def _split_v2(source, sep, maxsplit):
    """string_ops.string_split_v2: (indices, values, dense_shape) of StringSplitV2."""
    import tfscope as tf
    sep_t = tf.convert_to_tensor("" if sep is None else sep, _string)
    return _core.apply_op("StringSplitV2", [source, sep_t], {"maxsplit": int(maxsplit)})


def _rank_at_most_one(t, fn, unknown_text):
    """t's static rank: TF's ValueError `unknown_text` when unknown; above 1 not supported here
    (tfscope's RaggedTensor has one ragged dimension)."""
    rank = t.shape.rank
    if rank is None:
        raise ValueError(unknown_text)
    if rank > 1:
        raise NotImplementedError(
            "[python] tf.strings.%s of a rank-%d input is not supported "
            "(tfscope's RaggedTensor has one ragged dimension)" % (fn, rank))
    return rank


def _row_splits_of_ones(values):
    """Row splits putting each element of `values` in a row of its own: 0, 1, ..., n."""
    import tfscope as tf
    return tf.range(tf.shape(values, out_type=_int64)[0] + 1, dtype=_int64)


def decode_raw(input_bytes, out_type, little_endian=True, fixed_length=None, name=None):
    """tf.io.decode_raw: DecodeRaw (every string the same length), or with fixed_length
    DecodePaddedRaw (each string cut or zero-padded to it)."""
    attrs = {"out_type": as_dtype(out_type), "little_endian": bool(little_endian)}
    if fixed_length is None:
        return _core.apply_op("DecodeRaw", [input_bytes], attrs, name)
    import tfscope as tf
    return _core.apply_op("DecodePaddedRaw",
                          [input_bytes, tf.convert_to_tensor(fixed_length, _int32)], attrs, name)
