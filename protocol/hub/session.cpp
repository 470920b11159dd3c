#include "protocol/hub/session.hpp"

#include <spdlog/spdlog.h>

#include "engine/chinese/game_kind.hpp"
#include "engine/rules/legal.hpp"
#include "engine/version.hpp"
#include "eval/egdb/database.hpp"
#include "protocol/hub/limits.hpp"
#include "protocol/hub/line.hpp"
#include "protocol/hub/notation.hpp"
#include "protocol/hub/report.hpp"

namespace tsuru::hub {
namespace {

const char* move_error_text(notation::MoveError::Kind kind) {
  switch (kind) {
    case notation::MoveError::Kind::Illegal:
      return "illegal move";
    case notation::MoveError::Kind::Ambiguous:
      return "ambiguous move";
    case notation::MoveError::Kind::Malformed:
      break;
  }
  return "bad move";
}

// The id line's egdb field: the complete endgame database sets in dir, as rule set:pieces
// separated by commas (english:4,international:4), or none.
std::string egdb_summary(const std::string& dir) {
  if (dir.empty()) return "none";
  const std::vector<egdb::SetSurvey> sets = egdb::survey(dir);
  for (const egdb::SetSurvey& s : sets)
    if (s.refused > 0)
      spdlog::warn("endgame databases {}: {} {} files refused (see the log at the first search)",
                   dir, s.refused, info(s.variant).name);
  return egdb::summary(sets);
}

}  // namespace

Session::Session(Engine& engine, Output output)
    : engine_(engine),
      output_(std::move(output)),
      variant_(settings_.variant),
      game_(settings_.variant) {
  settings_.engine = engine_.options();
  tt_log2_applied_ = settings_.engine.tt_log2;
}

Session::~Session() {
  end_of_input();
}

void Session::send(const Message& m) const {
  output_(format_line(m));
}

void Session::error(const std::string& message, Extra extra) const {
  Message m("error");
  m.add("message", message);
  for (const auto& [name, value] : extra) m.add(name, value);
  send(m);
}

void Session::finish_search() {
  engine_.stop();
  engine_.wait();
}

void Session::end_of_input() {
  finish_search();
  if (chinese_) chinese_->finish_search();
}

EngineOptions Session::light_options() const {
  EngineOptions o = settings_.engine;
  o.tt_log2 = tt_log2_applied_;
  return o;
}

void Session::apply_heavy() {
  if (settings_.variant != variant_ || settings_.frysk != frysk_) {
    // Rule sets on the same board share position keys but not their values (antidraughts and
    // international have opposite goals): the table starts empty.
    if (settings_.variant != variant_) engine_.new_game();
    variant_ = settings_.variant;
    frysk_ = settings_.frysk;
    game_ = Game(variant_, start_of(settings_));
    has_position_ = true;
  }
  tt_log2_applied_ = settings_.engine.tt_log2;
  engine_.set_options(settings_.engine);
}

bool Session::handle(std::string_view line) {
  const auto parsed = parse_line(line);
  // ping and ponder-hit leave a running search alone; every other line ends it first.
  if (parsed.ok() && parsed->command() == "ping") {
    send(Message("pong"));
    return true;
  }
  if (parsed.ok() && parsed->command() == "ponder-hit") {
    engine_.ponder_hit();
    return true;
  }
  finish_search();
  if (chinese_) chinese_->finish_search();
  if (!parsed.ok()) {
    error(parsed.error());
    return true;
  }
  const Message& m = *parsed;
  const std::string& command = m.command();
  const std::string* param = m.value("name");
  const std::string* value = m.value("value");
  if (command == "set-param" && param && *param == "variant" && value) {
    if (is_chinese(*value)) {
      if (!chinese_) chinese_ = std::make_unique<ChineseSession>(output_);
      return true;
    }
    chinese_.reset();
  }
  if (chinese_ && (command == "init" || command == "new-game" || command == "pos" ||
                   command == "level" || command == "go" || command == "stop")) {
    chinese::EngineOptions options;
    options.level = settings_.engine.level;
    options.seed = settings_.engine.seed;
    options.tt_log2 = settings_.engine.tt_log2;
    chinese_->handle(m, options);
    return true;
  }
  if (command == "hub") {
    on_hub();
  } else if (command == "set-param") {
    on_set_param(m);
  } else if (command == "init") {
    on_init();
  } else if (command == "new-game") {
    on_new_game();
  } else if (command == "pos") {
    on_pos(m);
  } else if (command == "level") {
    on_level(m);
  } else if (command == "go") {
    on_go(m);
  } else if (command == "stop") {
    // The search, if any, has just been stopped above.
  } else if (command == "quit") {
    return false;
  } else {
    error("bad command");
  }
  return true;
}

void Session::on_hub() {
  Message id("id");
  id.add("name", "Tsuru").add("version", std::string(version())).add("author", "Tsuru team");
  id.add("egdb", egdb_summary(Engine::egdb_directory(settings_.engine)));
  send(id);
  for (const Message& p : param_messages(settings_)) send(p);
  send(Message("wait"));
}

void Session::on_set_param(const Message& m) {
  const std::string* name = m.value("name");
  const std::string* value = m.value("value");
  if (!name) return error("missing name");
  if (!value) return error("missing value");
  if (auto problem = set_param(settings_, *name, *value)) return error(*problem, {{"name", *name}});
  if (!is_heavy(*name)) engine_.set_options(light_options());
}

void Session::on_init() {
  apply_heavy();
  // A one-ply search makes the engine allocate its table now rather than at the first go.
  engine_.set_position(game_);
  SearchLimits warm_up;
  warm_up.depth = 1;
  warm_up.analyze = true;
  engine_.think(warm_up);
  send(Message("ready"));
}

void Session::on_new_game() {
  apply_heavy();
  engine_.new_game();
  game_ = Game(variant_, start_of(settings_));
  has_position_ = true;
}

void Session::on_pos(const Message& m) {
  apply_heavy();
  const std::string* text = m.value("pos");
  Position start = start_of(settings_);
  // A rejected position or history leaves nothing to search until the next good pos (or
  // new-game): a move for an older position would be read as a move for this one.
  if (text) {
    auto parsed = parse_position(variant_, *text);
    if (!parsed.ok()) {
      has_position_ = false;
      return error("bad position", {{"detail", parsed.error()}});
    }
    start = *parsed;
  }
  Game game(variant_, start);
  if (const std::string* moves = m.value("moves")) {
    for (std::string_view word : split_words(*moves)) {
      auto move = parse_move(variant_, game.position(), word, settings_.numbers);
      if (!move.ok()) {
        has_position_ = false;
        return error(move_error_text(move.error().kind), {{"move", std::string(word)}});
      }
      game.play(*move);
    }
  }
  game_ = std::move(game);
  has_position_ = true;
  limits_ = SearchLimits{};
}

void Session::on_level(const Message& m) {
  if (auto problem = read_level(m, limits_)) error(*problem);
}

void Session::on_go(const Message& m) {
  // Exactly one mode, as a flag; other arguments are ignored.
  int modes = 0;
  for (const Argument& a : m.arguments())
    if (!a.value && (a.name == "think" || a.name == "ponder" || a.name == "analyze")) ++modes;
  if (modes != 1)
    return error("bad argument", {{"detail", "go takes one of think, ponder, analyze"}});
  apply_heavy();
  if (!has_position_) {
    error("no position", {{"detail", "the last pos was rejected"}});
    send(Message("done"));
    return;
  }
  SearchLimits limits = limits_;
  if (m.has("ponder"))
    limits.ponder = true;
  else if (m.has("analyze"))
    limits.analyze = true;
  engine_.set_position(game_);
  const Variant v = variant_;
  const MoveNumbers numbers = settings_.numbers;
  const Position root = game_.position();
  const Output out = output_;
  engine_.go(
      limits,
      [out, v, numbers](const SearchInfo& info) {
        out(format_line(info_message(v, info, numbers)));
      },
      [out, v, root, numbers](const BestMove& best) {
        out(format_line(done_message(v, root, best, numbers)));
      });
}

}  // namespace tsuru::hub
