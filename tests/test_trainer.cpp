// The trainer (tools/train/trainer.hpp): it recovers a known model from samples that model
// generated, splits by game, gives the same weights whatever the thread count; and a tiny
// end-to-end run of `tsuru train` whose weights the engine then plays with.
#include <cmath>
#include <filesystem>
#include <random>

#include <catch2/catch.hpp>

#include "engine/rules/legal.hpp"
#include "engine/rules/notation.hpp"
#include "eval/pattern.hpp"
#include "tests/pattern_helpers.hpp"
#include "tests/tsuru_run.hpp"
#include "tools/train/trainer.hpp"

using namespace tsuru;
using train::Sample;

namespace {

Sample sample_of(const Position& p, std::uint32_t game, std::int16_t score, std::int8_t result) {
  return Sample{.white = p.pieces(Side::White),
                .black = p.pieces(Side::Black),
                .kings = p.kings(),
                .game = game,
                .ply = 0,
                .score = score,
                .turn = p.turn(),
                .result = result};
}

// A known linear model over the features, in centi-men, the same in both phases: a weight for
// every region state (drawn at random), and the linear terms.
struct KnownModel {
  std::vector<double> region;  // [j * 6561 + state]
  std::array<double, eval::kLinearCount> linear{};

  explicit KnownModel(int regions) {
    std::mt19937_64 rng(99);
    std::uniform_real_distribution<double> u(-25.0, 25.0);
    region.resize(static_cast<std::size_t>(regions) * eval::kRegionStates);
    for (double& x : region) x = u(rng);
    linear = {90.0, 210.0, 3.0, -12.0, 8.0};  // the others zero
  }
  template <class R>
  double score(const Position& p) const {
    const eval::Features f = eval::features<R>(p);
    double z = 0;
    for (int j = 0; j < f.regions; ++j)
      z += region[static_cast<std::size_t>(j) * eval::kRegionStates +
                  static_cast<std::size_t>(f.state[static_cast<std::size_t>(j)])];
    for (std::size_t k = 0; k < eval::kLinearCount; ++k) z += linear[k] * f.linear[k];
    return z;
  }
};

// Positions with few men (region states from a few hundred, all seen often), the known model's
// score as the search score, the game number cycling so the validation split has games to hold.
template <class R>
std::vector<Sample> synthetic(Variant v, const KnownModel& m, int n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<Sample> out;
  for (int i = 0; i < n; ++i) {
    const Position p = test::random_position(v, rng, 0.18);
    const double z = m.score<R>(p);
    out.push_back(sample_of(p, static_cast<std::uint32_t>(i / 20),
                            static_cast<std::int16_t>(std::lround(z)),
                            static_cast<std::int8_t>(z > 50    ? 1
                                                     : z < -50 ? -1
                                                               : 0)));
  }
  return out;
}

train::TrainOptions synthetic_options() {
  train::TrainOptions o;
  o.epochs = 40;
  o.lr = 2.0;
  o.l2.fill(0);
  o.blend = 0;  // the target is the known model's win probability
  o.scale = 0.01;
  o.batch = 2048;
  o.validation = 0.1;
  return o;
}

// A known model of king endings: a weight for every shared king-window state and king square
// (drawn at random) and the king terms.
struct KnownKingModel {
  std::vector<double> window;                      // [state]
  std::array<std::array<double, 32>, 2> square{};  // [other][square]
  std::array<double, eval::kLinearCount> linear{};

