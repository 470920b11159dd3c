// The pattern evaluation (eval/pattern*.hpp): region indices against a square-by-square
// reference, colour symmetry, the weights file (round trip, every kind of damage rejected), the
// compiled-in weights, and the eval-file setting of the engine, the Hub and the command line.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <random>

#include <catch2/catch.hpp>

#include "engine/engine.hpp"
#include "engine/rules/binary_io.hpp"
#include "engine/rules/legal.hpp"
#include "eval/pattern.hpp"
#include "protocol/hub/params.hpp"
#include "tests/pattern_helpers.hpp"
#include "tests/tsuru_run.hpp"

using namespace tsuru;
using test::colour_reversed;
using test::random_position;
using test::random_weights;

namespace {

// The square (0-based, as the geometry numbers them) of region j's k-th square, from the
// geometry: on the diagonal boards window row 2 * (j / column offsets), column pair j % column
// offsets, two squares a row; on Turkish draughts' board rows j / 3 and j / 3 + 1, columns
// 2 * (j % 3) on, four squares a row.
template <class G>
int window_square(int j, int k) {
  using L = eval::PatternLayout<G>;
  if constexpr (std::is_same_v<G, SquareBoard8>)
    return (j / 3 + k / 4) * 8 + 2 * (j % 3) + k % 4;
  else
    return (2 * (j / L::kColOffsets) + k / 2) * G::kPerRow + j % L::kColOffsets + k % 2;
}

// Region j's state for White to move, square by square: 1 for a White man and 2 for a Black man,
// in base 3, the squares in window order.
template <class G>
int reference_state(const Position& p, int j) {
  int state = 0, power = 1;
  for (int k = 0; k < eval::kRegionSquares; ++k, power *= 3) {
    const Bitboard b = bit(G::square_bit(window_square<G>(j, k)));
    if (p.men(Side::White) & b) state += power;
    if (p.men(Side::Black) & b) state += 2 * power;
  }
  return state;
}

// Region j's king state for White to move, likewise: 1 a White man, 2 a Black man, 3 a White
// king, 4 a Black king, in base 5; -1 when the window holds no king.
template <class G>
int reference_king_state(const Position& p, int j) {
  int state = 0, power = 1;
  bool king = false;
  for (int k = 0; k < eval::kRegionSquares; ++k, power *= 5) {
    const Bitboard b = bit(G::square_bit(window_square<G>(j, k)));
    if (p.men(Side::White) & b) state += power;
    if (p.men(Side::Black) & b) state += 2 * power;
    if (p.kings(Side::White) & b) state += 3 * power;
    if (p.kings(Side::Black) & b) state += 4 * power;
    king = king || (p.kings() & b);
  }
  return king ? state : -1;
}

// Wide window j's state for White to move: grid rows 2 * (j / columns) on, four of them, in each
// the squares j % columns to j % columns + 2 of the row, row by row; digits as reference_state.
template <class G>
int reference_wide_state(const Position& p, int j) {
  using W = eval::WideLayout<G>;
  const int r0 = 2 * (j / W::kColOffsets), i0 = j % W::kColOffsets;
  int state = 0, power = 1;
  for (int r = 0; r < 4; ++r)
    for (int i = 0; i < 3; ++i, power *= 3) {
      const Bitboard b = bit(G::square_bit((r0 + r) * G::kPerRow + i0 + i));
      if (p.men(Side::White) & b) state += power;
      if (p.men(Side::Black) & b) state += 2 * power;
    }
  return state;
}

template <class R>
void check_regions(Variant v) {
  using G = typename R::Geometry;
  std::mt19937_64 rng(11);
  for (int n = 0; n < 300; ++n) {
    const Position p = random_position(v, rng, 0.3 + 0.002 * n);
    const eval::Features f = eval::features<R>(p);
    // Black to move: the features are White's of the colour-reversed copy.
    const Position white_view = p.turn() == Side::White ? p : colour_reversed(v, p);
    for (int j = 0; j < f.regions; ++j) {
      REQUIRE(f.state[static_cast<std::size_t>(j)] == reference_state<G>(white_view, j));
      REQUIRE(f.king_state[static_cast<std::size_t>(j)] == reference_king_state<G>(white_view, j));
    }
    REQUIRE(f.wide == eval::wide_count(v));
    if constexpr (eval::kDiagonalBoard<G>)
      for (int j = 0; j < f.wide; ++j)
        REQUIRE(f.wide_state[static_cast<std::size_t>(j)] ==
                reference_wide_state<G>(white_view, j));
    // Each king on its square as White sees it (square n is bit square(n)), own and other's.
    for (int sq = 0; sq < G::kSquares; ++sq) {
      const Bitboard b = bit(G::square_bit(sq));
      REQUIRE(f.kings_on[0][static_cast<std::size_t>(sq)] ==
              ((white_view.kings(Side::White) & b) != 0));
      REQUIRE(f.kings_on[1][static_cast<std::size_t>(sq)] ==
              ((white_view.kings(Side::Black) & b) != 0));
    }
    // The king terms: each king's quiet moves, walked square by square along the diagonals (the
    // rows and files on Turkish draughts' board; as far as the first piece for flying kings, one
    // step for short ones), and kings without one.
    constexpr bool square_board = std::is_same_v<G, SquareBoard8>;
    const std::array<std::pair<int, int>, 4> directions =
        square_board ? std::array<std::pair<int, int>, 4>{{{-1, 0}, {1, 0}, {0, -1}, {0, 1}}}
                     : std::array<std::pair<int, int>, 4>{{{-1, -1}, {-1, 1}, {1, -1}, {1, 1}}};
    int moves[2] = {0, 0}, trapped[2] = {0, 0};
    for (int side = 0; side < 2; ++side)
      for (int sq = 0; sq < G::kSquares; ++sq) {
        if (!(p.kings(side == 0 ? p.turn() : opponent(p.turn())) & bit(G::square_bit(sq))))
          continue;
        int count = 0;
        for (const auto& [dr, dc] : directions)
          for (int r = G::row_of_square(sq) + dr, c = G::col_of_square(sq) + dc;
               G::square_at(r, c) >= 0 && !(p.occupied() & bit(G::square_bit(G::square_at(r, c))));
               r += dr, c += dc) {
            ++count;
            if (!R::kFlyingKings) break;
          }
        moves[side] += count;
        trapped[side] += count == 0;
      }
    // Tempo: the rows each man has advanced from its own back row (White's is the last row),
    // own minus the other side's.
    int tempo = 0;
    for (int sq = 0; sq < G::kSquares; ++sq) {
      const Bitboard b = bit(G::square_bit(sq));
      const int from_white = G::kRows - 1 - G::row_of_square(sq);
      if (white_view.men(Side::White) & b) tempo += from_white;
      if (white_view.men(Side::Black) & b) tempo -= G::kRows - 1 - from_white;
    }
    REQUIRE(f.linear[eval::kTempo] == tempo);
    REQUIRE(f.linear[eval::kOwnKingMoves] == moves[0]);
    REQUIRE(f.linear[eval::kOtherKingMoves] == moves[1]);
    REQUIRE(f.linear[eval::kOwnTrappedKings] == trapped[0]);
    REQUIRE(f.linear[eval::kOtherTrappedKings] == trapped[1]);
  }
}

std::vector<std::uint8_t> file_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void write_bytes(const std::string& path, const std::vector<std::uint8_t>& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()),
            static_cast<std::streamsize>(bytes.size()));
}

