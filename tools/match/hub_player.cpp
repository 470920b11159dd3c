#include "tools/match/hub_player.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "protocol/hub/line.hpp"
#include "protocol/hub/notation.hpp"

namespace tsuru::match {
namespace {

using Millis = std::chrono::milliseconds;
using tools::ChildProcess;

// Moves are numbered as pydraughts numbers them (English in plain PDN numbers, Russian,
// Brazilian and Turkish with the rows flipped): the convention of the clients Hub engines are
// written for, and Tsuru's default `notation`. No parameter is sent for it, so engines that
// do not know it are driven the same way.
constexpr hub::MoveNumbers kNumbers = hub::MoveNumbers::Pydraughts;

Millis millis(double seconds) {
  return Millis(static_cast<long long>(seconds * 1000));
}

std::string number(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", x);
  return buf;
}

}  // namespace

HubPlayer::HubPlayer(Variant v, HubEngineSpec spec)
    : variant_(v), spec_(std::move(spec)), name_("hub:" + spec_.command) {}

HubPlayer::~HubPlayer() {
  if (!process_) return;
  if (!broken_) send("quit");
  process_->close_input();
  if (!process_->wait(Millis(2000))) process_->kill();
}

bool HubPlayer::send(const std::string& line) {
  return process_ && process_->write_line(line);
}

std::string HubPlayer::exit_detail() {
  if (!process_) return "not running";
  const auto code = process_->wait(Millis(500));
  if (!code) return "stopped answering";
  if (*code > 128) return "killed by signal " + std::to_string(*code - 128);
  return "exited with code " + std::to_string(*code);
}

std::string HubPlayer::fail(const std::string& why) {
  broken_ = true;
  if (process_) process_->kill();
  return why;
}

std::optional<std::string> HubPlayer::launch() {
  if (process_) return broken_ ? std::optional<std::string>("engine unusable") : std::nullopt;
  auto child = ChildProcess::start_shell(spec_.command);
  if (!child) return fail("cannot start '" + spec_.command + "': " + child.error());
  process_ = std::move(child.value());
  const auto deadline = std::chrono::steady_clock::now() + millis(spec_.startup_timeout);
  auto left = [&] {
    return std::max(
        Millis(0), std::chrono::duration_cast<Millis>(deadline - std::chrono::steady_clock::now()));
  };
  // Reads until a line with `command`; a failure message otherwise.
  auto expect = [&](const std::string& command,
                    const std::string& stage) -> std::optional<std::string> {
    std::string line;
    while (true) {
      const auto r = process_->read_line(line, left());
      if (r == ChildProcess::Read::Timeout) return fail("no '" + command + "' " + stage);
      if (r == ChildProcess::Read::Closed) return fail("engine " + exit_detail() + " " + stage);
      const auto m = hub::parse_line(line);
      if (!m) continue;
      if (m->command() == command) return std::nullopt;
      if (m->command() == "id") {
        const std::string* n = m->value("name");
        const std::string* version = m->value("version");
        if (n) name_ = *n + (version ? " " + *version : "");
        const std::string* egdb = m->value("egdb");
        databases_ = egdb && *egdb != "none" ? *egdb : "";
      } else if (m->command() == "error") {
        const std::string* text = m->value("message");
        return fail("engine error " + stage + ": " + (text ? *text : line));
      }
    }
  };
  if (!send("hub")) return fail("engine " + exit_detail() + " at start");
  if (auto e = expect("wait", "after 'hub'")) return e;
  std::vector<std::pair<std::string, std::string>> params = {
      {"variant", std::string(info(variant_).name)}};
  params.insert(params.end(), spec_.params.begin(), spec_.params.end());
  std::string sent;
  for (const auto& [name, value] : params) {
    send(hub::format_line(hub::Message("set-param").add("name", name).add("value", value)));
    sent += (sent.empty() ? "" : " ") + name + "=" + value;
  }
  // A rejected parameter comes back as an error line before `ready`.
  const std::string stage = "after set-param (" + sent + ") and init";
  if (!send("init")) return fail("engine " + exit_detail() + " " + stage);
  if (auto e = expect("ready", stage)) return e;
  return std::nullopt;
}

std::optional<std::string> HubPlayer::start_game(const Game&, Side, const TimeControl&) {
  if (auto e = launch()) return e;
  if (!send("new-game")) return fail("engine " + exit_detail());
  return std::nullopt;
}

PlayerReply HubPlayer::get_move(const Game& game, const MoveLimits& limits, Millis timeout) {
  PlayerReply reply;
  hub::Message pos("pos");
  pos.add("pos", hub::format_position(variant_, game.start()));
  std::string moves;
  for (const Move& m : game.moves()) {
    if (!moves.empty()) moves += ' ';
    moves += hub::format_move(variant_, m, kNumbers);
  }
  if (!moves.empty()) pos.add("moves", moves);
  hub::Message level("level");
  if (limits.depth > 0) level.add("depth", std::to_string(limits.depth));
  if (limits.move_time > 0) level.add("move-time", number(limits.move_time));
  if (limits.time > 0 || limits.increment > 0) {
    if (limits.moves_to_go > 0) level.add("moves", std::to_string(limits.moves_to_go));
    level.add("time", number(limits.time));
    if (limits.increment > 0) level.add("inc", number(limits.increment));
  }
  if (!send(hub::format_line(pos)) || !send(hub::format_line(level)) || !send("go think")) {
    reply.detail = fail("engine " + exit_detail());
    return reply;
  }
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  std::string last_error;
  std::string line;
  while (true) {
    const auto left = std::max(
        Millis(0), std::chrono::duration_cast<Millis>(deadline - std::chrono::steady_clock::now()));
    const auto r = process_->read_line(line, left);
    if (r == ChildProcess::Read::Timeout) {
      reply.status = PlayerReply::Status::TimedOut;
      reply.detail = fail("no done");
      return reply;
    }
    if (r == ChildProcess::Read::Closed) {
      reply.detail = fail("engine " + exit_detail() +
                          (last_error.empty() ? "" : " after error '" + last_error + "'"));
      return reply;
    }
    const auto m = hub::parse_line(line);
    if (!m) continue;  // noise between protocol lines is tolerated, as GUIs do
    if (m->command() == "error") {
      const std::string* text = m->value("message");
      last_error = text ? *text : line;
      continue;
    }
    if (m->command() == "info") {
      // The main line's score (multi-PV lines other than the first carry rank=N > 1).
      const std::string* rank = m->value("rank");
      const std::string* score = m->value("score");
      if (score && (!rank || *rank == "1")) {
        char* end = nullptr;
        const double men = std::strtod(score->c_str(), &end);
        if (end != score->c_str() && *end == '\0' && std::isfinite(men) && std::abs(men) < 1e6)
          reply.score = static_cast<int>(std::lround(men * 100));
      }
      continue;
    }
    if (m->command() != "done") continue;
    const std::string* text = m->value("move");
    if (!text) {
      reply.status = PlayerReply::Status::NoMove;
      return reply;
    }
    reply.text = *text;
    const auto move = hub::parse_move(variant_, game.position(), *text, kNumbers);
    if (!move) {
      reply.status = PlayerReply::Status::Illegal;
      reply.detail = move.error().message;
      if (!last_error.empty()) reply.detail += "; the engine said '" + last_error + "'";
      return reply;
    }
    reply.status = PlayerReply::Status::Move;
    reply.move = *move;
    return reply;
  }
}

}  // namespace tsuru::match
