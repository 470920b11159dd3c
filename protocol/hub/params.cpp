#include "protocol/hub/params.hpp"

#include <charconv>
#include <cstdint>
#include <filesystem>
#include <system_error>

#include "book/data_dir.hpp"
#include "engine/level.hpp"
#include "engine/rules/notation.hpp"
#include "eval/pattern_weights.hpp"

namespace tsuru::hub {
namespace {

enum class Type { Bool, Int, Enum, String };

struct Param {
  std::string_view name;
  Type type;
  std::int64_t min, max;  // Int only
  bool heavy;
  std::string (*get)(const Settings&);
  // Returns false when the text is not a valid value.
  bool (*set)(Settings&, std::string_view);
};

std::optional<bool> parse_bool(std::string_view text) {
  if (text == "true") return true;
  if (text == "false") return false;
  return std::nullopt;
}

std::optional<std::int64_t> parse_int(std::string_view text, std::int64_t min, std::int64_t max) {
  std::int64_t value = 0;
  const auto r = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || r.ec != std::errc{} || r.ptr != text.data() + text.size()) return {};
  if (value < min || value > max) return {};
  return value;
}

std::string text_of(bool b) {
  return b ? "true" : "false";
}

constexpr std::string_view kLevels = "none beginner medium hard";
// The other names `variant` takes, listed after the rule sets' own (pydraughts and lidraughts
// send these): the traits' aliases, then the Frisian start of lidraughts' Frysk!.
constexpr std::string_view kFryskNames = "frysk frysk!";

// clang-format off
const Param kParams[] = {
    {"variant", Type::Enum, 0, 0, true,
     [](const Settings& s) { return s.frysk ? std::string("frysk") : std::string(info(s.variant).name); },
     [](Settings& s, std::string_view t) {
       if (t == "frysk" || t == "frysk!") {
         s.variant = Variant::Frisian;
         s.frysk = true;
         return true;
       }
       const auto v = parse_variant(t);
       if (v) {
         s.variant = *v;
         s.frysk = false;
       }
       return v.has_value();
     }},
    {"notation", Type::Enum, 0, 0, false,
     [](const Settings& s) { return std::string(move_numbers_name(s.numbers)); },
     [](Settings& s, std::string_view t) {
       const auto n = parse_move_numbers(t);
       if (n) s.numbers = *n;
       return n.has_value();
     }},
    {"level", Type::Enum, 0, 0, false,
     [](const Settings& s) { return std::string(level_name(s.engine.level)); },
     [](Settings& s, std::string_view t) {
       const auto l = parse_level(t);
       if (l) s.engine.level = *l;
       return l.has_value();
     }},
    {"book", Type::Bool, 0, 0, false,
     [](const Settings& s) { return text_of(s.engine.book); },
     [](Settings& s, std::string_view t) {
       const auto b = parse_bool(t);
       if (b) s.engine.book = *b;
       return b.has_value();
     }},
    {"book-ply", Type::Int, 0, 200, false,
     [](const Settings& s) { return std::to_string(s.engine.book_ply); },
     [](Settings& s, std::string_view t) {
       const auto n = parse_int(t, 0, 200);
       if (n) s.engine.book_ply = static_cast<int>(*n);
       return n.has_value();
     }},
    {"book-margin", Type::Int, 0, 1000, false,
     [](const Settings& s) { return std::to_string(s.engine.book_margin); },
     [](Settings& s, std::string_view t) {
       const auto n = parse_int(t, 0, 1000);
       if (n) s.engine.book_margin = static_cast<int>(*n);
       return n.has_value();
     }},
    {"book-file", Type::String, 0, 0, true,
     [](const Settings& s) { return s.engine.book_file; },
     [](Settings& s, std::string_view t) {
       // Empty means the rule set's default book; otherwise the file must at least exist (a
       // book that fails its checks is reported in the log and not used).
       std::error_code ec;
       if (!t.empty() && !std::filesystem::is_regular_file(std::string(t), ec)) return false;
       s.engine.book_file = std::string(t);
       return true;
     }},
    {"eval-file", Type::String, 0, 0, false,
     [](const Settings& s) { return s.engine.eval_file; },
     [](Settings& s, std::string_view t) {
       // Checked by set_param (eval_file_error) before this is called.
       s.engine.eval_file = std::string(t);
       return true;
     }},
    {"egdb-dir", Type::String, 0, 0, true,
     [](const Settings& s) { return s.engine.egdb_dir; },
     [](Settings& s, std::string_view t) {
       // default: the data directory's (book/data_dir.hpp); empty: no databases; otherwise a
       // directory (its files are checked when loaded, and a damaged one is reported in the log
       // and not used).
       std::error_code ec;
       if (!t.empty() && t != "default" && !std::filesystem::is_directory(std::string(t), ec))
         return false;
       s.engine.egdb_dir = std::string(t);
       return true;
     }},
    {"ponder", Type::Bool, 0, 0, false,
     [](const Settings& s) { return text_of(s.ponder); },
     [](Settings& s, std::string_view t) {
       const auto b = parse_bool(t);
       if (b) s.ponder = *b;
       return b.has_value();
     }},
    {"threads", Type::Int, 1, 256, false,
     [](const Settings& s) { return std::to_string(s.engine.threads); },
     [](Settings& s, std::string_view t) {
       const auto n = parse_int(t, 1, 256);
       if (n) s.engine.threads = static_cast<int>(*n);
       return n.has_value();
     }},
    {"tt-size", Type::Int, 10, 26, true,
     [](const Settings& s) { return std::to_string(s.engine.tt_log2); },
     [](Settings& s, std::string_view t) {
       const auto n = parse_int(t, 10, 26);
       if (n) s.engine.tt_log2 = static_cast<int>(*n);
       return n.has_value();
     }},
    {"seed", Type::Int, 0, 2147483647, false,
     [](const Settings& s) { return std::to_string(s.engine.seed); },
     [](Settings& s, std::string_view t) {
       const auto n = parse_int(t, 0, 2147483647);
       if (n) s.engine.seed = static_cast<std::uint64_t>(*n);
       return n.has_value();
     }},
    {"multi-pv", Type::Int, 1, 64, false,
     [](const Settings& s) { return std::to_string(s.engine.multi_pv); },
     [](Settings& s, std::string_view t) {
       const auto n = parse_int(t, 1, 64);
       if (n) s.engine.multi_pv = static_cast<int>(*n);
       return n.has_value();
     }},
};
// clang-format on

// Why an eval-file value cannot be used: a weights file must read back whole and pass its
// checks (for any rule set: the variant may be set after it; the engine checks the match).
std::optional<std::string> eval_file_error(std::string_view value) {
  if (value.empty() || value == eval::kBuiltinEval || value == eval::kDefaultEval)
    return std::nullopt;
  const auto w = eval::read_weights(data::weights_file(std::string(value)));
  if (!w) return w.error();
  return std::nullopt;
}

const Param* find(std::string_view name) {
  for (const Param& p : kParams)
    if (p.name == name) return &p;
  return nullptr;
}

}  // namespace