void reseal(std::vector<std::uint8_t>& bytes) {
  const std::uint64_t h =
      fnv1a(bytes.data() + eval::kWeightsHeaderSize, bytes.size() - eval::kWeightsHeaderSize);
  for (int i = 0; i < 8; ++i)
    bytes[48 + static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(h >> (8 * i));
}

}  // namespace

TEST_CASE("region counts and sizes per board", "[pattern]") {
  CHECK(eval::region_count(Variant::International) == 16);
  CHECK(eval::region_count(Variant::English) == 9);
  CHECK(eval::region_count(Variant::Russian) == 9);
  CHECK(eval::region_count(Variant::Frisian) == 16);
  // Turkish draughts' full board: windows of 2 rows by 4 columns, 7 x 3 of them, no wide ones.
  CHECK(eval::region_count(Variant::Turkish) == 21);
  CHECK(eval::wide_count(Variant::Turkish) == 0);
  CHECK(eval::PatternWeights::zero(Variant::Turkish).count() ==
        21 * 6561 * 2 + 390625 * 2 + 2 * 64 * 2 + 2 * eval::kLinearCount);
  // The losing games too: the weights learn their goal.
  CHECK(eval::has_patterns(Variant::Antidraughts));
  CHECK(eval::region_count(Variant::Giveaway) == 9);
  // Men windows, shared king windows, king squares and the linear terms; the per-region king
  // windows when asked for.
  CHECK(eval::PatternWeights::zero(Variant::International).count() ==
        16 * 6561 * 2 + 390625 * 2 + 2 * 50 * 2 + 2 * eval::kLinearCount);
  CHECK(eval::PatternWeights::zero(Variant::English, true).count() ==
        9 * 6561 * 2 + 10 * 390625 * 2 + 2 * 32 * 2 + 2 * eval::kLinearCount);
  // Wide windows: 4 rows of 3 squares, 12 on 10x10 and 6 on 8x8.
  CHECK(eval::wide_count(Variant::International) == 12);
  CHECK(eval::wide_count(Variant::English) == 6);
  CHECK(eval::PatternWeights::zero(Variant::English, false, true).count() ==
        9 * 6561 * 2 + 6 * 531441 * 2 + 390625 * 2 + 2 * 32 * 2 + 2 * eval::kLinearCount);
}