  KnownKingModel() {
    std::mt19937_64 rng(7);
    std::uniform_real_distribution<double> u(-20.0, 20.0);
    window.resize(eval::kKingStates);
    for (double& x : window) x = u(rng);
    for (auto& side : square)
      for (double& x : side) x = u(rng);
    linear[eval::kKings] = 150;
    linear[eval::kOwnKingMoves] = 4;
    linear[eval::kOtherKingMoves] = -3;
    linear[eval::kOwnTrappedKings] = -30;
    linear[eval::kOtherTrappedKings] = 25;
    linear[eval::kMove] = 15;
  }
  double score(const Position& p) const {
    const eval::Features f = eval::features<EnglishRules>(p);
    double z = 0;
    for (int j = 0; j < f.regions; ++j)
      if (const int s = f.king_state[static_cast<std::size_t>(j)]; s >= 0)
        z += window[static_cast<std::size_t>(s)];
    for (std::size_t other = 0; other < 2; ++other)
      for (std::size_t sq = 0; sq < 32; ++sq) z += square[other][sq] * f.kings_on[other][sq];
    for (std::size_t k = 0; k < eval::kLinearCount; ++k) z += linear[k] * f.linear[k];
    return z;
  }
};

// English positions of two to four kings and nothing else.
Position random_king_ending(std::mt19937_64& rng) {
  const BoardShape& b = info(Variant::English).board;
  Bitboard white = 0, black = 0;
  const int n = 2 + static_cast<int>(rng() % 3);
  for (int i = 0; i < n;) {
    const Bitboard sq = bit(b.square(1 + static_cast<int>(rng() % 32)));
    if ((white | black) & sq) continue;
    (i % 2 == 0 ? white : black) |= sq;
    ++i;
  }
  return Position::from_bitboards(white, black, white | black,
                                  rng() % 2 ? Side::White : Side::Black);
}

// Random legal play from the start: quiet positions, each game's result by material at its end.
std::vector<Sample> random_games(Variant v, int games, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<Sample> out;
  for (int g = 0; g < games; ++g) {
    Position p = start_position(v);
    std::vector<Position> quiet;
    for (int ply = 0; ply < 60; ++ply) {
      const auto moves = legal_moves(v, p);
      if (moves.empty()) break;
      if (!moves[0].is_capture()) quiet.push_back(p);
      p.play(moves[static_cast<std::size_t>(rng() % moves.size())]);
    }
    const int balance = popcount(p.pieces(Side::White)) - popcount(p.pieces(Side::Black));
    for (const Position& q : quiet) {
      const int white_result = balance > 0 ? 1 : balance < 0 ? -1 : 0;
      const int result = q.turn() == Side::White ? white_result : -white_result;
      out.push_back(sample_of(q, static_cast<std::uint32_t>(g), train::kNoScore,
                              static_cast<std::int8_t>(result)));
    }
  }
  return out;
}

}  // namespace

TEST_CASE("the trainer recovers a known linear model from the samples it generated", "[trainer]") {
  const Variant v = Variant::English;
  const KnownModel model(eval::region_count(v));
  const std::vector<std::vector<Sample>> files = {synthetic<EnglishRules>(v, model, 40000, 1)};
  eval::PatternWeights w;
  const auto report = train::train(v, files, synthetic_options(), w);
  REQUIRE(report.ok());
  REQUIRE(report->epochs.size() == 40);
  CHECK(report->epochs.back().validation_loss < report->epochs.front().validation_loss);

  // Fresh positions from the same distribution: the trained weights score them as the known
  // model does.
  std::mt19937_64 rng(12345);
  double error = 0, spread = 0;
  const int n = 2000;
  for (int i = 0; i < n; ++i) {
    const Position p = test::random_position(v, rng, 0.18);
    const double truth = model.score<EnglishRules>(p);
    const double got = eval::PatternEvaluator<EnglishRules>::raw(p, w) / double{eval::kWeightScale};
    error += std::abs(got - truth);
    spread += std::abs(truth);
  }
  INFO("mean error " << error / n << " cp, mean |score| " << spread / n << " cp");
  CHECK(error / n < 0.1 * spread / n);
  // Kings are worth their weight through the king term, king squares and windows together: the
  // positions with kings are scored as well as the rest.
  double king_error = 0, king_spread = 0;
  for (int i = 0; i < n; ++i) {
    const Position p = test::random_position(v, rng, 0.18);
    if (!p.kings()) continue;
    const double truth = model.score<EnglishRules>(p);
    king_error += std::abs(
        eval::PatternEvaluator<EnglishRules>::raw(p, w) / double{eval::kWeightScale} - truth);
    king_spread += std::abs(truth);
  }
  CHECK(king_error < 0.1 * king_spread);
}

