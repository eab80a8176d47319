// fingerprint.pb's hashes as TF 2.21 computes them (tensorflow/cc/saved_model/fingerprinting.cc,
// producer 4): FarmHash's Fingerprint64 over deterministic serializations, combined with TF's
// FingerprintCat64. What is hashed:
//   saved_model_checksum     the whole SavedModel
//   graph_def_program_hash   meta_graphs[0].graph_def with its library and versions cleared, the
//                            uid suffix cut from (Stateful)PartitionedCall's `f`, their
//                            config_proto emptied and string Consts' values cleared
//   signature_def_hash       per signature, in key order: the key, then the SignatureDef
//   saved_object_graph_hash  per concrete function, by the uid ending its name: the name without
//                            the uid, then the SavedConcreteFunction
//   checkpoint_hash          variables/variables.index's bytes (0 without one)
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "tfscope/proto/fingerprint.pb.h"
#include "tfscope/proto/saved_model.pb.h"

namespace tfs::savedmodel {

// TF's FingerprintCat64: an order-dependent combination of two fingerprints.
uint64_t fingerprint_cat64(uint64_t a, uint64_t b);

// The fingerprint of a SavedModel whose saved_model.pb holds `model` and whose checkpoint index
// file holds `checkpoint_index` (nullopt: no checkpoint). The uuid is left empty. Throws
// FormatError when a concrete function's name does not end in a uid (TF refuses those too).
tensorflow::FingerprintDef compute_fingerprint(const tensorflow::SavedModel& model,
                                               const std::optional<std::string>& checkpoint_index);

// The same for the files of a SavedModel directory.
tensorflow::FingerprintDef compute_fingerprint(const std::string& dir);

// A random 128-bit id in decimal, at least 20 digits (TF's CreateRandomUUID).
std::string random_fingerprint_uuid();

}  // namespace tfs::savedmodel