template <class G>
void check_masks() {
  using L = eval::PatternLayout<G>;
  for (int side = 0; side < 2; ++side)
    for (int j = 0; j < L::kRegions; ++j) {
      const Bitboard m = L::kMasks[static_cast<std::size_t>(side)][static_cast<std::size_t>(j)];
      REQUIRE(popcount(m) == 8);
      REQUIRE((m & ~G::kValid) == 0);
      REQUIRE(
          L::gather(m >> L::kBases[static_cast<std::size_t>(side)][static_cast<std::size_t>(j)]) ==
          0xFFu);
    }
}

TEST_CASE("region states from bitboards match the square-by-square reference", "[pattern]") {
  check_masks<Board10>();
  check_masks<Board8>();
  check_masks<SquareBoard8>();
  check_regions<InternationalRules>(Variant::International);
  check_regions<EnglishRules>(Variant::English);
  check_regions<TurkishRules>(Variant::Turkish);
}

TEST_CASE("a position and its colour-reversed copy have the same features and score", "[pattern]") {
  for (Variant v : {Variant::International, Variant::English, Variant::Russian, Variant::Turkish}) {
    const eval::PatternWeights w =
        random_weights(v, 5, v == Variant::English, v != Variant::Russian);
    std::mt19937_64 rng(3);
    with_rules(v, [&]<class R>(R) {
      if constexpr (eval::kPatternRules<R>) {
        int nonzero = 0, kinged = 0;
        for (int n = 0; n < 400; ++n) {
          const Position p = random_position(v, rng, 0.2 + 0.0015 * n);
          const Position q = colour_reversed(v, p);
          const eval::Features a = eval::features<R>(p), b = eval::features<R>(q);
          REQUIRE(a.state == b.state);
          REQUIRE(a.king_state == b.king_state);
          REQUIRE(a.kings_on == b.kings_on);
          REQUIRE(a.linear == b.linear);
          REQUIRE(a.pieces == b.pieces);
          kinged += p.kings() != 0;
          const Score s = eval::PatternEvaluator<R>::evaluate(p, w);
          REQUIRE(s == eval::PatternEvaluator<R>::evaluate(q, w));
          nonzero += s != 0;
        }
        CHECK(nonzero > 300);  // the weights are not all cancelling out
        CHECK(kinged > 100);   // and kings were there to be seen
      }
    });
  }
}