TEST_CASE("the trainer recovers a known model of king endings: king windows, squares and terms",
          "[trainer]") {
  const KnownKingModel model;
  std::mt19937_64 rng(2);
  std::vector<Sample> samples;
  for (int i = 0; i < 60000; ++i) {
    const Position p = random_king_ending(rng);
    const double z = model.score(p);
    samples.push_back(sample_of(p, static_cast<std::uint32_t>(i / 20),
                                static_cast<std::int16_t>(std::lround(z)), 0));
  }
  train::TrainOptions o = synthetic_options();
  o.region_kings = false;
  o.kings_only = true;
  eval::PatternWeights w;
  const auto report = train::train(Variant::English, {samples}, o, w);
  REQUIRE(report.ok());
  CHECK(report->kings_only == samples.size());
  CHECK(w.kings_only);
  double error = 0, spread = 0;
  const int n = 2000;
  for (int i = 0; i < n; ++i) {
    const Position p = random_king_ending(rng);
    const double truth = model.score(p);
    const double got = eval::PatternEvaluator<EnglishRules>::raw(p, w) / double{eval::kWeightScale};
    error += std::abs(got - truth);
    spread += std::abs(truth);
  }
  INFO("mean error " << error / n << " cp, mean |score| " << spread / n << " cp");
  CHECK(error / n < 0.1 * spread / n);
  // The endgame set carries the king ending's terms.
  CHECK(std::abs(w.linear[1][eval::kOwnTrappedKings] / double{eval::kWeightScale} + 30.0) < 6.0);
  CHECK(std::abs(w.linear[1][eval::kMove] / double{eval::kWeightScale} - 15.0) < 4.0);
}

TEST_CASE("the trainer recovers a known model of the wide windows, shared by row band",
          "[trainer]") {
  // A weight for every (row band, wide state), drawn from a hash of the two (3^12 states are too
  // many to list), the same for every window of a band: what the band tables learn and the
  // written weights must fold into each window's table.
  const Variant v = Variant::English;
  using W = eval::WideLayout<Board8>;
  auto weight = [](int band, int state) {
    std::uint64_t h = (static_cast<std::uint64_t>(band) << 32 | static_cast<std::uint32_t>(state)) *
                      0x9E3779B97F4A7C15ull;
    h ^= h >> 29;
    return static_cast<double>(h % 5001) / 100.0 - 25.0;  // -25 .. +25 centi-men
  };
  auto truth = [&](const Position& p) {
    const eval::Features f = eval::features<EnglishRules>(p);
    double z = 90.0 * f.linear[eval::kMen];
    for (int j = 0; j < f.wide; ++j)
      z += weight(j / W::kColOffsets, f.wide_state[static_cast<std::size_t>(j)]);
    return z;
  };
  std::mt19937_64 rng(3);
  std::vector<Sample> samples;
  for (int i = 0; i < 40000; ++i) {
    const Position p = test::random_position(v, rng, 0.15);
    samples.push_back(sample_of(p, static_cast<std::uint32_t>(i / 20),
                                static_cast<std::int16_t>(std::lround(truth(p))), 0));
  }
  train::TrainOptions o = synthetic_options();
  o.wide = true;
  // The per-window parts held near zero: the band tables must carry the model.
  o.l2[train::kWideGroup] = 1e-3;
  eval::PatternWeights w;
  const auto report = train::train(v, {samples}, o, w);
  REQUIRE(report.ok());
  REQUIRE(w.wide.size() == static_cast<std::size_t>(W::kWindows) * eval::kWideStates * 2);
  double error = 0, spread = 0;
  const int n = 2000;
  for (int i = 0; i < n; ++i) {
    const Position p = test::random_position(v, rng, 0.15);
    const double got = eval::PatternEvaluator<EnglishRules>::raw(p, w) / double{eval::kWeightScale};
    error += std::abs(got - truth(p));
    spread += std::abs(truth(p));
  }
  INFO("mean error " << error / n << " cp, mean |score| " << spread / n << " cp");
  CHECK(error / n < 0.15 * spread / n);
  // The file keeps them: the wide tables round trip.
  const auto back = eval::decode_weights(eval::encode_weights(w));
  REQUIRE(back.ok());
  CHECK(*back == w);
}

TEST_CASE("streaming a sample file trains the same weights as the samples in memory", "[trainer]") {
  const Variant v = Variant::English;
  const auto games = random_games(v, 80, 6);
  const std::string path = test::pattern_temp_path("stream.samples");
  REQUIRE(train::write_samples(v, path, games).ok());
  auto reader = train::SampleFileReader::open(v, path);
  REQUIRE(reader.ok());
  train::TrainOptions o;
  o.epochs = 2;
  o.batch = 128;
  o.block = 500;   // several blocks, shuffled each epoch
  o.window = 900;  // several windows
  o.threads = 2;
  o.validation = 0.2;
  eval::PatternWeights in_memory, streamed;
  const auto a = train::train(v, {games}, o, in_memory);
  const auto b = train::train(v, {{reader->get(), 1.0}}, o, streamed);
  REQUIRE(a.ok());
  REQUIRE(b.ok());
  CHECK(in_memory == streamed);
  CHECK(a->epochs.back().validation_loss == b->epochs.back().validation_loss);
  // A file damaged after it was opened is an error, not a crash.
  std::filesystem::resize_file(path, 64 + 36 * 100);
  CHECK(!train::train(v, {{reader->get(), 1.0}}, o, streamed).ok());
  std::filesystem::remove(path);
}

