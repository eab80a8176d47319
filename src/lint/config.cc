// The [tool.tfscope.lint] table of pyproject.toml, read with a small TOML reader (the whole file
// is parsed, so a malformed pyproject.toml is reported wherever the error is).
#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>

#include "tfscope/lint.h"

namespace tfs::lint {
namespace {

struct Value {
  enum Type { String, Integer, Other, Array, Table } type = Other;
  std::string str;
  long long integer = 0;
  std::vector<Value> items;
  std::map<std::string, Value> table;
};

class Toml {
 public:
  Toml(std::string_view text, std::string file) : s_(text), file_(std::move(file)) {}

  Value parse() {
    Value root;
    root.type = Value::Table;
    Value* current = &root;
    while (true) {
      skip_ws_comments_newlines();
      if (at_end()) break;
      if (peek() == '[') {
        bool array = s_.substr(pos_, 2) == "[[";
        pos_ += array ? 2 : 1;
        std::vector<std::string> keys = key_path();
        skip_ws();
        if (!consume(array ? "]]" : "]")) fail("expected ']' after the table name");
        current = &root;
        for (size_t i = 0; i < keys.size(); ++i) {
          Value& v = current->table[keys[i]];
          if (v.type == Value::Other) v.type = Value::Table;
          if (array && i + 1 == keys.size()) {
            v.type = Value::Array;
            v.items.emplace_back();
            v.items.back().type = Value::Table;
            current = &v.items.back();
          } else if (v.type == Value::Array && !v.items.empty()) {
            current = &v.items.back();
          } else if (v.type == Value::Table) {
            current = &v;
          } else {
            fail("'" + keys[i] + "' is not a table");
          }
        }
      } else {
        key_value(*current);
      }
      end_of_line();
    }
    return root;
  }

 private:
  std::string_view s_;
  std::string file_;
  size_t pos_ = 0;
  int line_ = 1;

  [[noreturn]] void fail(const std::string& what) const {
    throw UsageError("[lint] " + file_ + ":" + std::to_string(line_) + ": " + what);
  }
  bool at_end() const { return pos_ >= s_.size(); }
  char peek(size_t k = 0) const { return pos_ + k < s_.size() ? s_[pos_ + k] : '\0'; }
  bool consume(std::string_view t) {
    if (s_.substr(pos_, t.size()) != t) return false;
    pos_ += t.size();
    return true;
  }
  void skip_ws() {
    while (!at_end() && (peek() == ' ' || peek() == '\t')) ++pos_;
  }
  void skip_comment() {
    if (peek() == '#')
      while (!at_end() && peek() != '\n') ++pos_;
  }
  void skip_ws_comments_newlines() {
    while (!at_end()) {
      skip_ws();
      skip_comment();
      if (peek() == '\r') ++pos_;
      if (peek() == '\n') {
        ++pos_;
        ++line_;
        continue;
      }
      break;
    }
  }
  void end_of_line() {
    skip_ws();
    skip_comment();
    if (peek() == '\r') ++pos_;
    if (at_end()) return;
    if (peek() != '\n') fail("expected the end of the line");
  }

  std::string bare_or_quoted_key() {
    skip_ws();
    if (peek() == '"' || peek() == '\'') return string_value();
    size_t start = pos_;
    while (!at_end() &&
           (std::isalnum(static_cast<unsigned char>(peek())) || peek() == '_' || peek() == '-'))
      ++pos_;
    if (pos_ == start) fail("expected a key");
    return std::string(s_.substr(start, pos_ - start));
  }

  std::vector<std::string> key_path() {
    std::vector<std::string> keys{bare_or_quoted_key()};
    skip_ws();
    while (peek() == '.') {
      ++pos_;
      keys.push_back(bare_or_quoted_key());
      skip_ws();
    }
    return keys;
  }

  void key_value(Value& table) {
    std::vector<std::string> keys = key_path();
    skip_ws();
    if (!consume("=")) fail("expected '=' after the key '" + keys.back() + "'");
    skip_ws();
    Value* t = &table;
    for (size_t i = 0; i + 1 < keys.size(); ++i) {
      Value& v = t->table[keys[i]];
      if (v.type == Value::Other) v.type = Value::Table;
      if (v.type != Value::Table) fail("'" + keys[i] + "' is not a table");
      t = &v;
    }
    if (t->table.count(keys.back())) fail("duplicate key '" + keys.back() + "'");
    t->table[keys.back()] = value();
  }

  std::string string_value() {
    char q = peek();
    bool multi = s_.substr(pos_, 3) == std::string(3, q);
    pos_ += multi ? 3 : 1;
    if (multi && peek() == '\n') {
      ++pos_;
      ++line_;
    }
    std::string out;
    while (true) {
      if (at_end()) fail("unterminated string");
      char c = peek();
      if (multi ? s_.substr(pos_, 3) == std::string(3, q) : c == q) {
        pos_ += multi ? 3 : 1;
        return out;
      }
      if (c == '\n') {
        if (!multi) fail("unterminated string");
        ++line_;
      }
      if (c == '\\' && q == '"') {
        ++pos_;
        char e = peek();
        static const std::string from = "btnfr\"\\", to = "\b\t\n\f\r\"\\";
        size_t k = from.find(e);
        if (k != std::string::npos) {
          out += to[k];
          ++pos_;
          continue;
        }
        if (e == 'u' || e == 'U') {  // kept as written: the lint keys never need them
          out += '\\';
          continue;
        }
        if (multi && (e == '\n' || e == ' ' || e == '\t' || e == '\r')) {
          while (!at_end() && std::isspace(static_cast<unsigned char>(peek()))) {
            if (peek() == '\n') ++line_;
            ++pos_;
          }
          continue;
        }
        fail("invalid escape in a string");
      }
      out += c;
      ++pos_;
    }
  }

