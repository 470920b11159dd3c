#include "tools/train/selfplay.hpp"

#include <algorithm>
#include <cassert>
#include <mutex>
#include <optional>
#include <random>
#include <string>
#include <thread>

#include "engine/search/search.hpp"
#include "engine/search/search_run.hpp"
#include "tools/train/splitmix.hpp"

namespace tsuru::train {
namespace {

std::uint64_t game_seed(std::uint64_t seed, std::uint32_t game) {
  return splitmix(splitmix(seed) ^ game);
}

SearchResult search(const SelfplayOptions& o, TranspositionTable& tt, const Game& game,
                    const MoveList& moves) {
  SearchControl control;  // no clock: only the node or depth limit ends a search
  control.reset();
  control.set_evaluation(o.evaluation.get());
  return with_rules(o.variant, [&]<class R>(R) {
    return run_search<R>(tt, control, game, moves, o.depth, o.nodes, 1, 1, {}, o.egdb.get());
  });
}

std::int8_t result_for(Outcome outcome, Side turn) {
  if (outcome == Outcome::Draw || outcome == Outcome::Ongoing) return 0;
  const bool white_won = outcome == Outcome::WhiteWins;
  return (turn == Side::White) == white_won ? 1 : -1;
}

}  // namespace

Expected<bool> check_options(const SelfplayOptions& o) {
  using E = Expected<bool>;
  if (o.nodes == 0 && o.depth <= 0) return E::failure("a node or depth limit per move is needed");
  if (o.depth < 0 || o.depth > kMaxPly - 8)
    return E::failure("the depth must be between 1 and " + std::to_string(kMaxPly - 8));
  if (o.games == 0) return E::failure("the number of games must be at least 1");
  if (o.shards < 1 || o.shard < 0 || o.shard >= o.shards)
    return E::failure("the shard must be I/N with 0 <= I < N");
  if (o.threads < 1 || o.threads > 256) return E::failure("threads must be between 1 and 256");
  if (o.random_plies < 0 || o.random_margin < 0)
    return E::failure("random plies and margin cannot be negative");
  if (o.tt_log2 < 10 || o.tt_log2 > 30) return E::failure("the table size must be 10..30 (log2)");
  if (o.max_plies < 1) return E::failure("the ply limit must be positive");
  // The shard's first game stands for the others (play_game asserts each one's rule set).
  if (o.opening) {
    const Game g = o.opening(static_cast<std::uint32_t>(o.shard));
    if (g.variant() != o.variant) return E::failure("an opening is of another rule set");
    if (g.result().outcome != Outcome::Ongoing) return E::failure("an opening ends the game");
  }
  return true;
}

std::vector<std::uint32_t> shard_games(std::uint32_t games, int shard, int shards) {
  std::vector<std::uint32_t> out;
  if (shards < 1 || shard < 0 || shard >= shards) return out;
  for (std::uint64_t g = static_cast<std::uint64_t>(shard); g < games;
       g += static_cast<std::uint64_t>(shards))
    out.push_back(static_cast<std::uint32_t>(g));
  return out;
}

PlayedGame play_game(const SelfplayOptions& o, std::uint32_t index, TranspositionTable& tt) {
  if (tt.log2_entries() != o.tt_log2)
    tt.resize(o.tt_log2);
  else
    tt.clear();
  std::mt19937_64 rng(game_seed(o.seed, index));
  PlayedGame out{o.opening ? o.opening(index) : Game(o.variant), {}, {}};
  assert(out.game.variant() == o.variant);  // check_options checked the function
  Game& game = out.game;
  const std::size_t opening_plies = game.moves().size();
  while (game.result().outcome == Outcome::Ongoing &&
         static_cast<int>(game.moves().size()) < o.max_plies) {
    const MoveList moves = game.legal_moves();
    const Position& pos = game.position();
    Move chosen = moves[0];
    std::int16_t score = kNoScore;
    if (moves.size() > 1) {
      const SearchResult best = search(o, tt, game, moves);
      chosen = best.best.move;
      if (best.depth > 0) score = static_cast<std::int16_t>(std::clamp(best.score, -kWin, kWin));
      const std::size_t played = game.moves().size() - opening_plies;
      if (played < static_cast<std::size_t>(o.random_plies) && best.depth > 0 &&
          !is_win_score(best.score)) {
        // The best of the other moves, searched with the same limit: a near-equal one is
        // played half the time.
        MoveList others;
        for (const Move& m : moves)
          if (!(m == chosen)) others.push(m);
        const SearchResult second = search(o, tt, game, others);
        if (second.depth > 0 && second.score >= best.score - o.random_margin && (rng() & 1))
          chosen = second.best.move;
      }
    }
    // Captures are compulsory: the list holds captures only, or none.
    if (!moves[0].is_capture()) {
      Sample s;
      s.white = pos.pieces(Side::White);
      s.black = pos.pieces(Side::Black);
      s.kings = pos.kings();
      s.game = index;
      s.ply = static_cast<std::uint16_t>(std::min<std::size_t>(game.moves().size(), 65535));
      s.score = score;
      s.turn = pos.turn();
      out.samples.push_back(s);
    }
    [[maybe_unused]] const bool legal = game.play(chosen);
    assert(legal);  // chosen from the legal moves
  }
  GameResult result = game.result();
  out.summary.index = index;
  out.summary.plies = static_cast<int>(game.moves().size());
  if (result.outcome == Outcome::Ongoing) {
    result.outcome = Outcome::Draw;
    out.summary.adjudicated = true;
  }
  out.summary.outcome = result.outcome;
  out.summary.reason = result.reason;
  for (Sample& s : out.samples) s.result = result_for(result.outcome, s.turn);
  out.summary.samples = out.samples.size();
  return out;
}

SelfplayRun play_games(const SelfplayOptions& o,
                       const std::function<void(const SelfplayProgress&)>& progress,
                       const std::atomic<bool>* stop,
                       const std::function<bool(const PlayedGame&)>& on_game) {
  std::vector<std::uint32_t> indices = shard_games(o.games, o.shard, o.shards);
  if (o.skip) std::erase_if(indices, o.skip);
  // What each game leaves: its summary and samples (not its record, which a long run could not
  // hold); a game not finished (the run was stopped) has none.
  std::vector<std::optional<GameSummary>> summaries(indices.size());
  std::vector<std::vector<Sample>> samples(indices.size());
  std::atomic<std::size_t> next{0};
  std::mutex mutex;
  SelfplayProgress status;
  status.games_total = indices.size();
  bool stopped = false;
  std::atomic<bool> refused{false};  // on_game returned false

  auto worker = [&] {
    TranspositionTable tt(o.tt_log2);
    while (true) {
      if ((stop && stop->load()) || refused.load()) {
        std::lock_guard lock(mutex);
        stopped = stopped || next.load() < indices.size();
        return;
      }
      const std::size_t i = next.fetch_add(1);
      if (i >= indices.size()) return;
      PlayedGame g = play_game(o, indices[i], tt);
      std::lock_guard lock(mutex);
      if (on_game && !on_game(g)) refused.store(true);
      status.samples += g.samples.size();
      ++status.games_done;
      summaries[i] = g.summary;
      samples[i] = std::move(g.samples);
      if (progress) progress(status);
    }
  };
  const int threads = static_cast<int>(std::min<std::size_t>(
      static_cast<std::size_t>(o.threads), std::max<std::size_t>(indices.size(), 1)));
  std::vector<std::thread> pool;
  for (int t = 1; t < threads; ++t) pool.emplace_back(worker);
  worker();
  for (std::thread& t : pool) t.join();

  SelfplayRun run;
  run.stopped = stopped;
  run.samples.reserve(status.samples);
  for (std::size_t i = 0; i < indices.size(); ++i) {
    if (!summaries[i]) continue;
    run.games.push_back(*summaries[i]);
    run.samples.insert(run.samples.end(), samples[i].begin(), samples[i].end());
    std::vector<Sample>().swap(samples[i]);  // hand the memory back as we go
  }
  return run;
}

SampleStats sample_stats(const std::vector<Sample>& samples) {
  SampleStats st;
  for (std::size_t i = 0; i < samples.size(); ++i) {
    const Sample& s = samples[i];
    if (i > 0 && samples[i - 1].game == s.game) continue;
    ++st.games;
    if (s.result == 0)
      ++st.draws;
    else if ((s.result > 0) == (s.turn == Side::White))
      ++st.white_wins;
    else
      ++st.black_wins;
  }
  return st;
}

Expected<std::vector<Sample>> merge_runs(std::vector<std::vector<Sample>> parts) {
  using E = Expected<std::vector<Sample>>;
  // Each part is in game order (a run writes it so); a game must come from one part only.
  std::vector<std::pair<std::uint32_t, std::size_t>> owner;  // (game, part), one per game
  std::size_t total = 0;
  for (std::size_t p = 0; p < parts.size(); ++p) {
    total += parts[p].size();
    for (std::size_t i = 0; i < parts[p].size(); ++i)
      if (i == 0 || parts[p][i].game != parts[p][i - 1].game)
        owner.emplace_back(parts[p][i].game, p);
  }
  std::sort(owner.begin(), owner.end());
  for (std::size_t i = 1; i < owner.size(); ++i)
    if (owner[i].first == owner[i - 1].first)
      return E::failure("game " + std::to_string(owner[i].first) +
                        (owner[i].second == owner[i - 1].second
                             ? " appears twice in input " + std::to_string(owner[i].second + 1)
                             : " is in inputs " + std::to_string(owner[i - 1].second + 1) +
                                   " and " + std::to_string(owner[i].second + 1)) +
                        " (the same shard given twice?)");
  std::vector<Sample> all;
  all.reserve(total);
  for (auto& part : parts) {
    all.insert(all.end(), part.begin(), part.end());
    std::vector<Sample>().swap(part);
  }
  std::stable_sort(all.begin(), all.end(), [](const Sample& a, const Sample& b) {
    return a.game != b.game ? a.game < b.game : a.ply < b.ply;
  });
  return all;
}

}  // namespace tsuru::train
