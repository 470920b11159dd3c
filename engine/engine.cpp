#include "engine/engine.hpp"

#include <algorithm>
#include <utility>

#include <spdlog/spdlog.h>

#include "book/book.hpp"
#include "book/data_dir.hpp"
#include "engine/rules/legal.hpp"
#include "engine/search/search.hpp"
#include "engine/search/search_run.hpp"
#include "engine/search/time_manager.hpp"
#include "eval/egdb/search_probe.hpp"
#include "eval/pattern_weights.hpp"

namespace tsuru {

struct Engine::Request {
  SearchLimits limits;
  std::shared_ptr<const book::Book> book;
  std::shared_ptr<const eval::PatternWeights> evaluation;
  std::shared_ptr<const egdb::Database> egdb;
  Clock::time_point requested;
  InfoCallback on_info;
  BestMoveCallback on_best;
  Game game{Variant::International};
  EngineOptions options;
  bool ponder_hit = false;
  bool clear_tt = false;  // new_game() since the last search
};

namespace {
// The book serves the strongest play: beginner and medium are defined by their search alone.
bool uses_book(Level level) {
  return level == Level::None || level == Level::Hard;
}

// The game's phase for the clock's moves-left estimate: the pieces on the board against the
// rule set's start position.
GamePhase phase_of(const Game& game) {
  return {popcount(game.position().occupied()),
          popcount(start_position(game.variant()).occupied())};
}
}  // namespace

Engine::Engine() : tt_(10), game_(Variant::International), rng_(options_.seed) {}

Engine::~Engine() {
  stop();
  join();
}

void Engine::set_options(const EngineOptions& options) {
  std::lock_guard lock(mutex_);
  if (options.seed != options_.seed) rng_.seed(options.seed);
  options_ = options;
}

EngineOptions Engine::options() const {
  std::lock_guard lock(mutex_);
  return options_;
}

void Engine::new_game() {
  finish();
  std::lock_guard lock(mutex_);
  clear_tt_ = true;  // at the next search, on its thread: the caller may be an I/O thread
  rng_.seed(options_.seed);
}

void Engine::set_position(const Game& game) {
  finish();
  std::lock_guard lock(mutex_);
  game_ = game;
}

Game Engine::game() const {
  std::lock_guard lock(mutex_);
  return game_;
}

void Engine::go(const SearchLimits& limits, InfoCallback on_info, BestMoveCallback on_best) {
  const Clock::time_point requested = Clock::now();
  finish();
  auto request = std::make_shared<Request>();
  request->limits = limits;
  request->requested = requested;
  request->on_info = std::move(on_info);
  request->on_best = std::move(on_best);
  {
    std::lock_guard lock(mutex_);
    request->game = game_;
    request->options = options_;
    request->book = book_for(game_.variant(), options_);
    request->evaluation = evaluation_for(game_.variant(), options_);
    request->egdb = egdb_for(game_.variant(), options_);
    request->clear_tt = std::exchange(clear_tt_, false);
    control_.reset();
    control_.set_pondering(limits.ponder);
    current_ = request;
    searching_ = true;
  }
  worker_ = std::thread([this, request] { run(request); });
}

void Engine::run(std::shared_ptr<Request> request) {
  const Game& game = request->game;
  const EngineOptions& options = request->options;
  // The table is sized and cleared here, on the search thread, never on the caller's: zeroing a
  // large table takes a tenth of a second, which a DXP or Hub I/O thread must not wait for. Only
  // this thread touches tt_ (go() joins the previous search before starting this one).
  if (tt_log2_applied_ != options.tt_log2) {
    tt_.resize(options.tt_log2);
    tt_log2_applied_ = options.tt_log2;
  } else if (request->clear_tt) {
    tt_.clear();
  }
  const MoveList moves = game.legal_moves();
  const bool play = !request->limits.analyze && !request->limits.ponder;
  BestMove best;
  bool decided = false;

  if (moves.empty()) {
    decided = true;  // no legal move: best.has_move stays false
  } else if (play && moves.size() == 1) {
    best.has_move = true;
    best.move = moves[0];
    decided = true;
  } else if (play && request->book && uses_book(options.level)) {
    decided = book_move(game, options, *request->book, request->on_info, best);
  }
  if (!decided && play && request->egdb && options.level != Level::Beginner) {
    // A won ending the databases cover with distances is played out by them: the fastest win.
    const auto m = with_rules(game.variant(), [&]<class R>(R) {
      return egdb::fastest_win<R>(*request->egdb, game, moves);
    });
    if (m) {
      best.has_move = true;
      best.move = *m;
      decided = true;
      const auto p = request->egdb->probe(game.position());
      const Score score = egdb::database_win(0, p ? p->distance : -1);
      if (request->on_info) {
        SearchInfo info;
        info.depth = 1;
        info.score = score;
        info.pv = {*m};
        info.from_database = true;
        request->on_info(info);
      }
      std::lock_guard lock(mutex_);
      last_score_ = score;
    }
  }
  if (!decided && play && options.level == Level::Beginner) {
    std::lock_guard lock(mutex_);
    if (std::uniform_real_distribution<double>(0.0, 1.0)(rng_) < kBeginnerRandomShare) {
      best.has_move = true;
      best.move = moves[std::uniform_int_distribution<std::size_t>(0, moves.size() - 1)(rng_)];
      decided = true;
    }
  }

  if (!decided) {
    SearchLimits limits = request->limits;
    if (!limits.analyze) limits = apply_level(options.level, game.variant(), limits);
    if (!limits.ponder) {
      const TimePlan plan = plan_time(limits, phase_of(game));
      control_.start(request->requested, plan.soft, plan.hard, plan.optimum);
    }
    control_.set_evaluation(request->evaluation.get());
    // An info line says when its score comes from the databases: a database win or loss (at the
    // root or a leaf), or any score of a root the databases cover.
    InfoCallback on_info = request->on_info;
    if (on_info && request->egdb) {
      const bool root_covered =
          !moves[0].is_capture() && request->egdb->probe_quiet(game.position());
      on_info = [inner = request->on_info, root_covered](const SearchInfo& i) {
        SearchInfo marked = i;
        marked.from_database = root_covered || egdb::is_database_score(i.score);
        inner(marked);
      };
    }
    const SearchResult result = with_rules(game.variant(), [&]<class R>(R) {
      return run_search<R>(tt_, control_, game, moves, limits.depth, limits.nodes,
                           std::max(options.threads, 1), std::max(options.multi_pv, 1), on_info,
                           request->egdb.get());
    });
    best = result.best;
    std::lock_guard lock(mutex_);
    last_score_ = result.score;
    last_search_ = {result.score, result.depth, result.nodes, result.thread_nodes};
  } else {
    std::lock_guard lock(mutex_);
    last_search_ = {};
  }

  // A ponder search that ends early waits for ponder-hit or stop before answering.
  {
    std::unique_lock lock(mutex_);
    ponder_cv_.wait(lock, [&] { return !control_.pondering() || control_.stop_requested(); });
  }
  if (request->on_best) request->on_best(best);
  std::lock_guard lock(mutex_);
  searching_ = false;
}

void Engine::stop() {
  std::lock_guard lock(mutex_);
  control_.request_stop();
  ponder_cv_.notify_all();
}

void Engine::ponder_hit() {
  std::lock_guard lock(mutex_);
  if (!current_ || !control_.pondering()) return;
  SearchLimits limits = current_->limits;
  limits.ponder = false;
  limits = apply_level(current_->options.level, current_->game.variant(), limits);
  const TimePlan plan = plan_time(limits, phase_of(current_->game));
  control_.start(Clock::now(), plan.soft, plan.hard, plan.optimum);
  control_.set_pondering(false);
  ponder_cv_.notify_all();
}

void Engine::join() {
  if (worker_.joinable()) worker_.join();
}

void Engine::finish() {
  stop();
  join();
}

void Engine::wait() {
  join();
}

bool Engine::searching() const {
  std::lock_guard lock(mutex_);
  return searching_;
}

BestMove Engine::think(const SearchLimits& limits, InfoCallback on_info) {
  BestMove result;
  go(limits, std::move(on_info), [&](const BestMove& b) { result = b; });
  join();
  return result;
}

Score Engine::last_score() const {
  std::lock_guard lock(mutex_);
  return last_score_;
}

std::shared_ptr<const eval::PatternWeights> Engine::evaluation_for(Variant v,
                                                                   const EngineOptions& options) {
  const std::string key = std::string(info(v).name) + "|" + options.eval_file;
  if (key == evaluation_key_) return evaluation_;
  const bool had_one = !evaluation_key_.empty() && evaluation_variant_ == v;
  evaluation_key_ = key;
  evaluation_variant_ = v;
  auto loaded = eval::load_evaluation(v, data::weights_file(options.eval_file));
  if (loaded) {
    evaluation_ = *loaded;
    return evaluation_;
  }
  spdlog::error("eval-file: {}; keeping the current evaluation", loaded.error());
  if (!had_one) {
    const auto fallback = eval::load_evaluation(v, EngineOptions{}.eval_file);
    evaluation_ = fallback ? *fallback : nullptr;
  }
  return evaluation_;
}

SearchSummary Engine::last_search() const {
  std::lock_guard lock(mutex_);
  return last_search_;
}

std::shared_ptr<const book::Book> Engine::book_for(Variant v, const EngineOptions& options) {
  if (!options.book) return nullptr;
  const std::string key = std::string(info(v).name) + "|" + options.book_file;
  if (key == book_key_) return book_;
  book_key_ = key;
  book_.reset();
  std::string path = options.book_file;
  if (path.empty()) {
    const auto found = book::default_book_path(v);
    if (!found) return nullptr;
    path = *found;
  }
  auto loaded = book::Book::load(v, path);
  if (!loaded) {
    spdlog::error("opening book not used: {}", loaded.error());
    return nullptr;
  }
  book_ = std::make_shared<const book::Book>(std::move(loaded.value()));
  spdlog::info("opening book {}: {} positions", path, book_->positions());
  return book_;
}

std::string Engine::egdb_directory(const EngineOptions& options) {
  if (options.egdb_dir != "default") return options.egdb_dir;
  return data::find_folder("egdb").value_or(std::string());
}

std::shared_ptr<const egdb::Database> Engine::databases(Variant v) {
  std::lock_guard lock(mutex_);
  return egdb_for(v, options_);
}

std::shared_ptr<const egdb::Database> Engine::egdb_for(Variant v, const EngineOptions& options) {
  const bool by_default = options.egdb_dir == "default";
  const std::string dir = egdb_directory(options);
  if (dir.empty()) return nullptr;
  const std::string key = std::string(info(v).name) + "|" + dir;
  if (key == egdb_key_) return egdb_;
  egdb_key_ = key;
  egdb_.reset();
  if (egdb::unsupported(v)) return nullptr;  // no databases for this rule set: nothing to say
  // The blocks are decoded when probed, not all at once (checksums checked all the same).
  auto loaded = egdb::Database::open(v, dir, egdb::Database::kDefaultCache, false);
  if (!loaded) {
    spdlog::error("endgame databases not used: {}", loaded.error());
    return nullptr;
  }
  for (const std::string& problem : (*loaded)->problems())
    spdlog::error("endgame database file not used: {}", problem);
  if ((*loaded)->probe_limit() == 0) {
    // The data directory need not hold every rule set's databases: no warning for it.
    if (!by_default) spdlog::warn("no complete endgame databases for {} in {}", info(v).name, dir);
    return nullptr;
  }
  spdlog::info("endgame databases {}: {} pieces ({} files, {} bytes)", dir, (*loaded)->pieces(),
               (*loaded)->slices().size(), (*loaded)->bytes());
  egdb_ = *loaded;
  return egdb_;
}

// Plays a book move at once (reported as an info line marked from_book) when the position is
// in the book and the game is still within book_ply.
bool Engine::book_move(const Game& game, const EngineOptions& options, const book::Book& book,
                       const InfoCallback& on_info, BestMove& best) {
  if (static_cast<int>(game.moves().size()) >= options.book_ply) return false;
  std::optional<book::BookMove> choice;
  {
    std::lock_guard lock(mutex_);
    choice = book.choose(game.position(), options.book_margin, rng_);
  }
  if (!choice) return false;
  if (on_info) {
    SearchInfo info;
    info.depth = choice->depth;
    info.score = choice->score;
    info.pv = {choice->move};
    info.from_book = true;
    on_info(info);
  }
  best.has_move = true;
  best.move = choice->move;
  return true;
}

Score Engine::assess() {
  SearchLimits limits;
  limits.analyze = true;
  limits.depth = 8;
  limits.move_time = 0.3;
  think(limits);
  return last_score();
}

std::optional<DatabaseVerdict> Engine::database_verdict(const Game& game) {
  std::shared_ptr<const egdb::Database> db;
  {
    std::lock_guard lock(mutex_);
    db = egdb_for(game.variant(), options_);
  }
  if (!db) return std::nullopt;
  const auto v =
      with_rules(game.variant(), [&]<class R>(R) { return egdb::verdict<R>(*db, game); });
  if (!v) return std::nullopt;
  return *v == egdb::Wdl::Win    ? DatabaseVerdict::Win
         : *v == egdb::Wdl::Draw ? DatabaseVerdict::Draw
                                 : DatabaseVerdict::Loss;
}

bool Engine::resigns(const Game& game) {
  return options().egdb_resign && database_verdict(game) == DatabaseVerdict::Loss;
}

bool Engine::accepts_draw() {
  const Game g = game();
  if (g.legal_moves().empty()) return false;
  if (options().egdb_draws)
    if (const auto v = database_verdict(g)) return *v != DatabaseVerdict::Win;
  return assess() <= 15;  // dead level (within 0.15 men) or worse
}

bool Engine::offers_draw() {
  const Game g = game();
  if (g.legal_moves().empty()) return false;
  if (options().egdb_draws)
    if (const auto v = database_verdict(g)) return *v != DatabaseVerdict::Win;
  const Score s = assess();
  // Not before the game has taken shape, unless the position is already bare.
  const Position& p = g.position();
  const bool simplified = p.kings() != 0 || popcount(p.occupied()) <= 12 || g.moves().size() >= 60;
  return s <= 0 && (simplified || s <= -150);
}

}  // namespace tsuru
