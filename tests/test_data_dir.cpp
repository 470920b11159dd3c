// The data directory (book/data_dir.hpp): its search order, and every front end finding the
// endgame databases there with no option: `tsuru egdb build` writes there by default, the Hub
// `id` names the sets, and hub, dxp, play, selfplay and the engines of `tsuru match` play with
// them. A damaged or foreign file is refused with its reason and the rest still load.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "book/data_dir.hpp"
#include "engine/rules/notation.hpp"
#include "eval/egdb/database.hpp"
#include "eval/egdb/search_probe.hpp"
#include "protocol/dxp/board.hpp"
#include "protocol/dxp/message.hpp"
#include "tests/dxp_process.hpp"
#include "tests/egdb_data.hpp"
#include "tests/tsuru_run.hpp"
#include "tools/train/sample.hpp"

using namespace tsuru;
using tsuru::test::english3_data;
using tsuru::test::fresh_dir;
using tsuru::test::ScopedEnv;
namespace fs = std::filesystem;

namespace {

// A won English position of three kings the databases give a distance: White to move.
const char* const kWon = "W:WK1,K2:BK32";

// Whether `move` (PDN text) from kWon leads to the opponent's loss one ply sooner: the move the
// databases choose (the engine plays a won ending out by them).
void check_fastest(const egdb::Database& db, const std::string& move_text) {
  const auto pos = notation::parse_fen(Variant::English, kWon);
  REQUIRE(pos.ok());
  const auto root = db.probe(*pos);
  REQUIRE(root);
  REQUIRE(root->wdl == egdb::Wdl::Win);
  REQUIRE(root->distance > 2);
  const auto move = notation::parse_move(Variant::English, *pos, move_text);
  INFO("move " << move_text);
  REQUIRE(move.ok());
  const auto child = db.probe(pos->after(*move));
  REQUIRE(child);
  CHECK(child->wdl == egdb::Wdl::Loss);
  CHECK(child->distance == root->distance - 1);
}

std::shared_ptr<const egdb::Database> open_english(const fs::path& data) {
  auto db = egdb::Database::open(Variant::English, (data / "egdb").string());
  REQUIRE(db.ok());
  REQUIRE((*db)->pieces() == 3);
  return *db;
}

std::string done_move(const std::string& out) {
  const auto at = out.rfind("done move=");
  REQUIRE(at != std::string::npos);
  const auto end = out.find_first_of(" \n", at + 10);
  return out.substr(at + 10, end - at - 10);
}

}  // namespace

TEST_CASE("Data directory: TSURU_DATA alone, else the XDG directory, then the installed one",
          "[data]") {
  const fs::path root = fresh_dir("tsuru-data-order");
  {
    ScopedEnv data("TSURU_DATA", (root / "forced").string());
    CHECK(data::search_dirs() == std::vector<std::string>{(root / "forced").string()});
    CHECK(data::user_folder("egdb") == (root / "forced" / "egdb").string());
    CHECK_FALSE(data::find_folder("egdb"));  // it does not exist
    fs::create_directories(root / "forced" / "egdb");
    CHECK(data::find_folder("egdb") == (root / "forced" / "egdb").string());
  }
  {
    ScopedEnv data("TSURU_DATA", std::nullopt);
    ScopedEnv xdg("XDG_DATA_HOME", (root / "xdg").string());
    const auto dirs = data::search_dirs();
    REQUIRE(dirs.size() >= 2);  // the user's, then the installed binary's
    CHECK(dirs[0] == (root / "xdg" / "tsuru").string());
    CHECK(data::user_folder("book") == (root / "xdg" / "tsuru" / "book").string());
  }
  {
    ScopedEnv data("TSURU_DATA", "");  // empty counts as unset
    ScopedEnv xdg("XDG_DATA_HOME", std::nullopt);
    ScopedEnv home("HOME", (root / "home").string());
    CHECK(data::search_dirs().at(0) == (root / "home" / ".local" / "share" / "tsuru").string());
  }
  {
    // A weights file by bare name: from the data directory's weights/ when it is not here.
    ScopedEnv data("TSURU_DATA", (root / "forced").string());
    fs::create_directories(root / "forced" / "weights");
    std::ofstream(root / "forced" / "weights" / "mine.weights") << "x";
    CHECK(data::weights_file("mine.weights") == (root / "forced" / "weights" / "mine.weights"));
    CHECK(data::weights_file("absent.weights") == "absent.weights");
    CHECK(data::weights_file("default") == "default");
    CHECK(data::weights_file("") == "");
  }
  fs::remove_all(root);
}