TEST_CASE(
    "repeated positions train once with the mean target; zero epochs from --init give it back",
    "[trainer]") {
  const Variant v = Variant::International;
  std::mt19937_64 rng(4);
  std::vector<Sample> samples;
  const Position p = test::random_position(v, rng, 0.3);
  // One position in 30 games (10 won, 20 lost), and 30 other positions once each.
  for (std::uint32_t g = 0; g < 30; ++g) {
    samples.push_back(sample_of(p, g, train::kNoScore, g < 10 ? 1 : -1));
    samples.push_back(sample_of(test::random_position(v, rng, 0.3), g, train::kNoScore, 0));
  }
  train::TrainOptions o;
  o.epochs = 0;
  o.validation = 0;
  o.region_kings = false;
  o.dedupe = true;
  eval::PatternWeights w;
  auto r = train::train(v, {samples}, o, w);
  REQUIRE(r.ok());
  CHECK(r->train_positions == 60);
  CHECK(r->distinct_positions == 31);
  o.dedupe = false;
  r = train::train(v, {samples}, o, w);
  REQUIRE(r.ok());
  CHECK(r->distinct_positions == 60);
  // Many epochs on the repeated position alone: its score goes to the mean target's (1/3 won).
  o.dedupe = true;
  o.epochs = 1000;
  o.lr = 0.1;
  o.scale = 0.01;  // one position cannot fit a scale
  std::vector<Sample> repeated;
  for (std::uint32_t g = 0; g < 30; ++g)
    repeated.push_back(sample_of(p, g, train::kNoScore, g < 10 ? 1 : -1));
  r = train::train(v, {repeated}, o, w);
  REQUIRE(r.ok());
  const double z =
      eval::PatternEvaluator<InternationalRules>::raw(p, w) / double{eval::kWeightScale};
  CHECK(std::abs(1 / (1 + std::exp(-r->scale * z)) - 1.0 / 3) < 0.02);
  // No epoch: the initial weights come back as they were.
  const eval::PatternWeights init = test::random_weights(v, 3);
  o.epochs = 0;
  o.init = &init;
  eval::PatternWeights back;
  REQUIRE(train::train(v, {samples}, o, back).ok());
  back.kings_only = init.kings_only;
  CHECK(back == init);
}

TEST_CASE("training is deterministic for a seed whatever the thread count", "[trainer]") {
  const Variant v = Variant::English;
  const std::vector<std::vector<Sample>> files = {random_games(v, 60, 3), random_games(v, 40, 4)};
  train::TrainOptions o;
  o.epochs = 2;
  o.batch = 256;
  o.validation = 0.2;
  eval::PatternWeights one, three, other_seed;
  o.threads = 1;
  const auto a = train::train(v, files, o, one);
  o.threads = 3;
  const auto b = train::train(v, files, o, three);
  REQUIRE(a.ok());
  REQUIRE(b.ok());
  CHECK(one == three);
  CHECK(a->epochs.back().validation_loss == b->epochs.back().validation_loss);
  o.seed = 2;
  REQUIRE(train::train(v, files, o, other_seed).ok());
  CHECK(!(one == other_seed));
}

TEST_CASE("the validation split holds out whole games", "[trainer]") {
  const Variant v = Variant::International;
  // Every game has exactly 10 positions: whole games in or out means multiples of 10.
  std::vector<Sample> samples;
  std::mt19937_64 rng(8);
  for (std::uint32_t g = 0; g < 200; ++g)
    for (int k = 0; k < 10; ++k)
      samples.push_back(sample_of(test::random_position(v, rng), g, train::kNoScore, 0));
  train::TrainOptions o;
  o.epochs = 0;
  o.validation = 0.3;
  eval::PatternWeights w;
  const auto r = train::train(v, {samples}, o, w);
  REQUIRE(r.ok());
  CHECK(r->validation_positions % 10 == 0);
  CHECK(r->train_positions % 10 == 0);
  CHECK(r->validation_positions > 300);
  CHECK(r->validation_positions < 900);
  CHECK(r->train_positions + r->validation_positions == samples.size());
}

