// The engine facade: everything a front end (Hub, DXP, console, match runner) needs, and no
// protocol. Searches run on the engine's own thread; results come back through callbacks on
// that thread: zero or more info reports, then exactly one best move per go(). Callbacks must
// not call back into the engine's blocking methods (go, set_position, new_game, wait).
#pragma once

#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <string>
#include <thread>

#include "engine/level.hpp"
#include "engine/rules/game.hpp"
#include "engine/search/limits.hpp"
#include "engine/search/search_control.hpp"
#include "engine/search/tt.hpp"

namespace tsuru::book {
class Book;
}
namespace tsuru::eval {
struct PatternWeights;
}
namespace tsuru::egdb {
class Database;
}

namespace tsuru {

struct EngineOptions {
  int tt_log2 = 22;           // transposition table entries, log2 (16 bytes each)
  Level level = Level::None;  // preset limits for play (see level.hpp)
  bool book = true;           // play opening-book moves when one is known
  int book_ply = 40;          // ... only up to this game ply
  int book_margin = 0;        // centi-men: choose among book moves this close to the best
  std::string book_file;      // empty = the rule set's default book (book/book.hpp)
  std::uint64_t seed = 1;     // random choices (beginner level, book variety)
  int threads = 1;            // searchers (lazy SMP over the shared table); 1 = deterministic
  int multi_pv = 1;           // root moves reported per iteration, each with score and PV
  // The evaluation (eval/pattern_weights.hpp load_evaluation): "default" = the rule set's default
  // (its trained weights where they won their match, else classic); empty = the classic
  // hand-set one; "builtin" = the trained weights compiled in for the rule set (classic where
  // none ship); else a weights file.
  std::string eval_file = "default";
  // Endgame databases (docs/egdb.md): "default" = the egdb/ folder of the data directory
  // (book/data_dir.hpp), empty = none, else a directory.
  std::string egdb_dir = "default";
  // At the root, in a position the databases decide (Engine::database_verdict): accept and
  // offer draws by their value (accept unless won, offer when drawn or lost), and resign when
  // lost (Engine::resigns). Off: draw offers are judged by a short search, and the engine
  // plays on.
  bool egdb_draws = true;
  bool egdb_resign = true;
};

// What the endgame databases say of a position for the side to move.
enum class DatabaseVerdict { Win, Draw, Loss };

class Engine {
 public:
  using InfoCallback = std::function<void(const SearchInfo&)>;
  using BestMoveCallback = std::function<void(const BestMove&)>;

  Engine();
  ~Engine();
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  // Applied at the next go(); a new table size reallocates (and clears) the table then.
  void set_options(const EngineOptions& options);
  EngineOptions options() const;

  // Forgets everything learnt in the previous game (hash table, random state).
  void new_game();
  // The position to search: the game's current position, with its history for repetitions
  // and move-count draws. Stops a running search.
  void set_position(const Game& game);
  Game game() const;

  // Starts a search and returns at once (a search still running is stopped first: it delivers
  // its best move before the new one starts). on_best is called exactly once per go().
  void go(const SearchLimits& limits, InfoCallback on_info, BestMoveCallback on_best);
  void stop();
  void ponder_hit();
  // Blocks until the running search (if any) has delivered its best move.
  void wait();
  bool searching() const;

  // Synchronous convenience for tools and tests: go() then wait().
  BestMove think(const SearchLimits& limits, InfoCallback on_info = {});
  // The last completed search's score and depth (side to move's view).
  Score last_score() const;
  // The last search's score, depth and nodes, per searcher too (empty when no search ran:
  // a book move, a single legal move).
  SearchSummary last_search() const;

  // Draw offers, judged by a short search of the current position (the engine to move):
  // accept when it is dead level or worse; offer when a draw is the best it can hope for.
  bool accepts_draw();
  bool offers_draw();
  // Whether the engine, to move in `game`, resigns: the databases say it is lost (and
  // options().egdb_resign).
  bool resigns(const Game& game);
  // What the databases say of game's position for the side to move (the move-count draw rules
  // applied as the search applies them, eval/egdb/search_probe.hpp verdict); nullopt when they
  // do not cover it or there are none.
  std::optional<DatabaseVerdict> database_verdict(const Game& game);

  // The directory options.egdb_dir stands for: "default" resolved in the data directory
  // (empty when it has no egdb/ folder), otherwise itself.
  static std::string egdb_directory(const EngineOptions& options);
  // The databases the next search of rule set v will use under the current options (mapped now
  // if they are not yet): null when there are none.
  std::shared_ptr<const egdb::Database> databases(Variant v);

 private:
  struct Request;
  void run(std::shared_ptr<Request> request);
  void join();
  void finish();  // stop the running search, if any, and wait for it
  Score assess();
  // The book for the game's rule set under the current options, loaded on first use; null when
  // there is none or it cannot be read (the reason is logged).
  std::shared_ptr<const book::Book> book_for(Variant v, const EngineOptions& options);
  // The evaluation for the game's rule set under the current options, loaded on first use. A
  // file that cannot be used is logged and the engine keeps the evaluation it had (for another
  // rule set: the built-in default).
  std::shared_ptr<const eval::PatternWeights> evaluation_for(Variant v,
                                                             const EngineOptions& options);
  bool book_move(const Game& game, const EngineOptions& options, const book::Book& book,
                 const InfoCallback& on_info, BestMove& best);
  // The endgame databases of the rule set in options.egdb_dir, mapped on first use; null when
  // none are set or the directory cannot be used (the reason is logged).
  std::shared_ptr<const egdb::Database> egdb_for(Variant v, const EngineOptions& options);

  mutable std::mutex mutex_;
  std::condition_variable ponder_cv_;
  EngineOptions options_;
  int tt_log2_applied_ = 0;  // search thread only, like tt_
  bool clear_tt_ = false;    // new_game() asked for a clear table
  TranspositionTable tt_;
  SearchControl control_;
  Game game_;
  std::mt19937_64 rng_;
  std::thread worker_;
  std::shared_ptr<Request> current_;
  bool searching_ = false;
  Score last_score_ = 0;
  SearchSummary last_search_;
  std::shared_ptr<const book::Book> book_;
  std::string book_key_;  // rule set + file the loaded book is for
  std::shared_ptr<const eval::PatternWeights> evaluation_;
  std::string evaluation_key_;  // rule set + eval file the evaluation is for
  Variant evaluation_variant_ = Variant::International;
  std::shared_ptr<const egdb::Database> egdb_;
  std::string egdb_key_;  // rule set + directory the databases are for
};

}  // namespace tsuru