TEST_CASE("the pattern evaluation keeps the classic endgame knowledge", "[pattern]") {
  // International: a king and a man against a lone king score as a draw (a hint of who is
  // better only).
  using P = eval::PatternEvaluator<InternationalRules>;
  const BoardShape& b = info(Variant::International).board;
  eval::PatternWeights w = random_weights(Variant::International, 9);
  w.linear[0][eval::kMen] = w.linear[1][eval::kMen] = 1000 * eval::kWeightScale;
  const Bitboard k23 = bit(b.square(23)), m28 = bit(b.square(28)), k2 = bit(b.square(2));
  const Position p = Position::from_bitboards(k23 | m28, k2, k23 | k2, Side::White);
  const int raw = P::raw(p, w) / eval::kWeightScale;
  REQUIRE(std::abs(raw) > 300);
  CHECK(std::abs(P::evaluate(p, w)) <= std::abs(raw) / 50);
  // Four pieces beat a lone king: the learned score stands.
  const Bitboard m40 = bit(b.square(40)), m45 = bit(b.square(45));
  const Position q = Position::from_bitboards(k23 | m28 | m40 | m45, k2, k23 | k2, Side::White);
  CHECK(P::evaluate(q, w) == P::raw(q, w) / eval::kWeightScale);
  // Kings only: the classic evaluation, whatever the weights, unless they were trained there.
  const Position r =
      Position::from_bitboards(k23 | m28, k2 | m40, k23 | m28 | k2 | m40, Side::Black);
  CHECK(P::evaluate(r, w) == eval::evaluate<InternationalRules>(r));
  w.kings_only = true;
  CHECK(P::evaluate(r, w) != eval::evaluate<InternationalRules>(r));
  // English, two kings against one: the stronger side is still pulled in (the classic
  // closing-in term, added on top of the learned score).
  using E = eval::PatternEvaluator<EnglishRules>;
  const BoardShape& e = info(Variant::English).board;
  eval::PatternWeights ew = random_weights(Variant::English, 10);
  ew.kings_only = true;
  auto kings = [&](std::initializer_list<int> white, int black) {
    Bitboard wk = 0;
    for (int sq : white) wk |= bit(e.square(sq));
    const Bitboard bk = bit(e.square(black));
    return Position::from_bitboards(wk, bk, wk | bk, Side::White);
  };
  auto chase = [&](const Position& k) {
    return E::evaluate(k, ew) - E::raw(k, ew) / eval::kWeightScale;
  };
  CHECK(chase(kings({14, 15}, 10)) > chase(kings({29, 32}, 1)));
  CHECK(chase(kings({29, 32}, 1)) < 0);
}

TEST_CASE("weights on the classic evaluation add to its score", "[pattern]") {
  // Weights trained as a correction (tsuru train --on-classic): all zero they are the classic
  // evaluation; otherwise its score plus theirs, wherever a man is on the board; kings only stay
  // the classic evaluation's.
  for (Variant v : {Variant::Turkish, Variant::Czech, Variant::English}) {
    with_rules(v, [&]<class R>(R) {
      using E = eval::PatternEvaluator<R>;
      eval::PatternWeights zero = eval::PatternWeights::zero(v);
      zero.on_classic = true;
      eval::PatternWeights w = random_weights(v, 9);
      w.on_classic = true;
      std::mt19937_64 rng(17);
      int differ = 0;
      for (int n = 0; n < 300; ++n) {
        const Position p = random_position(v, rng, 0.2 + 0.002 * n);
        const Score classic = eval::evaluate<R>(p);
        REQUIRE(E::evaluate(p, zero) == classic);
        if (!(p.occupied() & ~p.kings())) {
          REQUIRE(E::evaluate(p, w) == classic);
          continue;
        }
        const Score sum = classic + E::raw(p, w) / eval::kWeightScale;
        REQUIRE(E::evaluate(p, w) == std::clamp(sum, -kWinThreshold + 1, kWinThreshold - 1));
        differ += E::evaluate(p, w) != classic;
      }
      CHECK(differ > 250);
    });
  }
}

TEST_CASE("weights files round trip", "[pattern][weights]") {
  for (Variant v : {Variant::English, Variant::International, Variant::Frisian, Variant::Turkish}) {
    for (bool king_regions : {false, true}) {
      eval::PatternWeights w = random_weights(v, 21, king_regions, !king_regions);
      w.kings_only = king_regions;
      w.on_classic = !king_regions;
      const auto bytes = eval::encode_weights(w);
      const auto back = eval::decode_weights(bytes);
      REQUIRE(back.ok());
      CHECK(*back == w);
    }
  }
  // Runs of zeros cost a few bytes: all-zero weights are five group headers and their runs.
  const auto zero =
      eval::encode_weights(eval::PatternWeights::zero(Variant::International, true, true));
  CHECK(zero.size() < eval::kWeightsHeaderSize + 100);
  REQUIRE(eval::decode_weights(zero).ok());
  CHECK(*eval::decode_weights(zero) ==
        eval::PatternWeights::zero(Variant::International, true, true));
  const std::string path = test::pattern_temp_path("roundtrip.weights");
  const eval::PatternWeights w = random_weights(Variant::English, 4);
  REQUIRE(eval::write_weights(path, w).ok());
  const auto read = eval::read_weights(path);
  REQUIRE(read.ok());
  CHECK(*read == w);
  std::filesystem::remove(path);
}