TEST_CASE(
    "positions with no man are left out of training when asked: the classic evaluation "
    "scores them",
    "[trainer]") {
  const Variant v = Variant::International;
  const Position men = *notation::parse_fen(v, "W:W31,K40:B5,K12");
  const Position kings = *notation::parse_fen(v, "W:WK31,K40:BK5");
  std::vector<Sample> samples;
  for (std::uint32_t g = 0; g < 40; ++g) {
    samples.push_back(sample_of(men, g, train::kNoScore, 0));
    samples.push_back(sample_of(kings, g, train::kNoScore, 1));
  }
  train::TrainOptions o;
  o.epochs = 1;
  o.validation = 0;
  eval::PatternWeights w;
  const auto r = train::train(v, {samples}, o, w);
  REQUIRE(r.ok());
  CHECK(r->kings_only == 40);
  CHECK(r->train_positions == 40);
  // Only kings: nothing to train on.
  std::vector<Sample> only(samples.begin() + 1, samples.begin() + 2);
  CHECK(!train::train(v, {only}, o, w).ok());
  CHECK(!w.kings_only);
  // Asked for, they train, and the weights score them.
  o.kings_only = true;
  const auto all = train::train(v, {samples}, o, w);
  REQUIRE(all.ok());
  CHECK(all->train_positions == 80);
  CHECK(w.kings_only);
}

TEST_CASE("the trainer's scale: the classic evaluation's fit, a fallback where it predicts nothing",
          "[trainer]") {
  const Variant v = Variant::English;
  train::TrainOptions o;
  o.epochs = 1;
  eval::PatternWeights w;
  // Results by material at the end of random games: the classic evaluation predicts them.
  const std::vector<std::vector<Sample>> material = {random_games(v, 200, 3)};
  const auto fitted = train::train(v, material, o, w);
  REQUIRE(fitted.ok());
  CHECK_FALSE(fitted->scale_fallback);
  CHECK(fitted->scale > 2 * train::kMinScale);
  // The same games won by the side behind (as in giveaway, where the piece costs the classic
  // evaluation counts are not what wins): its fit ends at the search's low end, and training
  // takes the fallback rather than weights a hundred times too small to say anything.
  std::vector<std::vector<Sample>> reversed = material;
  for (Sample& s : reversed[0]) s.result = static_cast<std::int8_t>(-s.result);
  const auto fallback = train::train(v, reversed, o, w);
  REQUIRE(fallback.ok());
  CHECK(fallback->scale_fallback);
  CHECK(fallback->scale == train::kFallbackScale);
  CHECK(fallback->classic_scale < 2 * train::kMinScale);
  // A scale given is taken as it is.
  o.scale = 0.004;
  const auto given = train::train(v, reversed, o, w);
  REQUIRE(given.ok());
  CHECK_FALSE(given->scale_fallback);
  CHECK(given->scale == 0.004);
}

TEST_CASE("the trainer refuses bad options and no positions", "[trainer]") {
  eval::PatternWeights w;
  const std::vector<std::vector<Sample>> files = {random_games(Variant::English, 3, 1)};
  train::TrainOptions o;
  o.validation = 1.5;
  CHECK(!train::train(Variant::English, files, o, w).ok());
  const std::vector<std::vector<Sample>> none;
  CHECK(!train::train(Variant::English, none, train::TrainOptions{}, w).ok());
}

TEST_CASE("the trainer fits Turkish draughts' square-board windows", "[trainer]") {
  // Random games scored by the material at their end: the weights must learn that a man is
  // worth having, and load as Turkish weights.
  const std::vector<std::vector<Sample>> files = {random_games(Variant::Turkish, 300, 4)};
  train::TrainOptions o;
  o.epochs = 3;
  o.batch = 256;
  eval::PatternWeights w;
  const auto report = train::train(Variant::Turkish, files, o, w);
  REQUIRE(report.ok());
  CHECK(w.variant == Variant::Turkish);
  CHECK(w.regions == 21);
  CHECK(w.squares == 64);
  CHECK(w.linear[0][eval::kMen] > 0);
  CHECK(report->pattern_loss < std::log(2.0));
  const auto back = eval::decode_weights(eval::encode_weights(w));
  REQUIRE(back.ok());
  CHECK(*back == w);
}