std::vector<Message> param_messages(const Settings& settings) {
  std::vector<Message> out;
  for (const Param& p : kParams) {
    Message m("param");
    m.add("name", std::string(p.name)).add("value", p.get(settings));
    switch (p.type) {
      case Type::Bool:
        m.add("type", "bool");
        break;
      case Type::Int:
        m.add("type", "int").add("min", std::to_string(p.min)).add("max", std::to_string(p.max));
        break;
      case Type::String:
        m.add("type", "string");
        break;
      case Type::Enum:
        m.add("type", "enum");
        if (p.name == "variant")
          m.add("values", std::string(variant_names()) + " " + std::string(variant_alias_names()) +
                              " " + std::string(kFryskNames));
        else if (p.name == "notation")
          m.add("values", std::string(move_numbers_names()));
        else
          m.add("values", std::string(kLevels));
        break;
    }
    out.push_back(std::move(m));
  }
  return out;
}

std::optional<std::string> set_param(Settings& settings, std::string_view name,
                                     std::string_view value) {
  const Param* p = find(name);
  if (!p) return "unknown parameter";
  if (p->name == "eval-file")
    if (const auto error = eval_file_error(value)) return "bad value: " + *error;
  if (!p->set(settings, value)) return "bad value";
  return std::nullopt;
}

Position start_of(const Settings& settings) {
  if (!settings.frysk) return start_position(settings.variant);
  const auto pos = notation::parse_fen(Variant::Frisian, "W:W46-50:B1-5");
  return pos.ok() ? *pos : start_position(settings.variant);
}

bool is_heavy(std::string_view name) {
  const Param* p = find(name);
  return p && p->heavy;
}

}  // namespace tsuru::hub