TEST_CASE("Data directory: the Hub id names the sets; hub plays a won ending out by them",
          "[data][hub]") {
  const fs::path& data = english3_data();
  CHECK(fs::is_regular_file(data / "egdb" / "english-0201.egdb"));
  ScopedEnv env("TSURU_DATA", data.string());
  const auto r = test::run_tsuru(
      {"hub"}, std::string("hub\nset-param name=variant value=english\ninit\npos pos=") + kWon +
                   "\nlevel move-time=0.2\ngo think\nquit\n");
  INFO(r.out << r.err);
  CHECK(r.out.find("id name=Tsuru version=") == 0);
  CHECK(r.out.find(" egdb=english:3\n") != std::string::npos);
  CHECK(r.out.find("param name=egdb-dir value=default type=string") != std::string::npos);
  check_fastest(*open_english(data), done_move(r.out));

  // egdb-dir empty: none, even with the data directory's (a second `hub` shows it); the engine
  // then searches the won position instead of playing it out at depth 1.
  const auto off = test::run_tsuru(
      {"hub"}, std::string("hub\nset-param name=egdb-dir value=\"\"\nhub\nset-param name=variant "
                           "value=english\ninit\npos pos=") +
                   kWon + "\nlevel depth=3\ngo think\nquit\n");
  INFO(off.out);
  CHECK(off.out.find(" egdb=english:3\n") < off.out.find(" egdb=none\n"));
  CHECK(off.out.find("info depth=3 ") != std::string::npos);
}

TEST_CASE("Data directory: a damaged or a foreign file is refused with its reason, the rest load",
          "[data][hub]") {
  const fs::path& good = english3_data();
  const fs::path data = fresh_dir("tsuru-data-damaged");
  fs::copy(good / "egdb", data / "egdb");
  // A foreign file: another slice's bytes under 0300's name... (0300 has no black piece: use
  // 1101), and a damaged one: a byte of 0102's values flipped.
  fs::copy_file(good / "egdb" / "english-0201.egdb", data / "egdb" / "english-1101.egdb",
                fs::copy_options::overwrite_existing);
  {
    std::fstream f(data / "egdb" / "english-0102.egdb",
                   std::ios::in | std::ios::out | std::ios::binary);
    f.seekg(200);
    char c = 0;
    f.read(&c, 1);
    c = static_cast<char>(c ^ 0x55);
    f.seekp(200);
    f.write(&c, 1);
  }
  const auto db = egdb::Database::open(Variant::English, (data / "egdb").string());
  REQUIRE(db.ok());
  REQUIRE((*db)->problems().size() == 2);
  CHECK((*db)->problems()[0].find("english-0102.egdb: checksum mismatch") != std::string::npos);
  CHECK((*db)->problems()[1].find("english-1101.egdb: holds slice 0201, not 1101") !=
        std::string::npos);
  CHECK((*db)->pieces() == 2);       // 0102 is a 3-piece slice
  CHECK((*db)->probe_limit() == 3);  // the other 3-piece slices still answer

  ScopedEnv env("TSURU_DATA", data.string());
  const auto r = test::run_tsuru(
      {"hub"}, std::string("hub\nset-param name=variant value=english\ninit\npos pos=") + kWon +
                   "\nlevel move-time=0.2\ngo think\nquit\n");
  INFO(r.out << r.err);
  // The id judges headers only: the foreign file is refused there, the damaged one at init.
  CHECK(r.out.find(" egdb=english:2\n") != std::string::npos);
  CHECK(r.err.find("english-0102.egdb: checksum mismatch") != std::string::npos);
  CHECK(r.err.find("english-1101.egdb: holds slice 0201, not 1101") != std::string::npos);
  CHECK(r.out.find("done move=") != std::string::npos);
  fs::remove_all(data);
}

TEST_CASE("Data directory: dxp finds the databases and plays a won ending out by them",
          "[data][dxp]") {
  const fs::path& data = english3_data();
  ScopedEnv env("TSURU_DATA", data.string());
  test::Listener tsuru({"--variant", "english", "--hash", "16"});
  test::PeerSocket peer(tsuru.port);
  const auto pos = notation::parse_fen(Variant::English, kWon);
  REQUIRE(pos.ok());
  // The engine (the follower) plays White, who is to move.
  peer.send(dxp::format(dxp::make_request(Variant::English, "Peer", Side::White, 5, 0, *pos)));
  const auto accept = peer.receive(20);
  REQUIRE(accept);
  CHECK((*accept)[0] == 'A');
  const auto move = peer.receive(20);
  REQUIRE(move);
  INFO(*move);
  const auto parsed = dxp::parse(*move);
  REQUIRE(parsed.ok());
  REQUIRE(std::holds_alternative<dxp::MoveMessage>(*parsed));
  const auto found = dxp::find_move(Variant::English, *pos, std::get<dxp::MoveMessage>(*parsed));
  REQUIRE(found.ok());
  check_fastest(*open_english(data), notation::format_move(Variant::English, *found));
}

