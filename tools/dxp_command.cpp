// tsuru dxp: plays DXP (DamExchange Protocol) matches over TCP, as listener or connector and as
// follower or initiator (protocol/dxp/). stdout carries one status line per event (listening,
// each game, each connection's summary); the raw message log goes through spdlog (stderr with
// --verbose, a file with --log).
#include <unistd.h>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include <spdlog/sinks/basic_file_sink.h>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>
#include <boost/asio/io_context.hpp>
#include <boost/program_options.hpp>

#include "engine/level.hpp"
#include "engine/rules/binary_io.hpp"
#include "eval/egdb/database.hpp"
#include "protocol/dxp/openings.hpp"
#include "protocol/dxp/session.hpp"
#include "protocol/pdn.hpp"
#include "tools/commands.hpp"
#include "tools/options.hpp"

namespace tsuru::tools {
namespace {

struct HostPort {
  std::string host;
  int port = 0;
};

// "[HOST:]PORT"; the host may be bracketed ([::1]:27531).
HostPort parse_host_port(const std::string& text, const std::string& default_host) {
  HostPort hp{default_host, 0};
  std::string port = text;
  if (const auto colon = text.rfind(':'); colon != std::string::npos) {
    hp.host = text.substr(0, colon);
    port = text.substr(colon + 1);
    if (hp.host.size() >= 2 && hp.host.front() == '[' && hp.host.back() == ']')
      hp.host = hp.host.substr(1, hp.host.size() - 2);
  }
  if (hp.host.empty() || port.empty() || port.size() > 5 ||
      port.find_first_not_of("0123456789") != std::string::npos || std::stoi(port) > 65535)
    throw std::runtime_error("bad address '" + text + "': expected [HOST:]PORT");
  hp.port = std::stoi(port);
  return hp;
}

void setup_logging(const std::string& log_file, bool verbose) {
  auto console = std::make_shared<spdlog::sinks::stderr_color_sink_mt>();
  console->set_level(verbose ? spdlog::level::info : spdlog::level::warn);
  std::vector<spdlog::sink_ptr> sinks{console};
  if (!log_file.empty()) {
    auto file = std::make_shared<spdlog::sinks::basic_file_sink_mt>(log_file);
    file->set_level(spdlog::level::debug);
    sinks.push_back(file);
  }
  auto logger = std::make_shared<spdlog::logger>("tsuru", sinks.begin(), sinks.end());
  logger->set_level(spdlog::level::debug);
  logger->flush_on(spdlog::level::info);
  spdlog::set_default_logger(logger);
}

std::string time_control(int minutes, int moves) {
  const std::string seconds = std::to_string(minutes * 60);
  return moves > 0 ? std::to_string(moves) + "/" + seconds : seconds;
}

void write_pdn(const std::string& dir, const std::string& event, int session,
               const dxp::GameRecord& g) {
  pdn::Tags tags;
  tags.event = event;
  tags.round = std::to_string(g.number);
  tags.white = g.white;
  tags.black = g.black;
  tags.result = g.outcome;
  tags.time_control = time_control(g.minutes, g.moves);
  tags.extra.emplace_back("Termination", g.reason);
  char name[96];
  std::snprintf(name, sizeof name, "dxp-%ld-s%d-g%03d.pdn", static_cast<long>(::getpid()), session,
                g.number);
  const std::filesystem::path path = std::filesystem::path(dir) / name;
  // Whole or not at all (a full disk leaves no half game under the name); the games go on.
  const std::string text = pdn::write(g.game, tags);
  const auto written = write_file_atomically(
      path.string(), {reinterpret_cast<const std::uint8_t*>(text.data()), text.size()});
  if (!written) {
    spdlog::error("pdn: {}", written.error());
    std::fprintf(stderr, "dxp: %s\n", written.error().c_str());
  }
}

}  // namespace

int run_dxp(const Args& args) {
  namespace po = boost::program_options;
  std::string listen, connect, variant_name = "international", level_name = "none";
  std::string openings_file, pdn_dir, log_file, name = "Tsuru", event = "DXP match";
  std::string layout_name = "pydraughts";
  dxp::HandlerOptions h;
  h.engine.tt_log2 = 22;
  dxp::ServiceOptions service_options;
  po::options_description desc(
      "tsuru dxp: play DXP matches over TCP (listen or connect; follower or initiator)");
  desc.add_options()("help,h", "show this help")(
      "listen", po::value(&listen),
      "wait for connections on [HOST:]PORT (default 127.0.0.1:27531; port 0 picks a free one)")(
      "connect", po::value(&connect), "connect to HOST:PORT")(
      "initiator", "request the games (otherwise follow the peer's requests)")(
      "games", po::value(&h.games)->default_value(h.games), "initiator: games to play")(
      "time", po::value(&h.minutes)->default_value(h.minutes),
      "initiator: minutes per player per game (1-999)")(
      "moves", po::value(&h.moves)->default_value(h.moves),
      "initiator: move limit of a game (0-999, 0 = none)")(
      "openings", po::value(&openings_file),
      "initiator: file of start positions or opening moves, one a line, each played with both "
      "colours")("variant", po::value(&variant_name)->default_value(variant_name),
                 variant_help().c_str())("level", po::value(&level_name)->default_value(level_name),
                                         "engine level: none beginner medium hard")(
      "eval-file", po::value(&h.engine.eval_file)->default_value(h.engine.eval_file),
      kEvalFileHelp)(
      "hash", po::value(&h.engine.tt_log2)->default_value(h.engine.tt_log2),
      "hash table entries of each connection's engine, log2 (16 bytes each: 22 = 64 MiB)")(
      "egdb-dir", po::value(&h.engine.egdb_dir)->default_value(h.engine.egdb_dir), kEgdbDirHelp)(
      "egdb-resign", po::value(&h.engine.egdb_resign)->default_value(h.engine.egdb_resign),
      "on our turn in a position the endgame databases say is lost, resign (GAMEEND 1)")(
      "egdb-draw", po::value(&h.engine.egdb_draws)->default_value(h.engine.egdb_draws),
      "on our turn in a position the endgame databases say is drawn, end the game as a draw "
      "(GAMEEND 2)")("threads", po::value(&h.engine.threads)->default_value(h.engine.threads),
                     "search threads of each connection's engine (1-256)")(
      "ponder",
      "think on the peer's time: search the reply we expect; keep the search when the "
      "peer plays it, start afresh otherwise")(
      "max-connections",
      po::value(&service_options.max_connections)->default_value(service_options.max_connections),
      "listen: connections served at once (1-64); more are refused and closed")(
      "idle-timeout",
      po::value(&service_options.idle_timeout)->default_value(service_options.idle_timeout),
      "listen: seconds a connection may stay without a game and silent before it is closed "
      "(0 = never)")("name", po::value(&name)->default_value(name),
                     "our name in the protocol (32 chars)")(
      "event", po::value(&event)->default_value(event), "PDN Event tag")(
      "layout", po::value(&layout_name)->default_value(layout_name),
      "8x8 and Turkish squares and positions: pydraughts (as pydraughts writes them) or tsuru "
      "(Tsuru's own numbering); both peers must agree")(
      "pdn", po::value(&pdn_dir), "write each game to a PDN file in this directory")(
      "log", po::value(&log_file), "write the log, with every message, to this file")(
      "ack-timeout", po::value(&h.ack_timeout)->default_value(h.ack_timeout),
      "seconds to wait for the acknowledgement of a GAMEEND")(
      "seed", po::value(&h.engine.seed)->default_value(h.engine.seed),
      "random seed of the first game (game n uses seed + n - 1)")("verbose,v",
                                                                  "log every message on stderr");
  po::variables_map vm;
  if (!parse_options(args, desc, vm)) return vm.count("help") ? 0 : 2;

  h.variant = variant_from_name(variant_name);
  const auto layout = dxp::parse_layout(layout_name);
  if (!layout) throw std::runtime_error("unknown layout '" + layout_name + "'");
  h.layout = *layout;
  const auto level = parse_level(level_name);
  if (!level) throw std::runtime_error("unknown level '" + level_name + "'");
  h.engine.level = *level;
  h.engine.eval_file = checked_eval_file(h.variant, h.engine.eval_file);
  if (h.engine.tt_log2 < 10 || h.engine.tt_log2 > 30)
    throw std::runtime_error("--hash must be between 10 and 30");
  if (h.engine.threads < 1 || h.engine.threads > 256)
    throw std::runtime_error("--threads must be between 1 and 256");
  if (service_options.max_connections < 1 || service_options.max_connections > 64)
    throw std::runtime_error("--max-connections must be between 1 and 64");
  // Every connection has its own engine and table: the total is bounded by the two options.
  const double table_mib = std::ldexp(16.0, h.engine.tt_log2) / (1 << 20);
  if (table_mib * service_options.max_connections > 64 * 1024)
    throw std::runtime_error("--hash and --max-connections ask for more than 64 GiB of tables");
  if (!(service_options.idle_timeout >= 0) || service_options.idle_timeout > 1e6)
    throw std::runtime_error("--idle-timeout must be between 0 and 1000000 seconds");
  h.name = name.substr(0, dxp::kNameWidth);
  h.ponder = vm.count("ponder") > 0;
  h.initiator = vm.count("initiator") > 0;
  if (h.initiator) {
    // A request with 000 minutes is never sent: one known peer never answers it.
    if (h.minutes < 1 || h.minutes > 999) throw std::runtime_error("--time must be 1-999");
    if (h.moves < 0 || h.moves > 999) throw std::runtime_error("--moves must be 0-999");
    if (h.games < 1) throw std::runtime_error("--games must be at least 1");
  }
  if (!openings_file.empty()) {
    std::ifstream in(openings_file);
    if (!in) throw std::runtime_error("cannot read " + openings_file);
    std::stringstream text;
    text << in.rdbuf();
    auto openings = dxp::parse_openings(h.variant, text.str());
    if (!openings) throw std::runtime_error(openings_file + ": " + openings.error());
    h.openings = *openings;
  }
  if (!listen.empty() && !connect.empty())
    throw std::runtime_error("give --listen or --connect, not both");
  if (!pdn_dir.empty()) std::filesystem::create_directories(pdn_dir);
  setup_logging(log_file, vm.count("verbose") > 0);

  boost::asio::io_context io;
  bool failed = false;
  auto factory = [&](int id) {
    return std::make_shared<dxp::GameHandler>(io, h, id, [&, id](const dxp::GameRecord& g) {
      std::printf("game %d.%d: %s - %s %s (%s) %zu plies\n", id, g.number, g.white.c_str(),
                  g.black.c_str(), pdn::result_text(h.variant, g.outcome).c_str(), g.reason.c_str(),
                  g.game.moves().size());
      std::fflush(stdout);
      if (!pdn_dir.empty()) write_pdn(pdn_dir, event, id, g);
    });
  };
  auto on_end = [&](const dxp::GameHandler& handler) {
    const dxp::SessionSummary& s = handler.summary();
    std::printf("session: games=%d wins=%d draws=%d losses=%d unfinished=%d errors=%d%s%s\n",
                s.games, s.wins, s.draws, s.losses, s.unfinished, s.protocol_errors,
                h.initiator ? (s.complete ? " complete" : " incomplete") : "",
                h.ponder ? (" ponder-hits=" + std::to_string(s.ponder_hits) +
                            " ponder-misses=" + std::to_string(s.ponder_misses))
                               .c_str()
                         : "");
    std::fflush(stdout);
    if (h.initiator && (!s.complete || s.refused)) failed = true;
  };
  dxp::Service service(io, factory, on_end, service_options);
  // Each connection's engine maps the databases at its first search; say now which it will find.
  const std::string egdb_dir = Engine::egdb_directory(h.engine);
  for (const egdb::SetSurvey& s :
       egdb_dir.empty() ? std::vector<egdb::SetSurvey>{} : egdb::survey(egdb_dir))
    if (s.variant == h.variant && s.pieces >= 2)
      std::printf("endgame databases: %s up to %d pieces (%s)\n",
                  std::string(info(s.variant).name).c_str(), s.pieces, egdb_dir.c_str());
  std::fflush(stdout);
  if (!connect.empty()) {
    const HostPort hp = parse_host_port(connect, "");
    try {
      service.connect(hp.host, hp.port);
    } catch (const std::exception& e) {
      throw std::runtime_error("cannot connect to " + connect + ": " + e.what());
    }
  } else {
    const HostPort hp = parse_host_port(listen.empty() ? "27531" : listen, "127.0.0.1");
    const auto endpoint = service.listen(hp.host, hp.port);
    spdlog::info("dxp: at most {} connections, {:.0f} MiB of hash table each",
                 service_options.max_connections, table_mib);
    std::printf("listening on %s:%d\n", endpoint.address().to_string().c_str(),
                static_cast<int>(endpoint.port()));
    std::fflush(stdout);
  }
  service.run();
  return failed ? 1 : 0;
}

}  // namespace tsuru::tools
