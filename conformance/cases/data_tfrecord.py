"""TFRecord files as TF writes and reads them: tf.io.TFRecordWriter's bytes (plain, GZIP, ZLIB,
a flush mid-stream), TFRecordDataset over files TF wrote (embedded below as TF wrote them) and
over the files just written, several files in order, TextLineDataset's lines, and the errors
of damaged files (DataLossError texts, reading on after one) and missing ones."""
import os
import tempfile

d = tempfile.mkdtemp()


def path(name):
    return os.path.join(d, name)


def read(ds):
    out = []
    it = iter(ds)
    for _ in range(8):
        try:
            out.append(next(it).numpy())
        except StopIteration:
            out.append("STOP")
            break
        except Exception as e:  # noqa: BLE001
            out.append("%s: %s" % (type(e).__name__, e))
    return out


def write(name, records, options=None):
    with tf.io.TFRecordWriter(path(name), options) as w:
        for r in records:
            w.write(r)
    with open(path(name), "rb") as f:
        return f.read()


records = [b"hello", b"", b"x" * 300, "text"]
record("plain bytes", write("plain", records).hex())
record("gzip bytes", write("gz", records, "GZIP").hex())
record("zlib bytes", write("zl", records, tf.io.TFRecordOptions(compression_type="ZLIB")).hex())
w = tf.io.TFRecordWriter(path("flushed"), "GZIP")
w.write(b"abc")
w.flush()
w.write(b"abc")
w.close()
with open(path("flushed"), "rb") as f:
    record("flushed gzip bytes", f.read().hex())
attempt("write after close", lambda: w.write(b"x"))
attempt("bad compression", lambda: tf.io.TFRecordWriter(path("bad"), "BAD"))

ds = tf.data.TFRecordDataset(path("plain"))
record("repr", repr(ds))
record("cardinality", int(ds.cardinality()))
record("plain", read(ds))
record("gzip", read(tf.data.TFRecordDataset(path("gz"), compression_type="GZIP")))
record("zlib", read(tf.data.TFRecordDataset([path("zl")], compression_type="ZLIB")))
record("flushed", read(tf.data.TFRecordDataset(path("flushed"), "GZIP")))
record("batched", [x.tolist() for x in tf.data.TFRecordDataset(path("plain")).batch(3).as_numpy_iterator()])

# Bytes TF 2.21 wrote for the records b"tf", b"wrote" and b"this".
tf_file = bytes.fromhex("020000000000000078270b347466837a890e0500000000000000eab2043e77726f7465"
                        "4e4122bc0400000000000000424552047468697338933edb")
with open(path("tf_written"), "wb") as f:
    f.write(tf_file)
record("tf written", read(tf.data.TFRecordDataset(path("tf_written"))))
record("two files", read(tf.data.TFRecordDataset([path("plain"), path("tf_written")]).take(6)))

plain = write("plain2", [b"hello", b"", b"x" * 300])
for name, data in [("header cut", plain[:5]), ("data cut", plain[:14]), ("crc cut", plain[:19]),
                   ("length crc", plain[:8] + bytes([plain[8] ^ 1]) + plain[9:]),
                   ("data changed", plain[:12] + b"H" + plain[13:]),
                   ("data crc", plain[:17] + bytes([plain[17] ^ 1]) + plain[18:]),
                   ("second cut", plain[:21 + 3]), ("third cut", plain[:37 + 12 + 3]),
                   ("second length crc", plain[:29] + bytes([plain[29] ^ 1]) + plain[30:]),
                   ("empty", b"")]:
    with open(path(name), "wb") as f:
        f.write(data)
    record("damaged: " + name, read(tf.data.TFRecordDataset(path(name))))
record("damaged then good", read(tf.data.TFRecordDataset([path("data changed"), path("plain2")])))
record("plain as gzip", read(tf.data.TFRecordDataset(path("plain2"), compression_type="GZIP")))
record("missing", read(tf.data.TFRecordDataset("/nonexistent_tfscope_dir/file.tfrecord").take(2)))
attempt("int filenames", lambda: tf.data.TFRecordDataset(5))

with open(path("lines.txt"), "wb") as f:
    f.write(b"a\r\nbb\n\n c \r\r\nx\ry\nlast")
record("lines", read(tf.data.TextLineDataset(path("lines.txt"))))
record("lines repr", repr(tf.data.TextLineDataset(path("lines.txt"))))
with open(path("lines2.txt"), "wb") as f:
    f.write(b"one\ntwo\n")
record("lines two files", read(tf.data.TextLineDataset([path("lines.txt"), path("lines2.txt")])))
