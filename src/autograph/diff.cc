// difflib.unified_diff, with SequenceMatcher's longest-match recursion and autojunk rule, so
// hunks line up the way Python's diff does.
#include <algorithm>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "tfscope/autograph.h"

namespace tfs::autograph {
namespace {

std::vector<std::string> split_lines(std::string_view s) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start < s.size()) {
    size_t nl = s.find('\n', start);
    size_t end = nl == std::string_view::npos ? s.size() : nl + 1;
    out.emplace_back(s.substr(start, end - start));
    start = end;
  }
  return out;
}

struct Match {
  size_t a, b, size;
};

class SequenceMatcher {
 public:
  SequenceMatcher(const std::vector<std::string>& a, const std::vector<std::string>& b)
      : a_(a), b_(b) {
    for (size_t j = 0; j < b.size(); ++j) b2j_[b[j]].push_back(j);
    if (b.size() >= 200) {  // autojunk: drop very popular lines
      size_t ntest = b.size() / 100 + 1;
      for (auto it = b2j_.begin(); it != b2j_.end();) {
        if (it->second.size() > ntest)
          it = b2j_.erase(it);
        else
          ++it;
      }
    }
  }

  Match longest(size_t alo, size_t ahi, size_t blo, size_t bhi) const {
    size_t besti = alo, bestj = blo, bestsize = 0;
    std::map<size_t, size_t> j2len;
    for (size_t i = alo; i < ahi; ++i) {
      std::map<size_t, size_t> newj2len;
      auto it = b2j_.find(a_[i]);
      if (it != b2j_.end()) {
        for (size_t j : it->second) {
          if (j < blo) continue;
          if (j >= bhi) break;
          auto prev = j > 0 ? j2len.find(j - 1) : j2len.end();
          size_t k = (prev != j2len.end() ? prev->second : 0) + 1;
          newj2len[j] = k;
          if (k > bestsize) {
            besti = i + 1 - k;
            bestj = j + 1 - k;
            bestsize = k;
          }
        }
      }
      j2len = std::move(newj2len);
    }
    // Extend with equal lines that were dropped as popular ("junk").
    while (besti > alo && bestj > blo && !b2j_.count(b_[bestj - 1]) &&
           a_[besti - 1] == b_[bestj - 1]) {
      --besti;
      --bestj;
      ++bestsize;
    }
    while (besti + bestsize < ahi && bestj + bestsize < bhi && !b2j_.count(b_[bestj + bestsize]) &&
           a_[besti + bestsize] == b_[bestj + bestsize])
      ++bestsize;
    return {besti, bestj, bestsize};
  }

  std::vector<Match> matching_blocks() const {
    std::vector<std::tuple<size_t, size_t, size_t, size_t>> queue{{0, a_.size(), 0, b_.size()}};
    std::vector<Match> blocks;
    while (!queue.empty()) {
      auto [alo, ahi, blo, bhi] = queue.back();
      queue.pop_back();
      Match m = longest(alo, ahi, blo, bhi);
      if (m.size) {
        blocks.push_back(m);
        if (alo < m.a && blo < m.b) queue.emplace_back(alo, m.a, blo, m.b);
        if (m.a + m.size < ahi && m.b + m.size < bhi)
          queue.emplace_back(m.a + m.size, ahi, m.b + m.size, bhi);
      }
    }
    std::sort(blocks.begin(), blocks.end(), [](const Match& x, const Match& y) {
      return std::tie(x.a, x.b) < std::tie(y.a, y.b);
    });
    std::vector<Match> merged;
    for (const Match& m : blocks) {
      if (!merged.empty() && merged.back().a + merged.back().size == m.a &&
          merged.back().b + merged.back().size == m.b)
        merged.back().size += m.size;
      else
        merged.push_back(m);
    }
    merged.push_back({a_.size(), b_.size(), 0});
    return merged;
  }

