// tf.summary's writer ops (SummaryWriter, CreateSummaryFileWriter, WriteSummary,
// FlushSummaryWriter, CloseSummaryWriter) and the TensorBoard event files they write
// (src/data/summary_ops.cc). The Python surface (create_file_writer, scalar, histogram, text,
// record_if) is python/tfscope/summary.py, TF's and TensorBoard's Python over these ops.
#pragma once

namespace tfs::data {

// Registers the ops once; every entry point that may stage or run them calls it first.
void register_summary_ops();

}  // namespace tfs::data
