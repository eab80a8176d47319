// savedmodel_tool write-bundle SPEC.json  -- writes the bundle the spec describes
// savedmodel_tool read-bundle PREFIX      -- prints the bundle as JSON
// savedmodel_tool resave SRC DST          -- reads a SavedModel directory and writes it again
//                                            (saved_model.pb re-serialized, variables re-encoded)
// savedmodel_tool describe DIR            -- prints describe_saved_model
// savedmodel_tool write-demo DIR const|variables -- writes demo_saved_model.h's model
// A spec: {"prefix": "...", "tensors": [{"key", "dtype", "shape", "hex" | "strings_hex"}]}.
// For conformance/formats/check_*.py, which compare it with real TF in both directions.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>

#include "demo_saved_model.h"
#include "tfscope/saved_model_io.h"
#include "tfscope/tensor_bundle.h"

namespace {

std::string to_hex(const std::string& s) {
  static const char* digits = "0123456789abcdef";
  std::string out;
  for (unsigned char c : s) {
    out += digits[c >> 4];
    out += digits[c & 15];
  }
  return out;
}

std::string from_hex(const std::string& h) {
  std::string out;
  for (size_t i = 0; i + 1 < h.size(); i += 2) {
    out.push_back(static_cast<char>(std::stoi(h.substr(i, 2), nullptr, 16)));
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  using tfs::savedmodel::BundleTensor;
  if (argc < 3) {
    std::cerr << "usage: savedmodel_tool write-bundle SPEC.json | read-bundle PREFIX | resave SRC "
                 "DST | describe DIR\n";
    return 2;
  }
  try {
    const std::string mode = argv[1];
    if (mode == "write-bundle") {
      std::ifstream in(argv[2]);
      const nlohmann::json spec = nlohmann::json::parse(in);
      std::vector<BundleTensor> tensors;
      for (const auto& t : spec.at("tensors")) {
        BundleTensor bt;
        bt.key = t.at("key");
        bt.dtype = t.at("dtype");
        bt.shape = t.at("shape").get<std::vector<int64_t>>();
        if (t.contains("strings_hex")) {
          for (const auto& s : t["strings_hex"]) bt.strings.push_back(from_hex(s));
        } else {
          bt.data = from_hex(t.at("hex"));
        }
        tensors.push_back(std::move(bt));
      }
      tfs::savedmodel::write_bundle(spec.at("prefix"), tensors);
      return 0;
    }
    if (mode == "read-bundle") {
      nlohmann::json out = nlohmann::json::array();
      for (const BundleTensor& t : tfs::savedmodel::read_bundle(argv[2])) {
        nlohmann::json j = {{"key", t.key}, {"dtype", t.dtype}, {"shape", t.shape}};
        if (t.dtype == 7) {
          j["strings_hex"] = nlohmann::json::array();
          for (const auto& s : t.strings) j["strings_hex"].push_back(to_hex(s));
        } else {
          j["hex"] = to_hex(t.data);
        }
        out.push_back(j);
      }
      std::cout << out.dump() << "\n";
      return 0;
    }
    if (mode == "resave" && argc == 4) {
      namespace sm = tfs::savedmodel;
      const std::string src = argv[2], dst = argv[3];
      sm::write_saved_model(dst, sm::read_saved_model(src));
      std::filesystem::create_directories(dst + "/variables");
      const sm::BundleReader vars(sm::variables_prefix(src));
      std::vector<BundleTensor> tensors;
      std::vector<std::pair<int64_t, std::string>> by_offset;  // keep TF's data order
      for (const auto& key : vars.keys()) by_offset.emplace_back(vars.entry(key).offset, key);
      std::sort(by_offset.begin(), by_offset.end());
      for (const auto& [offset, key] : by_offset) tensors.push_back(vars.get(key));
      sm::write_bundle(sm::variables_prefix(dst), tensors);
      return 0;
    }
    if (mode == "write-demo" && argc == 4) {
      tfs::savedmodel::testing::write_demo_saved_model(argv[2],
                                                       std::string(argv[3]) == "variables");
      return 0;
    }
    if (mode == "describe") {
      std::cout << tfs::savedmodel::describe_saved_model(
          tfs::savedmodel::read_saved_model(argv[2]));
      return 0;
    }
    std::cerr << "savedmodel_tool: unknown mode " << mode << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << e.what() << "\n";
    return 1;
  }
}
