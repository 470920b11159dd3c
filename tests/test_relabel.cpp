// Game results made exact by the endgame databases (tools/train/relabel.hpp): a game's first
// position the databases know gives its value to the positions before it, each later position
// gets its own value, and a game the databases never reach keeps its result. On the English
// databases of up to 3 pieces: two kings against one win, a king against a king draws.
#include <filesystem>

#include <catch2/catch.hpp>

#include "engine/rules/notation.hpp"
#include "eval/egdb/database.hpp"
#include "tests/egdb_data.hpp"
#include "tools/train/relabel.hpp"

using namespace tsuru;
using train::Sample;

namespace {

Sample sample_at(const char* fen, std::uint32_t game, std::uint16_t ply, std::int8_t result) {
  const auto p = notation::parse_fen(Variant::English, fen);
  REQUIRE(p.ok());
  return Sample{.white = p->pieces(Side::White),
                .black = p->pieces(Side::Black),
                .kings = p->kings(),
                .game = game,
                .ply = ply,
                .score = 0,
                .turn = p->turn(),
                .result = result};
}

// Three white kings against one, Black to move: four pieces, beyond the databases.
constexpr const char* kFour = "B:WK14,K15,K18:BK1";
constexpr const char* kTwoWhiteKings = "W:WK14,K15:BK1";  // White wins
constexpr const char* kKingEach = "B:WK14:BK1";           // drawn
constexpr const char* kTwoBlackKings = "W:WK14:BK1,K3";   // Black wins

}  // namespace

TEST_CASE("relabelling: the databases' values replace the played results", "[trainer][egdb]") {
  const auto db = egdb::Database::open(Variant::English, (test::english3_data() / "egdb").string());
  REQUIRE(db.ok());
  REQUIRE((*db)->pieces() == 3);
  // The theory the test stands on, asked of the databases directly.
  REQUIRE((*db)->probe(*notation::parse_fen(Variant::English, kTwoWhiteKings))->wdl ==
          egdb::Wdl::Win);
  REQUIRE((*db)->probe(*notation::parse_fen(Variant::English, kKingEach))->wdl == egdb::Wdl::Draw);
  REQUIRE((*db)->probe(*notation::parse_fen(Variant::English, kTwoBlackKings))->wdl ==
          egdb::Wdl::Loss);
  REQUIRE(!(*db)->probe(*notation::parse_fen(Variant::English, kFour)));

  std::vector<Sample> s{
      // Game 1, played to a draw: won for White from its first database position, drawn later.
      sample_at(kFour, 1, 10, 0), sample_at(kTwoWhiteKings, 1, 11, 0),
      sample_at(kKingEach, 1, 12, 0),
      // Game 2 never reaches the databases: its (wrong) result stays.
      sample_at(kFour, 2, 5, -1),
      // Game 3, played as a White win: a king each is a draw.
      sample_at(kKingEach, 3, 7, -1),
      // Game 4, played to a draw: Black's two kings win.
      sample_at(kTwoBlackKings, 4, 3, 0)};
  const train::RelabelStats st = train::relabel_with_database(s, **db);

  // Results are the side to move's: Black to move in a White win is -1.
  CHECK(s[0].result == -1);
  CHECK(s[1].result == 1);
  CHECK(s[2].result == 0);
  CHECK(s[3].result == -1);
  CHECK(s[4].result == 0);
  CHECK(s[5].result == -1);
  CHECK(st.games == 4);
  CHECK(st.games_reached == 3);
  CHECK(st.games_changed == 3);
  CHECK(st.samples == 6);
  CHECK(st.samples_probed == 4);
  CHECK(st.samples_changed == 4);
  CHECK(st.transitions[1][0] == 1);  // drawn, White won
  CHECK(st.transitions[0][1] == 1);  // White won (Black to move lost), drawn
  CHECK(st.transitions[1][2] == 1);  // drawn, Black won
  // Only the results change.
  CHECK(s[0].position() == notation::parse_fen(Variant::English, kFour).value());
  CHECK(s[3].game == 2);
  CHECK(s[5].ply == 3);
}

TEST_CASE("tsuru selfplay relabel: a file in, a file out; no databases is an error",
          "[trainer][egdb]") {
  namespace fs = std::filesystem;
  const fs::path dir = test::fresh_dir("tsuru-relabel");
  const std::string in = (dir / "in.samples").string(), out = (dir / "out.samples").string();
  REQUIRE(train::write_samples(Variant::English, in,
                               {sample_at(kFour, 0, 0, 0), sample_at(kTwoWhiteKings, 0, 1, 0),
                                sample_at(kTwoBlackKings, 1, 0, 1)}));
  const auto none = test::run_tsuru(
      {"selfplay", "relabel", "--egdb-dir", (dir / "no").string(), "--out", out, in});
  CHECK(none.code == 1);
  CHECK(none.err.find("no endgame databases of rule set english") != std::string::npos);
  CHECK(!fs::exists(out));

  const auto r = test::run_tsuru({"selfplay", "relabel", "--egdb-dir",
                                  (test::english3_data() / "egdb").string(), "--out", out, in});
  INFO(r.out << r.err);
  REQUIRE(r.code == 0);
  CHECK(r.out.find("games=2 reached=2 changed=2 positions=3 probed=2 changed=3") !=
        std::string::npos);
  CHECK(r.out.find("played white, databases black: 1 games") != std::string::npos);
  const auto back = train::read_samples(Variant::English, out);
  REQUIRE(back.ok());
  REQUIRE(back->size() == 3);
  CHECK(r.out.find("played draw, databases white: 1 games") != std::string::npos);
  CHECK((*back)[0].result == -1);
  CHECK((*back)[1].result == 1);
  CHECK((*back)[2].result == -1);
  fs::remove_all(dir);
}

TEST_CASE("relabelling: a kings-only win without a distance anchors nothing, one with men does",
          "[trainer][egdb]") {
  // The 3-piece slices without distances: a counter (English, 40 moves each) could cut a
  // kings-only win short, and the file cannot say it does not.
  const std::filesystem::path dir = test::fresh_dir("tsuru-relabel-wdl");
  const auto built = test::run_tsuru({"egdb", "build", "--variant", "english", "--pieces", "3",
                                      "--distance-pieces", "2", "--dir", dir.string(), "--quiet"});
  INFO(built.err);
  REQUIRE(built.code == 0);
  const auto db = egdb::Database::open(Variant::English, dir.string());
  REQUIRE(db.ok());
  REQUIRE((*db)->pieces() == 3);
  constexpr const char* kKingsAgainstMan = "W:WK14,K15:B1";  // White wins, a man on the board
  const auto men = (*db)->probe(*notation::parse_fen(Variant::English, kKingsAgainstMan));
  const auto kings = (*db)->probe(*notation::parse_fen(Variant::English, kTwoWhiteKings));
  REQUIRE(men->wdl == egdb::Wdl::Win);
  REQUIRE(kings->wdl == egdb::Wdl::Win);
  REQUIRE(kings->distance < 0);

  std::vector<Sample> s{sample_at(kFour, 1, 10, 0), sample_at(kTwoWhiteKings, 1, 11, 0),
                        sample_at(kKingsAgainstMan, 2, 4, 0)};
  const train::RelabelStats st = train::relabel_with_database(s, **db);
  CHECK(s[0].result == 0);
  CHECK(s[1].result == 0);
  CHECK(s[2].result == 1);
  CHECK(st.games_reached == 1);
  CHECK(st.samples_probed == 1);
  std::filesystem::remove_all(dir);
}