TEST_CASE("Data directory: play says which databases it found and plays by them", "[data][play]") {
  const fs::path& data = english3_data();
  ScopedEnv env("TSURU_DATA", data.string());
  const auto r = test::run_tsuru({"play", "--variant", "english", "--level", "hard", "--colour",
                                  "black", "--seed", "1", "--fen", kWon},
                                 "quit\n");
  INFO(r.out << r.err);
  CHECK(r.out.find("Endgame databases: up to 3 pieces (" + (data / "egdb").string() + ").") !=
        std::string::npos);
  // The engine, White, moves first: "Tsuru plays 1-5 (...)".
  const auto at = r.out.find("Tsuru plays ");
  REQUIRE(at != std::string::npos);
  const auto end = r.out.find(' ', at + 12);
  check_fastest(*open_english(data), r.out.substr(at + 12, end - at - 12));
}

TEST_CASE("Data directory: the engines tsuru match starts find the databases themselves",
          "[data][match]") {
  const fs::path& data = english3_data();
  ScopedEnv env("TSURU_DATA", data.string());
  const fs::path openings = fresh_dir("tsuru-data-match") / "won.txt";
  std::ofstream(openings) << kWon << "\n";
  const std::string hub = std::string("hub:") + TSURU_BINARY + " hub";
  const auto r =
      test::run_tsuru({"match", "--variant", "english", "--engine", hub, "--engine", hub, "--games",
                       "2", "--movetime", "0.05", "--openings", openings.string()},
                      "", std::chrono::seconds(300));
  INFO(r.out << r.err);
  CHECK(r.code == 0);
  CHECK(r.out.find("match: engine 1 endgame databases: english:3") != std::string::npos);
  CHECK(r.out.find("match: engine 2 endgame databases: english:3") != std::string::npos);
  // Each side wins the won position with White: one win each.
  CHECK(r.out.find("result W=1 D=0 L=1 ") != std::string::npos);
  // A match that gives an engine egdb-dir says what that directory holds (the engine's id line
  // came before the parameter): engine 1 none, engine 2 the same set named by its directory.
  const std::string egdb = (data / "egdb").string();
  const auto p =
      test::run_tsuru({"match", "--variant", "english", "--engine", hub, "--engine", hub, "--games",
                       "2", "--movetime", "0.05", "--openings", openings.string(), "--param1",
                       "egdb-dir=", "--param2", "egdb-dir=" + egdb},
                      "", std::chrono::seconds(300));
  INFO(p.out << p.err);
  CHECK(p.code == 0);
  CHECK(p.out.find("match: engine 1 endgame databases: none (egdb-dir empty)") !=
        std::string::npos);
  CHECK(p.out.find("match: engine 2 endgame databases: english:3 (egdb-dir " + egdb + ")") !=
        std::string::npos);
  fs::remove_all(openings.parent_path());
}

TEST_CASE("Data directory: selfplay finds the databases and its searches score by them",
          "[data][selfplay]") {
  const fs::path& data = english3_data();
  ScopedEnv env("TSURU_DATA", data.string());
  const fs::path dir = fresh_dir("tsuru-data-selfplay");
  std::ofstream(dir / "won.txt") << kWon << "\n";
  // The won position's first sample: the search's score, from the databases or not.
  const auto first_score = [&](std::vector<std::string> extra) {
    std::vector<std::string> args = {"selfplay",
                                     "--variant",
                                     "english",
                                     "--games",
                                     "1",
                                     "--depth",
                                     "2",
                                     "--openings",
                                     (dir / "won.txt").string(),
                                     "--out",
                                     (dir / "s.samples").string(),
                                     "--force"};
    args.insert(args.end(), extra.begin(), extra.end());
    const auto r = test::run_tsuru(args);
    INFO(r.out << r.err);
    REQUIRE(r.code == 0);
    const auto samples = train::read_samples(Variant::English, (dir / "s.samples").string());
    REQUIRE(samples.ok());
    REQUIRE(!samples->empty());
    CHECK(samples->front().ply == 0);
    return std::make_pair(samples->front().score, r.err);
  };
  const auto [with, with_err] = first_score({});
  CHECK(with_err.find("selfplay: endgame databases " + (data / "egdb").string() +
                      ": up to 3 pieces") != std::string::npos);
  CHECK(egdb::is_database_score(with));
  CHECK(with > 0);
  const auto [without, without_err] = first_score({"--egdb-dir", ""});
  CHECK(without_err.find("endgame databases") == std::string::npos);
  CHECK(!egdb::is_database_score(without));
  fs::remove_all(dir);
}