TEST_CASE("weights files of the first format still load, the new groups zero",
          "[pattern][weights]") {
  // Version 1: men windows and five linear terms, uncoded (docs/formats.md).
  const Variant v = Variant::English;
  std::vector<std::int16_t> body;
  for (int i = 0; i < 9 * 6561 * 2; ++i) body.push_back(static_cast<std::int16_t>(i % 97 - 48));
  for (int i = 0; i < 10; ++i) body.push_back(static_cast<std::int16_t>(100 + i));
  std::vector<std::uint8_t> bytes = {'T', 'S', 'U', 'R', 'U', 'E', 'V', 0};
  std::vector<std::uint8_t> data;
  for (std::int16_t x : body) put_le(data, static_cast<std::uint16_t>(x), 2);
  put_le(bytes, 1, 4);
  put_le(bytes, body.size(), 4);
  for (char c : std::string("english\0\0\0\0\0\0\0\0\0", 16))
    bytes.push_back(static_cast<std::uint8_t>(c));
  put_le(bytes, start_position(v).key(), 8);
  put_le(bytes, 9, 4);
  put_le(bytes, 5, 4);
  put_le(bytes, fnv1a(data.data(), data.size()), 8);
  put_le(bytes, 0, 8);
  bytes.insert(bytes.end(), data.begin(), data.end());
  const auto w = eval::decode_weights(bytes);
  REQUIRE(w.ok());
  CHECK(w->variant == v);
  CHECK(w->region == std::vector<std::int16_t>(body.begin(), body.end() - 10));
  CHECK(w->linear[0][eval::kMen] == 100);
  CHECK(w->linear[0][eval::kOtherBalance] == 104);
  CHECK(w->linear[1][eval::kMen] == 105);
  CHECK(w->linear[1][eval::kOtherBalance] == 109);
  CHECK(w->linear[0][eval::kOwnKingMoves] == 0);
  CHECK(!w->kings_only);
  CHECK(w->king_region.empty());
  CHECK(std::all_of(w->king_shared.begin(), w->king_shared.end(), [](auto x) { return x == 0; }));
  // Written again, it is a file of this version with the same weights.
  const auto again = eval::decode_weights(eval::encode_weights(*w));
  REQUIRE(again.ok());
  CHECK(*again == *w);
  bytes.pop_back();
  CHECK_THAT(eval::decode_weights(bytes).error(), Catch::Contains("truncated"));
}

TEST_CASE("damaged weights files are rejected with a reason", "[pattern][weights]") {
  const auto good = eval::encode_weights(random_weights(Variant::English, 8));
  auto rejects = [](std::vector<std::uint8_t> bytes, const std::string& why) {
    const auto r = eval::decode_weights(bytes);
    REQUIRE(!r.ok());
    CHECK_THAT(r.error(), Catch::Contains(why));
  };
  {
    auto b = good;
    b[eval::kWeightsHeaderSize + 1000] ^= 1;
    rejects(b, "checksum");
  }
  {
    auto b = good;
    b.pop_back();
    rejects(b, "truncated");
  }
  {
    auto b = good;
    b.push_back(0);
    b.push_back(0);
    rejects(b, "trailing");
  }
  {
    auto b = good;
    b[0] = 'X';
    rejects(b, "bad magic");
  }
  {
    auto b = good;
    b[8] = 9;
    rejects(b, "version 9");
  }
  {
    auto b = good;
    b[32] ^= 0xff;  // start key: another layout
    rejects(b, "board layout");
  }
  {
    auto b = good;
    b[40] = 16;  // regions of another board
    rejects(b, "features");
  }
  {
    auto b = good;
    // Another rule set's name on these weights: its board and keys are not these.
    const char name[16] = "turkish";
    std::copy(name, name + 16, b.begin() + 16);
    rejects(b, "board layout");
  }
  {
    auto b = good;
    b[56] = 4;
    rejects(b, "unknown flags");
  }
  {
    // The first group says it holds one weight more than the men windows have.
    auto b = good;
    b[eval::kWeightsHeaderSize] ^= 1;
    reseal(b);
    rejects(b, "men windows weights");
  }
  {
    // A zero run longer than the group: the runs do not cover it exactly.
    auto b = eval::encode_weights(eval::PatternWeights::zero(Variant::English));
    const std::size_t run = eval::kWeightsHeaderSize + 8;  // the men windows' first run
    REQUIRE(b[run] == 0x80 + (9 * 6561 * 2) % 128);
    b[run] += 1;
    reseal(b);
    rejects(b, "badly coded men windows");
  }
  rejects(std::vector<std::uint8_t>(good.begin(), good.begin() + 20), "too short");
  CHECK_THAT(eval::read_weights("/nonexistent/x.weights").error(),
             Catch::Contains("/nonexistent/x.weights"));
  CHECK(!eval::read_weights(std::filesystem::temp_directory_path().string()).ok());
}