  Value value() {
    Value v;
    char c = peek();
    if (c == '"' || c == '\'') {
      v.type = Value::String;
      v.str = string_value();
      return v;
    }
    if (c == '[') {
      ++pos_;
      v.type = Value::Array;
      while (true) {
        skip_ws_comments_newlines();
        if (consume("]")) return v;
        v.items.push_back(value());
        skip_ws_comments_newlines();
        if (consume("]")) return v;
        if (!consume(",")) fail("expected ',' or ']' in an array");
      }
    }
    if (c == '{') {
      ++pos_;
      v.type = Value::Table;
      skip_ws();
      if (consume("}")) return v;
      while (true) {
        key_value(v);
        skip_ws();
        if (consume("}")) return v;
        if (!consume(",")) fail("expected ',' or '}' in an inline table");
      }
    }
    // numbers, booleans, dates: one token
    size_t start = pos_;
    while (!at_end() && !std::isspace(static_cast<unsigned char>(peek())) && peek() != ',' &&
           peek() != ']' && peek() != '}' && peek() != '#')
      ++pos_;
    std::string tok(s_.substr(start, pos_ - start));
    if (tok.empty()) fail("expected a value");
    std::string digits;
    for (char d : tok)
      if (d != '_') digits += d;
    char* end = nullptr;
    long long n = std::strtoll(digits.c_str(), &end, 0);
    if (end && *end == '\0' && !digits.empty()) {
      v.type = Value::Integer;
      v.integer = n;
      return v;
    }
    bool ok = tok == "true" || tok == "false" || std::isdigit(static_cast<unsigned char>(tok[0])) ||
              tok[0] == '+' || tok[0] == '-' || tok == "inf" || tok == "nan";
    if (!ok) fail("invalid value '" + tok + "'");
    v.type = Value::Other;
    v.str = tok;
    return v;
  }
};

std::vector<std::string> string_list(const Value& v, const std::string& key,
                                     const std::string& file, bool codes) {
  if (v.type != Value::Array) throw UsageError("[lint] " + file + ": " + key + " must be a list");
  std::vector<std::string> out;
  for (auto& item : v.items) {
    if (item.type != Value::String)
      throw UsageError("[lint] " + file + ": " + key + " must be a list of strings");
    if (codes) {
      bool ok = item.str == "ALL" || (item.str.rfind("TFS", 0) == 0 && item.str.size() <= 6);
      for (size_t i = 3; ok && i < item.str.size(); ++i)
        ok = std::isdigit(static_cast<unsigned char>(item.str[i])) != 0;
      if (!ok)
        throw UsageError("[lint] " + file + ": " + key + ": unknown rule code '" + item.str + "'");
    }
    out.push_back(item.str);
  }
  return out;
}

}  // namespace

Config parse_config(std::string_view text, const std::string& file) {
  Value root = Toml(text, file).parse();
  Config c;
  c.file = file;
  const Value* t = &root;
  for (const char* k : {"tool", "tfscope", "lint"}) {
    auto it = t->table.find(k);
    if (it == t->table.end() || it->second.type != Value::Table) return c;
    t = &it->second;
  }
  c.has_table = true;
  for (auto& [key, v] : t->table) {
    if (key == "select") {
      c.select = string_list(v, key, file, true);
    } else if (key == "ignore") {
      c.ignore = string_list(v, key, file, true);
    } else if (key == "exclude") {
      c.exclude = string_list(v, key, file, false);
    } else if (key == "unroll-threshold") {
      if (v.type != Value::Integer || v.integer < 1)
        throw UsageError("[lint] " + file + ": unroll-threshold must be a positive integer");
      c.unroll_threshold = static_cast<int>(v.integer);
    } else {
      throw UsageError("[lint] " + file + ": unknown option '" + key +
                       "' in [tool.tfscope.lint] (known: select, ignore, exclude, "
                       "unroll-threshold)");
    }
  }
  return c;
}

std::optional<Config> find_config(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::path p = fs::absolute(path, ec);
  if (ec) return std::nullopt;
  if (!fs::is_directory(p, ec)) p = p.parent_path();
  for (; !p.empty(); p = p.parent_path()) {
    fs::path candidate = p / "pyproject.toml";
    if (fs::is_regular_file(candidate, ec)) {
      std::ifstream in(candidate);
      std::stringstream ss;
      ss << in.rdbuf();
      std::string text = ss.str();
      // ruff's rule: the nearest pyproject.toml that has our table wins; others are skipped
      Config c = parse_config(text, candidate.string());
      if (c.has_table) return c;
    }
    if (p == p.root_path()) break;
  }
  return std::nullopt;
}

}  // namespace tfs::lint