  struct Op {
    char tag;  // 'e'qual, 'r'eplace, 'd'elete, 'i'nsert
    size_t i1, i2, j1, j2;
  };

  std::vector<Op> opcodes() const {
    std::vector<Op> ops;
    size_t i = 0, j = 0;
    for (const Match& m : matching_blocks()) {
      char tag = 0;
      if (i < m.a && j < m.b)
        tag = 'r';
      else if (i < m.a)
        tag = 'd';
      else if (j < m.b)
        tag = 'i';
      if (tag) ops.push_back({tag, i, m.a, j, m.b});
      i = m.a + m.size;
      j = m.b + m.size;
      if (m.size) ops.push_back({'e', m.a, i, m.b, j});
    }
    return ops;
  }

  std::vector<std::vector<Op>> grouped(size_t n) const {
    std::vector<Op> codes = opcodes();
    if (codes.empty()) codes.push_back({'e', 0, 1, 0, 1});
    if (codes.front().tag == 'e') {
      Op& c = codes.front();
      c.i1 = std::max(c.i1, c.i2 > n ? c.i2 - n : 0);
      c.j1 = std::max(c.j1, c.j2 > n ? c.j2 - n : 0);
    }
    if (codes.back().tag == 'e') {
      Op& c = codes.back();
      c.i2 = std::min(c.i2, c.i1 + n);
      c.j2 = std::min(c.j2, c.j1 + n);
    }
    std::vector<std::vector<Op>> groups;
    std::vector<Op> group;
    for (Op c : codes) {
      if (c.tag == 'e' && c.i2 - c.i1 > 2 * n) {
        group.push_back({'e', c.i1, std::min(c.i2, c.i1 + n), c.j1, std::min(c.j2, c.j1 + n)});
        groups.push_back(group);
        group.clear();
        c.i1 = std::max(c.i1, c.i2 - n);
        c.j1 = std::max(c.j1, c.j2 - n);
      }
      group.push_back(c);
    }
    if (!group.empty() && !(group.size() == 1 && group[0].tag == 'e')) groups.push_back(group);
    return groups;
  }

 private:
  const std::vector<std::string>& a_;
  const std::vector<std::string>& b_;
  std::map<std::string, std::vector<size_t>> b2j_;
};

std::string format_range(size_t start, size_t stop) {
  size_t beginning = start + 1, length = stop - start;
  if (length == 1) return std::to_string(beginning);
  if (!length) --beginning;
  return std::to_string(beginning) + "," + std::to_string(length);
}

}  // namespace

std::string unified_diff(std::string_view a_text, std::string_view b_text,
                         std::string_view from_label, std::string_view to_label, int context) {
  std::vector<std::string> a = split_lines(a_text), b = split_lines(b_text);
  if (a == b) return "";
  SequenceMatcher sm(a, b);
  std::string out;
  bool started = false;
  for (const auto& group : sm.grouped(static_cast<size_t>(context))) {
    if (!started) {
      started = true;
      out += "--- " + std::string(from_label) + "\n";
      out += "+++ " + std::string(to_label) + "\n";
    }
    out += "@@ -" + format_range(group.front().i1, group.back().i2) + " +" +
           format_range(group.front().j1, group.back().j2) + " @@\n";
    auto emit = [&](char mark, const std::string& line) {
      out += mark;
      out += line;
      if (line.empty() || line.back() != '\n') out += "\n";
    };
    for (const auto& op : group) {
      if (op.tag == 'e') {
        for (size_t i = op.i1; i < op.i2; ++i) emit(' ', a[i]);
        continue;
      }
      if (op.tag == 'r' || op.tag == 'd')
        for (size_t i = op.i1; i < op.i2; ++i) emit('-', a[i]);
      if (op.tag == 'r' || op.tag == 'i')
        for (size_t j = op.j1; j < op.j2; ++j) emit('+', b[j]);
    }
  }
  return out;
}

}  // namespace tfs::autograph
