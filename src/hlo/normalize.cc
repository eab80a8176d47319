// The comparison form of HLO text (see hlo.h).
#include <map>
#include <regex>

#include "tfscope/hlo.h"

namespace tfs::hlo {

std::string normalize(std::string_view text) {
  std::string s(text);
  static const std::regex source(R"( source_file="[^"]*" source_line=\d+)");
  s = std::regex_replace(s, source, "");
  // A computation made from a function, "a_inference_f_15__.1", "while_body_36_const_0__.5": the
  // uid of the function and the computation count go.
  static const std::regex function(R"(\b([A-Za-z]\w*?)_\d+((?:_const_\d+)?)__\.\d+)");
  s = std::regex_replace(s, function, "$1_N$2__");
  static const std::regex ident(R"(([A-Za-z_][A-Za-z0-9_\-]*)\.(\d+)\b)");
  std::map<std::string, std::map<std::string, int>> renumbered;  // base -> old suffix -> new
  std::string out;
  auto begin = std::sregex_iterator(s.begin(), s.end(), ident);
  size_t last = 0;
  for (auto it = begin; it != std::sregex_iterator(); ++it) {
    const std::smatch& m = *it;
    auto& per_base = renumbered[m[1].str()];
    auto [slot, fresh] = per_base.try_emplace(m[2].str(), static_cast<int>(per_base.size()) + 1);
    (void)fresh;
    out.append(s, last, static_cast<size_t>(m.position(0)) - last);
    out += m[1].str() + "." + std::to_string(slot->second);
    last = static_cast<size_t>(m.position(0) + m.length(0));
  }
  out.append(s, last, std::string::npos);
  return out;
}

}  // namespace tfs::hlo