TEST_CASE("the shipped weights are compiled in and load", "[pattern][weights]") {
  const std::filesystem::path data =
      std::filesystem::path(TSURU_TEST_DATA) / ".." / ".." / "eval" / "data";
  int shipped = 0;
  for (Variant v : all_variants()) {
    const std::filesystem::path file = data / (std::string(info(v).name) + ".weights");
    const auto image = eval::builtin_weights_image(v);
    if (!std::filesystem::exists(file)) {
      CHECK(image.empty());
      CHECK(eval::builtin_weights(v) == nullptr);
      continue;
    }
    ++shipped;
    const auto bytes = file_bytes(file.string());
    REQUIRE(std::vector<std::uint8_t>(image.begin(), image.end()) == bytes);
    const auto w = eval::builtin_weights(v);
    REQUIRE(w != nullptr);
    CHECK(w->variant == v);
    CHECK(*w == *eval::decode_weights(bytes));
    // Material comes out in the engine's units: a man is worth something like one, and in
    // the losing games it is a burden.
    const bool losing = with_rules(v, []<class R>(R) { return R::kNoMoveWins; });
    CHECK((losing ? -1 : 1) * w->linear[0][eval::kMen] > 25 * eval::kWeightScale);
    const auto loaded = eval::load_evaluation(v, std::string(eval::kBuiltinEval));
    REQUIRE(loaded.ok());
    CHECK(loaded->get() == w.get());
  }
  CHECK(shipped >= 12);  // English, international and the ten of docs/training.md
}

TEST_CASE("load_evaluation: empty is classic, a file must be for the rule set",
          "[pattern][weights]") {
  const auto classic = eval::load_evaluation(Variant::English, "");
  REQUIRE(classic.ok());
  CHECK(*classic == nullptr);
  const std::string path = test::pattern_temp_path("intl.weights");
  REQUIRE(eval::write_weights(path, random_weights(Variant::International, 2)).ok());
  CHECK(eval::load_evaluation(Variant::International, path).ok());
  const auto wrong = eval::load_evaluation(Variant::English, path);
  REQUIRE(!wrong.ok());
  CHECK_THAT(wrong.error(), Catch::Contains("not 'english'"));
  std::filesystem::remove(path);
}

TEST_CASE("default: the trained weights where they won their match, classic elsewhere",
          "[pattern][weights]") {
  // README "Training an evaluation": these won their SPRT matches against the classic
  // evaluation; Czech, Spanish and Turkish play classic by default.
  for (Variant v : {Variant::English, Variant::International, Variant::Brazilian, Variant::Russian,
                    Variant::Frisian, Variant::Breakthrough, Variant::Pool, Variant::Italian,
                    Variant::Killer, Variant::Thai, Variant::Antidraughts, Variant::Giveaway}) {
    const auto d = eval::load_evaluation(v, std::string(eval::kDefaultEval));
    REQUIRE(d.ok());
    CHECK(d->get() == eval::builtin_weights(v).get());
    CHECK(d->get() != nullptr);
  }
  for (Variant v : {Variant::Czech, Variant::Spanish, Variant::Turkish}) {
    const auto d = eval::load_evaluation(v, std::string(eval::kDefaultEval));
    REQUIRE(d.ok());
    CHECK(*d == nullptr);
  }
}