TEST_CASE("weights trained on the classic evaluation start from nothing and correct it",
          "[trainer]") {
  const Variant v = Variant::Turkish;
  const std::vector<std::vector<Sample>> files = {random_games(v, 300, 5)};
  train::TrainOptions o;
  o.on_classic = true;
  o.validation = 0;  // both runs judged on the same positions
  o.epochs = 0;      // the starting point: no weight at all, so the classic evaluation alone
  eval::PatternWeights w;
  const auto none = train::train(v, files, o, w);
  REQUIRE(none.ok());
  CHECK(w.on_classic);
  CHECK(w == [] {
    auto z = eval::PatternWeights::zero(Variant::Turkish);
    z.on_classic = true;
    return z;
  }());
  // Trained, the correction lowers the loss of the classic evaluation it starts from (the
  // same positions, targets and scale).
  o.epochs = 3;
  o.batch = 256;
  const auto trained = train::train(v, files, o, w);
  REQUIRE(trained.ok());
  CHECK(w.on_classic);
  CHECK(trained->epochs.back().train_loss < trained->epochs.front().train_loss);
  CHECK(trained->pattern_loss < none->pattern_loss);
}

TEST_CASE("tsuru train end to end: a few games, one epoch, weights the engine plays with",
          "[trainer][cli]") {
  const Variant v = Variant::English;
  const std::string data = test::pattern_temp_path("e2e.samples");
  const std::string out = test::pattern_temp_path("e2e.weights");
  REQUIRE(train::write_samples(v, data, random_games(v, 30, 5)).ok());
  const auto run = test::run_tsuru({"train", "--variant", "english", "--data", data, "--out", out,
                                    "--epochs", "1", "--threads", "2", "--validation", "0.2"});
  INFO(run.err);
  REQUIRE(run.code == 0);
  CHECK_THAT(run.out, Catch::Contains("epoch=1 train_loss="));
  CHECK_THAT(run.out, Catch::Contains("validation loss: pattern="));
  CHECK_THAT(run.out, Catch::Contains("classic_fitted="));
  const auto w = eval::read_weights(out);
  REQUIRE(w.ok());
  CHECK(w->variant == v);
  const auto bench =
      test::run_tsuru({"bench", "--variant", "english", "--depth", "3", "--eval-file", out});
  CHECK(bench.code == 0);
  // A generation in miniature: the shipped weights play a few games, and training goes on from
  // them (--init) on those games, weighted twice the first file.
  const std::string games = test::pattern_temp_path("e2e.g2.samples");
  const std::string next = test::pattern_temp_path("e2e.g2.weights");
  const auto play = test::run_tsuru({"selfplay", "--variant", "english", "--games", "4", "--depth",
                                     "2", "--eval-file", "default", "--out", games});
  INFO(play.err);
  REQUIRE(play.code == 0);
  const auto more = test::run_tsuru({"train", "--variant", "english", "--data", data, games + ":2",
                                     "--init", "builtin", "--out", next, "--epochs", "1"});
  INFO(more.err);
  REQUIRE(more.code == 0);
  CHECK_THAT(more.err, Catch::Contains("weight 2"));
  CHECK_THAT(more.out, Catch::Contains("compare="));
  const auto g2 = eval::read_weights(next);
  REQUIRE(g2.ok());
  CHECK(!(*g2 == *eval::builtin_weights(v)));
  CHECK(test::run_tsuru({"bench", "--variant", "english", "--depth", "3", "--eval-file", next})
            .code == 0);
  CHECK(test::run_tsuru({"train", "--variant", "english", "--data", data, "--out", next,
                         "--l2-group", "kings=-1"})
            .code == 2);
  const auto scale = test::run_tsuru(
      {"train", "--variant", "english", "--data", data, "--out", next, "--scale=-0.01"});
  CHECK(scale.code == 2);
  CHECK_THAT(scale.err, Catch::Contains("bad --scale"));
  std::filesystem::remove(games);
  std::filesystem::remove(next);
  // Damaged data is refused with the file's name.
  const auto bad = test::run_tsuru(
      {"train", "--variant", "international", "--data", data, "--out", out, "--epochs", "1"});
  CHECK(bad.code != 0);
  CHECK_THAT(bad.err, Catch::Contains(data));
  std::filesystem::remove(data);
  std::filesystem::remove(out);
}
