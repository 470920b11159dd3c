// The endgame database generator: retrograde analysis by forward iteration to a fixpoint, one
// build unit (plan.hpp) at a time, under rule set R's own move generation.
//
// Pass 0 marks invalid indices and the positions where the side to move has no move (lost, or
// won where R::kNoMoveWins). Pass k (k = 1, 2, ...) then looks at every position still unknown:
// it is won in d plies when some move leads to a position lost in d - 1 <= k - 1 plies (d the
// least such), lost in d plies when every move leads to a position won in at most k - 1 plies
// (d - 1 the largest). A position first resolved in pass k is therefore exactly k plies from
// the end with best play (the winner shortest, the loser longest), provided the smaller slices
// it reaches carry exact distances too. Captures and crownings leave the unit: their values
// come from the slices built before (the files in the directory). When a pass resolves
// nothing and no smaller slice holds a distance the next pass could use, every position still
// unknown is a draw: it has a move to an unknown (drawn) position and none to a lost one.
//
// The passes read the values of earlier passes only (the updates of a pass are applied after
// it), so the result does not depend on the number of threads: files are byte-identical for any
// --threads and for any build order that respects the plan.
//
// Moves are generated forward (MoveGen<R>), so every rule set the move generator knows is
// solved by the same code; the price is a move generation per unknown position per pass,
// where un-move generation with counters would visit each position a bounded number of times.
#pragma once

#include <bit>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "engine/rules/movegen.hpp"
#include "engine/rules/movegen_lines.hpp"
#include "eval/egdb/database.hpp"
#include "eval/egdb/format.hpp"
#include "eval/egdb/plan.hpp"

namespace tsuru::egdb {

struct BuildOptions {
  std::string dir = ".";
  int threads = 1;
  // Distances are stored for slices of at most this many pieces (0: none).
  int distance_pieces = 4;
  bool progress = true;  // a progress line on stderr
  // Every pass looks at every unknown position instead of the un-moved candidates only (the
  // same files, slower: the tests compare the two).
  bool full_passes = false;
};

struct SliceReport {
  Slice slice;
  SliceCounts counts;
  bool existed = false;   // a valid file was there already; nothing was built
  bool distance = false;  // the file stores distances
  std::uint64_t file_bytes = 0;
  double seconds = 0;  // the unit's build time (both slices)
  int passes = 0;
};

template <class R>
class Generator {
 public:
  // v: the rule set R plays (its name goes into the files).
  Generator(Variant v, BuildOptions options)
      : options_(std::move(options)),
        layout_(Layout::of<typename R::Geometry>()),
        rules_(info(v).name) {}

  // Builds a unit's slices unless valid files for both exist already. Needs the files of the
  // units before it in the plan; throws std::runtime_error with the reason otherwise.
  std::vector<SliceReport> build(const Unit& unit) {
    const Slice slices[2] = {unit.first, unit.second};
    const int count = unit.symmetric() ? 1 : 2;
    std::vector<SliceReport> reports;
    bool all_exist = true;
    for (int i = 0; i < count; ++i) {
      SliceReport r;
      r.slice = slices[i];
      const auto existing = read_existing(slices[i]);
      if (existing) {
        r.existed = true;
        r.counts = existing->counts;
        r.distance = existing->distance;
        r.file_bytes = existing->bytes;
      } else {
        all_exist = false;
      }
      reports.push_back(r);
    }
    if (all_exist) return reports;

    const auto start = std::chrono::steady_clock::now();
    exact_ = true;
    max_dependency_distance_ = 0;
    for (int i = 0; i < count; ++i) {
      current_[i] = slices[i];
      values_[i].assign(slice_size(layout_, slices[i]), kUnknown);
    }
    current_count_ = count;
    int passes = 0;
    for (int k = 0;; ++k) {
      const std::uint64_t changed = run_pass(k);
      passes = k + 1;
      if (k > 0 && changed == 0 && k > max_dependency_distance_ + 1) break;
      if (k >= static_cast<int>(kDistanceMask) - 1)
        throw std::runtime_error("slice " + slices[0].name() + ": distances beyond the format");
    }
    if (options_.progress) std::fputc('\n', stderr);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const bool with_distance = unit.pieces() <= options_.distance_pieces && exact_;
    for (int i = 0; i < count; ++i) {
      const std::vector<std::uint8_t> bytes =
          encode_slice(rules_, slices[i], values_[i], with_distance);
      write_atomically(path_of(slices[i]), bytes);
      SliceReport& r = reports[static_cast<std::size_t>(i)];
      r.existed = false;
      r.counts = count_values(values_[i]);
      r.distance = with_distance;
      r.file_bytes = bytes.size();
      r.seconds = seconds;
      r.passes = passes;
      // The unit's own values serve the units after it without reading the file again.
      cache_[slices[i].code()] =
          Dependency{std::move(values_[i]), with_distance, r.counts.max_distance};
    }
    trim_cache(unit.pieces());
    return reports;
  }