TEST_CASE(
    "the engine searches with the eval-file it is given and keeps it when the next one is damaged",
    "[pattern][engine]") {
  const std::string good = test::pattern_temp_path("engine_good.weights");
  const std::string bad = test::pattern_temp_path("engine_bad.weights");
  REQUIRE(eval::write_weights(good, random_weights(Variant::English, 77)).ok());
  auto damaged = eval::encode_weights(random_weights(Variant::English, 78));
  damaged[eval::kWeightsHeaderSize + 7] ^= 0x40;
  write_bytes(bad, damaged);

  auto search = [](const std::string& eval_file, Engine* reuse = nullptr) {
    Engine own;
    Engine& e = reuse ? *reuse : own;
    EngineOptions o;
    o.book = false;
    o.tt_log2 = 12;
    o.eval_file = eval_file;
    e.set_options(o);
    e.new_game();
    e.set_position(Game(Variant::English));
    SearchLimits limits;
    limits.depth = 5;
    limits.analyze = true;
    std::uint64_t nodes = 0;
    e.think(limits, [&](const SearchInfo& i) { nodes = i.nodes; });
    return std::pair{e.last_score(), nodes};
  };
  const auto classic = search("");
  const auto patterned = search(good);
  CHECK(classic != patterned);
  Engine e;
  CHECK(search(good, &e) == patterned);
  CHECK(search(bad, &e) == patterned);  // damaged: the evaluation in use stays
  Engine fresh;
  CHECK(search(bad, &fresh) == search(EngineOptions{}.eval_file));  // none yet: the default
  std::filesystem::remove(good);
  std::filesystem::remove(bad);
}

TEST_CASE("set-param eval-file switches the evaluation and refuses bad files", "[pattern][hub]") {
  const std::string good = test::pattern_temp_path("hub_good.weights");
  const std::string bad = test::pattern_temp_path("hub_bad.weights");
  REQUIRE(eval::write_weights(good, random_weights(Variant::International, 1)).ok());
  auto damaged = eval::encode_weights(random_weights(Variant::International, 1));
  damaged.resize(damaged.size() - 10);
  write_bytes(bad, damaged);
  hub::Settings s;
  CHECK(!hub::set_param(s, "eval-file", good).has_value());
  CHECK(s.engine.eval_file == good);
  const auto error = hub::set_param(s, "eval-file", bad);
  REQUIRE(error.has_value());
  CHECK_THAT(*error, Catch::StartsWith("bad value: ") && Catch::Contains("truncated"));
  CHECK(s.engine.eval_file == good);
  CHECK(hub::set_param(s, "eval-file", "/nonexistent/w.weights").has_value());
  CHECK(!hub::set_param(s, "eval-file", "builtin").has_value());
  CHECK(s.engine.eval_file == "builtin");
  CHECK(!hub::set_param(s, "eval-file", "default").has_value());
  CHECK(s.engine.eval_file == "default");
  CHECK(!hub::set_param(s, "eval-file", "").has_value());
  CHECK(s.engine.eval_file.empty());
  std::filesystem::remove(good);
  std::filesystem::remove(bad);
}

TEST_CASE("bench takes an --eval-file and refuses a damaged one", "[pattern][cli]") {
  const std::string good = test::pattern_temp_path("cli_good.weights");
  const std::string bad = test::pattern_temp_path("cli_bad.weights");
  REQUIRE(eval::write_weights(good, random_weights(Variant::English, 12)).ok());
  auto damaged = eval::encode_weights(random_weights(Variant::English, 12));
  damaged[3] = 'x';
  write_bytes(bad, damaged);
  const auto ok =
      test::run_tsuru({"bench", "--variant", "english", "--depth", "3", "--eval-file", good});
  CHECK(ok.code == 0);
  CHECK_THAT(ok.out, Catch::Contains("bench nodes="));
  const auto refused =
      test::run_tsuru({"bench", "--variant", "english", "--depth", "3", "--eval-file", bad});
  CHECK(refused.code != 0);
  CHECK_THAT(refused.err, Catch::Contains("bad magic"));
  const auto wrong =
      test::run_tsuru({"bench", "--variant", "international", "--depth", "3", "--eval-file", good});
  CHECK(wrong.code != 0);
  CHECK_THAT(wrong.err, Catch::Contains("not 'international'"));
  std::filesystem::remove(good);
  std::filesystem::remove(bad);
}