  std::string path_of(const Slice& s) const {
    return (std::filesystem::path(options_.dir) / file_name(rules_, s)).string();
  }

 private:
  struct Dependency {
    std::vector<Value> values;
    bool exact = false;
    std::uint32_t max_distance = 0;
  };
  struct Existing {
    SliceCounts counts;
    bool distance = false;
    std::uint64_t bytes = 0;
  };

  std::optional<Existing> read_existing(const Slice& s) const {
    const std::string path = path_of(s);
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec)) return std::nullopt;
    auto file = MappedFile::open(path);
    if (!file) return std::nullopt;
    auto view = SliceView::parse(file->data(), file->size(), rules_, s, slice_size(layout_, s));
    if (!view) {
      std::fprintf(stderr, "egdb: rebuilding %s: %s\n", path.c_str(), view.error().c_str());
      return std::nullopt;
    }
    return Existing{view->counts(), view->has_distance(), file->size()};
  }

  const Dependency& dependency(const Slice& s) {
    const auto it = cache_.find(s.code());
    if (it != cache_.end()) return it->second;
    const std::string path = path_of(s);
    auto file = MappedFile::open(path);
    if (!file)
      throw std::runtime_error("slice " + s.name() + " is needed first (" + file.error() +
                               "): build the plan in order");
    auto view = SliceView::parse(file->data(), file->size(), rules_, s, slice_size(layout_, s));
    if (!view) throw std::runtime_error(path + ": " + view.error());
    Dependency d{view->decode_all(), view->has_distance(), view->counts().max_distance};
    return cache_.emplace(s.code(), std::move(d)).first->second;
  }

  // Forget the slices the next units cannot reach (those of fewer pieces than pieces - 3 would
  // need a capture of four pieces; kept anyway below 64 MiB).
  void trim_cache(int pieces) {
    std::size_t bytes = 0;
    for (const auto& [code, d] : cache_) bytes += d.values.size() * sizeof(Value);
    if (bytes < (std::size_t{64} << 20)) return;
    for (auto it = cache_.begin(); it != cache_.end();) {
      const int n =
          (it->first >> 12) + ((it->first >> 8) & 15) + ((it->first >> 4) & 15) + (it->first & 15);
      it = n < pieces - 1 ? cache_.erase(it) : std::next(it);
    }
  }

  static constexpr Value no_move_value() { return R::kNoMoveWins ? kWinFlag : kLossFlag; }

  // The value of a child position (the opponent to move), from its side to move's view.
  // in_unit: the child is in the unit being built (its value may still change).
  Value child_value(const Position& child, bool& in_unit) {
    if (child.pieces(child.turn()) == 0) return no_move_value();
    const auto loc = locate(layout_, child);
    if (!loc) throw std::runtime_error("a move led to a position the index cannot hold");
    for (int i = 0; i < current_count_; ++i)
      if (loc->slice == current_[i]) {
        in_unit = true;
        return values_[i][loc->index];
      }
    return lookup(loc->slice)[loc->index];
  }

  // Dependencies are loaded before the threads start (see run_pass), so this only reads.
  const std::vector<Value>& lookup(const Slice& s) {
    const auto it = cache_.find(s.code());
    if (it == cache_.end()) throw std::runtime_error("dependency not loaded: " + s.name());
    return it->second.values;
  }

  // Loads every slice the moves of a slice can reach: fewer pieces, or one man crowned.
  void load_dependencies() {
    for (int i = 0; i < current_count_; ++i) {
      const Slice s = current_[i];
      for (const Slice& t : plan_slices_below(s)) {
        const Dependency& d = dependency(t);
        exact_ = exact_ && d.exact;
        max_dependency_distance_ =
            std::max(max_dependency_distance_, static_cast<int>(d.max_distance));
      }
    }
  }

  // The slices (White to move) a move from a position of s can lead to, other than s's unit:
  // the mover keeps its pieces (a man may be crowned), the opponent loses some; seen from the
  // opponent, who is then to move.
  std::vector<Slice> plan_slices_below(const Slice& s) const {
    std::vector<Slice> out;
    for (int crowned = 0; crowned <= std::min(1, s.wm); ++crowned)
      for (int bm = 0; bm <= s.bm; ++bm)
        for (int bk = 0; bk <= s.bk; ++bk) {
          const Slice after{s.wm - crowned, s.wk + crowned, bm, bk};
          if (after.bm + after.bk == 0) continue;
          if (after == s) continue;
          out.push_back(after.mirrored());
        }
    return out;
  }

  // Whether pass k looks at the unknown position idx of current slice i: pass 1 looks at all;
  // later passes at the predecessors of the positions the previous pass resolved (marked) and
  // at positions whose smaller-slice children become usable now (wake).
  bool due(int i, std::uint64_t idx, int k) const {
    if (k <= 1 || options_.full_passes) return true;
    return marked_[i][idx] || wake_[i][idx] == k;
  }

  std::uint64_t run_pass(int k) {
    if (k == 0) {
      load_dependencies();
      for (int i = 0; i < current_count_; ++i) {
        marked_[i].assign(values_[i].size(), 0);
        wake_[i].assign(values_[i].size(), 0);
      }
    }
    struct Update {
      int slice;
      std::uint64_t index;
      Value value;
    };
    const int threads = std::max(1, options_.threads);
    std::vector<std::vector<Update>> updates(static_cast<std::size_t>(threads));
    std::vector<std::exception_ptr> errors(static_cast<std::size_t>(threads));
    std::uint64_t total = 0;
    for (int i = 0; i < current_count_; ++i) total += values_[i].size();
    auto work = [&](int t) {
      try {
        std::uint64_t seen = 0;
        for (int i = 0; i < current_count_; ++i) {
          const std::uint64_t n = values_[i].size();
          const auto parts = static_cast<std::uint64_t>(threads);
          const std::uint64_t lo = n * static_cast<std::uint64_t>(t) / parts,
                              hi = n * static_cast<std::uint64_t>(t + 1) / parts;
          for (std::uint64_t idx = lo; idx < hi; ++idx) {
            if (values_[i][idx] != kUnknown || !due(i, idx, k)) continue;
            const Value v = k == 0 ? initial_value(current_[i], idx) : solve(i, idx, k);
            if (v != kUnknown) updates[static_cast<std::size_t>(t)].push_back({i, idx, v});
            if (t == 0 && options_.progress && (++seen & 0xFFFF) == 0) progress(k, idx, hi);
          }
        }
      } catch (...) {
        errors[static_cast<std::size_t>(t)] = std::current_exception();
      }
    };
    std::vector<std::thread> pool;
    for (int t = 1; t < threads; ++t) pool.emplace_back(work, t);
    work(0);
    for (auto& th : pool) th.join();
    for (const auto& e : errors)
      if (e) std::rethrow_exception(e);
    std::uint64_t changed = 0;
    for (int i = 0; i < current_count_; ++i) std::fill(marked_[i].begin(), marked_[i].end(), 0);
    for (const auto& list : updates)
      for (const Update& u : list) {
        values_[u.slice][u.index] = u.value;
        if (u.value == kInvalid) continue;
        ++changed;
        if (k > 0) mark_predecessors(u.slice, u.index);
      }
    if (options_.progress) {
      std::uint64_t unknown = 0;
      for (int i = 0; i < current_count_; ++i)
        for (Value v : values_[i]) unknown += v == kUnknown;
      std::fprintf(
          stderr, "\regdb %s %s: pass %d, %llu resolved, %llu of %llu unknown   ", rules_.c_str(),
          current_[0].name().c_str(), k, static_cast<unsigned long long>(changed),
          static_cast<unsigned long long>(unknown), static_cast<unsigned long long>(total));
      std::fflush(stderr);
    }
    return changed;
  }

  // Every rule set the generator takes gets candidate passes: a quiet move is undone by moving
  // a piece of the side that moved back against one of its move directions (a king any number
  // of empty squares, or one where kings are short; a man one square). The diagonal rule sets
  // go by the four diagonals; the line rule sets (Thai, Turkish) by their trait's direction
  // sets. The positions so found are a superset of the predecessors within the unit; each is
  // solved again in the next pass.
  //
  // Marks for the next pass every position of the unit with a quiet move to the position idx
  // of current slice i just resolved.
  void mark_predecessors(int i, std::uint64_t idx) {
    const Placement q = *unrank(layout_, current_[i], idx);
    // The position the move led to, as played: the mover (White) is q's Black turned round.
    const SquareSet mover_men = layout_.turned(q.bm), mover_kings = layout_.turned(q.bk);
    const SquareSet other_men = layout_.turned(q.wm), other_kings = layout_.turned(q.wk);
    const Bitboard occupied = layout_.to_bits(mover_men | mover_kings | other_men | other_kings);
    const Slice s = current_[i].mirrored();
    const int j = current_count_ == 2 && current_[1] == s ? 1 : 0;
    const auto mark = [&](SquareSet men, SquareSet kings) {
      const Placement p{men, kings, other_men, other_kings};
      marked_[j][rank(layout_, s, p)] = 1;
    };
    if constexpr (R::kLineMoves)
      unmove_lines(mover_men, mover_kings, occupied, mark);
    else
      unmove_diagonals(mover_men, mover_kings, occupied, mark);
  }

  // The undone moves of the diagonal rule sets: mark(men, kings) for each placement of the
  // mover's pieces one quiet move earlier.
  template <class Mark>
  void unmove_diagonals(SquareSet mover_men, SquareSet mover_kings, Bitboard occupied,
                        const Mark& mark) const {
    using G = typename R::Geometry;
    for (Square q_sq : squares_of(mover_kings)) {
      const Square b = layout_.bit_of[static_cast<std::size_t>(q_sq)];
      for (Direction d :
           {Direction::UpLeft, Direction::UpRight, Direction::DownLeft, Direction::DownRight}) {
        for (Bitboard ray = G::ray(d, b); ray;) {
          const Square t = G::step(d) > 0 ? lsb(ray) : msb(ray);
          if (occupied & bit(t)) break;
          const SquareSet from = SquareSet{1} << layout_.square_of[static_cast<std::size_t>(t)];
          mark(mover_men, (mover_kings & ~(SquareSet{1} << q_sq)) | from);
          if (!R::kFlyingKings) break;
          ray &= ~bit(t);
        }
      }
    }
    for (Square q_sq : squares_of(mover_men)) {
      const Square b = layout_.bit_of[static_cast<std::size_t>(q_sq)];
      for (Direction d : {Direction::DownLeft, Direction::DownRight}) {
        const Bitboard ray = G::ray(d, b);
        if (!ray) continue;
        const Square t = lsb(ray);
        if (occupied & bit(t)) continue;
        const SquareSet from = SquareSet{1} << layout_.square_of[static_cast<std::size_t>(t)];
        mark((mover_men & ~(SquareSet{1} << q_sq)) | from, mover_kings);
      }
    }
  }

  // The same for the line rule sets: a piece came from the other way along each direction it
  // moves in (the mover is White: kManMoves[White] for its men).
  template <class Mark>
  void unmove_lines(SquareSet mover_men, SquareSet mover_kings, Bitboard occupied,
                    const Mark& mark) const {
    using L = typename R::Lines;
    const auto back = [&](unsigned directions, Square q_sq, bool slides, auto&& place) {
      const Square b = layout_.bit_of[static_cast<std::size_t>(q_sq)];
      for (unsigned set = directions; set; set &= set - 1) {
        const int d = L::reverse(std::countr_zero(set));
        for (Bitboard ray = L::ray(d, b); ray;) {
          const Square t = L::nearest(ray, d);
          if (occupied & bit(t)) break;
          place(SquareSet{1} << layout_.square_of[static_cast<std::size_t>(t)]);
          if (!slides) break;
          ray &= ~bit(t);
        }
      }
    };
    for (Square q_sq : squares_of(mover_kings))
      back(R::kKingMoves, q_sq, R::kFlyingKings, [&](SquareSet from) {
        mark(mover_men, (mover_kings & ~(SquareSet{1} << q_sq)) | from);
      });
    for (Square q_sq : squares_of(mover_men))
      back(
          R::kManMoves[static_cast<std::size_t>(index(Side::White))], q_sq, false,
          [&](SquareSet from) { mark((mover_men & ~(SquareSet{1} << q_sq)) | from, mover_kings); });
  }

  void progress(int k, std::uint64_t at, std::uint64_t hi) const {
    std::fprintf(stderr, "\regdb %s %s: pass %d, %3d%%   ", rules_.c_str(),
                 current_[0].name().c_str(), k,
                 static_cast<int>(100 * at / std::max<std::uint64_t>(hi, 1)));
    std::fflush(stderr);
  }

  Value initial_value(const Slice& s, std::uint64_t idx) const {
    const auto placement = unrank(layout_, s, idx);
    if (!placement) return kInvalid;
    const Position pos = position_of(layout_, *placement);
    if (MoveGen<R>::count(pos) == 0) return no_move_value();
    return kUnknown;
  }

  Value solve(int i, std::uint64_t idx, int k) {
    const auto placement = unrank(layout_, current_[i], idx);
    const Position pos = position_of(layout_, *placement);
    MoveList moves;
    MoveGen<R>::generate(pos, moves);
    int best_win = -1, longest_loss = 0, wake = 0;
    bool all_won = true;
    for (const Move& m : moves) {
      bool in_unit = false;
      const Value v = child_value(pos.after(m), in_unit);
      if (!in_unit && v != kUnknown && distance_of(v) + 1 > k)
        wake = wake == 0 ? distance_of(v) + 1 : std::min(wake, distance_of(v) + 1);
      if (is_loss(v) && distance_of(v) <= k - 1) {
        if (best_win < 0 || distance_of(v) < best_win) best_win = distance_of(v);
      } else if (is_win(v) && distance_of(v) <= k - 1) {
        longest_loss = std::max(longest_loss, distance_of(v));
      } else {
        all_won = false;
      }
    }
    wake_[i][idx] = static_cast<std::uint16_t>(wake);
    if (best_win >= 0) return static_cast<Value>(kWinFlag | (best_win + 1));
    if (all_won) return static_cast<Value>(kLossFlag | (longest_loss + 1));
    return kUnknown;
  }

  static void write_atomically(const std::string& path, const std::vector<std::uint8_t>& bytes) {
    const std::string tmp = path + ".tmp";
    {
      std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
      if (!out) throw std::runtime_error("cannot write " + tmp);
      out.write(reinterpret_cast<const char*>(bytes.data()),
                static_cast<std::streamsize>(bytes.size()));
      if (!out) throw std::runtime_error("cannot write " + tmp);
    }
    std::error_code ec;
    std::filesystem::rename(tmp, path, ec);
    if (ec) throw std::runtime_error("cannot rename " + tmp + ": " + ec.message());
  }

  BuildOptions options_;
  Layout layout_;
  std::string rules_;
  Slice current_[2];
  int current_count_ = 0;
  std::vector<Value> values_[2];
  std::vector<std::uint8_t> marked_[2];  // candidates of the next pass
  std::vector<std::uint16_t> wake_[2];   // the next pass a smaller slice's value becomes usable
  std::map<int, Dependency> cache_;
  bool exact_ = true;
  int max_dependency_distance_ = 0;
};

}  // namespace tsuru::egdb
