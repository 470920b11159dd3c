// The endgame database generator: retrograde analysis, one build unit (plan.hpp) at a time,
// under rule set R's own move generation.
//
// Values and distances: a position is won in d plies when some move leads to a position lost
// in d - 1 (d the least such), lost in d plies when every move leads to a position won in at
// most d - 1 (d - 1 the largest): the winner takes the shortest way, the loser the longest.
// Captures and crownings leave the unit: their values come from the slices built before (the
// files in the directory). What no win or loss reaches is a draw.
//
// Three methods give the same files (BuildOptions::Method; the tests compare them):
// - Counters (the default): one forward look at every position decides what the moves out of
//   the unit decide and counts the quiet moves into the unit; then the resolved positions are
//   taken in order of distance, and each one's predecessors (found by undoing a quiet move) are
//   won (it is lost) or counted down (it is won; a count reaching zero is a loss). Each
//   position is generated forward once or twice, whatever the number of distances.
// - Passes: forward iteration to a fixpoint. Pass 0 marks invalid indices and the positions
//   without a move; pass k resolves what is exactly k plies from the end, looking at every
//   position in pass 1 and afterwards at the predecessors of what the pass before resolved.
// - FullPasses: the same, every pass looking at every unknown position (the reference).
//
// The passes apply a step's updates after it, and the counters' in-place updates give the same
// result in any order, so files are byte-identical for any --threads and for any build order
// that respects the plan.
#pragma once

#include <algorithm>
#include <atomic>
#include <bit>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "engine/rules/binary_io.hpp"
#include "engine/rules/movegen.hpp"
#include "engine/rules/movegen_lines.hpp"
#include "eval/egdb/capture_positions.hpp"
#include "eval/egdb/database.hpp"
#include "eval/egdb/format.hpp"
#include "eval/egdb/packed_values.hpp"
#include "eval/egdb/part.hpp"
#include "eval/egdb/plan.hpp"
#include "eval/egdb/unmove.hpp"
#include "eval/egdb/value_marks.hpp"

namespace tsuru::egdb {

struct BuildOptions {
  std::string dir = ".";
  int threads = 1;
  // Distances are stored for slices of at most this many pieces (0: none).
  int distance_pieces = 4;
  bool progress = true;  // a progress line on stderr
  // How a unit is solved; the three give the same files (the tests compare them).
  //   Counters: one forward look at every position, then retrograde propagation by un-moves
  //             with a count of unresolved quiet moves per position (the default, fastest).
  //   Passes:   forward passes, each re-solving the un-moved predecessors of what the pass
  //             before resolved.
  //   FullPasses: forward passes over every unknown position (slowest, the reference).
  enum class Method { Counters, Passes, FullPasses };
  Method method = Method::Counters;
  // The file format written (format.hpp): 2, the compact one, leaves out the positions with a
  // capture pending; 1 stores every position (for comparisons).
  std::uint32_t version = kVersion;
  // Parts (part.hpp): a unit whose whole build would take more than memory_mib MiB (as
  // build_memory estimates; 0: no budget) is solved a part at a time, or every unit that splits
  // when in_parts. Only units without distances are split, and only by the counters method; a
  // solved part is kept in a part file beside the slices until its unit is written, so that a
  // build stopped between parts goes on from there.
  std::uint64_t memory_mib = 0;
  bool in_parts = false;
  // Called after each part is solved and saved (its number in the unit's order), for progress
  // and for the tests that stop a build there.
  std::function<void(const Unit&, int part)> after_part;
};

struct SliceReport {
  Slice slice;
  SliceCounts counts;
  bool existed = false;   // a valid file was there already; nothing was built
  bool distance = false;  // the file stores distances
  std::uint64_t file_bytes = 0;
  double seconds = 0;  // the unit's build time (both slices)
  int passes = 0;
  int parts = 1;    // the parts the unit was solved in
  int resumed = 0;  // of them, read back from part files of a build stopped before
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
    forget_all_but(unit);
    exact_ = true;
    max_dependency_distance_ = 0;
    for (int i = 0; i < count; ++i) {
      current_[i] = slices[i];
      unranker_[i] = SliceUnranker(layout_, slices[i]);
    }
    current_count_ = count;
    label_ = slices[0].name();
    load_dependencies();
    if (solves_in_parts(unit)) {
      build_in_parts(unit, reports);
    } else {
      int passes = 0;
      for (int i = 0; i < count; ++i) {
        part_[i] = SlicePart::whole(layout_, slices[i]);
        values_[i].assign(part_[i].size(), kUnknown);
      }
      if (options_.method == BuildOptions::Method::Counters) {
        passes = run_counters();
      } else {
        for (int k = 0;; ++k) {
          const std::uint64_t changed = run_pass(k);
          passes = k + 1;
          if (k > 0 && changed == 0 && k > max_dependency_distance_ + 1) break;
          if (k >= static_cast<int>(kDistanceMask) - 1)
            throw std::runtime_error("slice " + slices[0].name() + ": distances beyond the format");
        }
      }
      if (options_.progress) std::fputc('\n', stderr);
      const bool with_distance = unit.pieces() <= options_.distance_pieces && exact_;
      for (int i = 0; i < count; ++i) {
        const std::vector<std::uint64_t> omit =
            options_.version == 1 ? std::vector<std::uint64_t>{}
                                  : capture_mask<R>(layout_, slices[i], options_.threads);
        const std::vector<std::uint8_t> bytes =
            encode_slice(rules_, slices[i], values_[i], with_distance,
                         options_.version == 1 ? nullptr : &omit, options_.version);
        write_atomically(path_of(slices[i]), bytes);
        SliceReport& r = reports[static_cast<std::size_t>(i)];
        r.existed = false;
        r.counts = count_values(values_[i]);
        r.distance = with_distance;
        r.file_bytes = bytes.size();
        r.passes = passes;
        // The unit's own values serve the units after it without reading the file again.
        cache_[slices[i].code()] =
            Dependency::kept(std::move(values_[i]), with_distance, r.counts.max_distance);
      }
    }
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    for (SliceReport& r : reports) r.seconds = seconds;
    return reports;
  }

  // Whether valid files of both the unit's slices are there (build keeps them).
  bool complete(const Unit& unit) const {
    return read_existing(unit.first).has_value() &&
           (unit.symmetric() || read_existing(unit.second).has_value());
  }

  std::string path_of(const Slice& s) const {
    return (std::filesystem::path(options_.dir) / file_name(rules_, s)).string();
  }

 private:
  // Whether the unit is solved in parts (BuildOptions::memory_mib, in_parts).
  bool solves_in_parts(const Unit& unit) const {
    if (!splits(unit) || unit.pieces() <= options_.distance_pieces ||
        options_.method != BuildOptions::Method::Counters)
      return false;
    if (options_.in_parts) return true;
    return options_.memory_mib > 0 && build_memory(layout_, unit, options_.distance_pieces, false) >
                                          (options_.memory_mib << 20);
  }

  // Solves the unit a part at a time (part.hpp), most advanced first, each part's values
  // packed into the whole slices' as it is done and saved to its part file (a part file left
  // by a build stopped before is read instead of solving the part again); then writes the
  // slices and removes the part files.
  void build_in_parts(const Unit& unit, std::vector<SliceReport>& reports) {
    const std::vector<UnitPart> parts = unit_parts(layout_, unit);
    SliceCounts totals[2];
    for (int i = 0; i < current_count_; ++i) {
      solved_[i] = PackedValues(slice_size(layout_, current_[i]));
      totals[i].positions = solved_[i].size();
    }
    const auto add = [&](int i, const SliceCounts& c) {
      totals[i].wins += c.wins;
      totals[i].draws += c.draws;
      totals[i].losses += c.losses;
      totals[i].invalid += c.invalid;
      totals[i].max_distance = std::max(totals[i].max_distance, c.max_distance);
    };
    const int threads = std::max(1, options_.threads);
    int passes = 0, resumed = 0;
    for (std::size_t k = 0; k < parts.size(); ++k) {
      const UnitPart& part = parts[k];
      for (int i = 0; i < current_count_; ++i) part_[i] = part.slice[i];
      label_ = current_[0].name() + " part " + std::to_string(k + 1) + "/" +
               std::to_string(parts.size());
      const std::string file = part_path(unit, part.key);
      PartValues saved;
      if (auto back = read_part_file(file, rules_, unit, part)) {
        saved = std::move(back.value());
        ++resumed;
      } else {
        if (!back.error().empty())
          std::fprintf(stderr, "egdb: solving %s again: %s\n", file.c_str(), back.error().c_str());
        for (int i = 0; i < current_count_; ++i) values_[i].assign(part_[i].size(), kUnknown);
        passes = std::max(passes, run_counters());
        for (int i = 0; i < current_count_; ++i) {
          saved.counts[i] = count_values(values_[i]);
          saved.values[i] = PackedValues(values_[i]);
          values_[i] = {};
        }
        const auto written =
            write_file_atomically(file, encode_part_file(rules_, unit, part, saved));
        if (!written) throw std::runtime_error(written.error());
      }
      for (int i = 0; i < current_count_; ++i) {
        add(i, saved.counts[i]);
        const PackedValues& v = saved.values[i];
        for_indices(threads, v.size(),
                    [&](std::uint64_t l) { solved_[i].set(part_[i].slice_index(l), v[l]); });
      }
      if (options_.after_part) options_.after_part(unit, static_cast<int>(k));
    }
    if (options_.progress) std::fputc('\n', stderr);
    for (int i = 0; i < current_count_; ++i) {
      const std::vector<std::uint64_t> omit =
          capture_mask<R>(layout_, current_[i], options_.threads);
      const std::vector<std::uint8_t> bytes =
          encode_slice(rules_, current_[i], solved_[i], totals[i], &omit);
      write_atomically(path_of(current_[i]), bytes);
      SliceReport& r = reports[static_cast<std::size_t>(i)];
      r.existed = false;
      r.counts = totals[i];
      r.distance = false;
      r.file_bytes = bytes.size();
      r.passes = passes;
      r.parts = static_cast<int>(parts.size());
      r.resumed = resumed;
      Dependency d;
      d.max_distance = totals[i].max_distance;
      d.packed = std::move(solved_[i]);
      cache_[current_[i].code()] = std::move(d);
    }
    std::error_code ec;
    for (const UnitPart& part : parts) std::filesystem::remove(part_path(unit, part.key), ec);
  }

  std::string part_path(const Unit& unit, int key) const {
    return path_of(unit.first) + ".part" + std::to_string(key);
  }

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
    if (view->omits_threats())
      throw std::runtime_error(path +
                               ": a play file (threat positions left out, `tsuru egdb compact "
                               "--threats`): the generator builds on the files `tsuru egdb "
                               "build` writes");
    Dependency d;
    d.exact = view->has_distance();
    d.max_distance = view->counts().max_distance;
    if (d.exact)
      d.values = view->decode_all();
    else
      d.packed = view->decode_wdl();
    if (view->omits_captures()) {
      // The file leaves the capture positions out: their values come back from the slices the
      // captures lead to (fewer pieces, restored first).
      for (const Slice& t : slices_after(s))
        if (t.pieces() < s.pieces()) dependency(t);
      restore_captures<R>(
          layout_, s, d.exact, options_.threads,
          [&](const Position& c) -> Value {
            if (c.pieces(c.turn()) == 0) return no_move_value();
            const auto loc = locate(layout_, c);
            if (!loc) throw std::runtime_error("a capture led off the index");
            return cache_.at(loc->slice.code())[loc->index];
          },
          [&](std::uint64_t i, Value v) { d.set(i, v); });
    }
    return cache_.emplace(s.code(), std::move(d)).first->second;
  }

  // Forgets the slices built or read before that the unit does not need (they are read again
  // when a later unit does), so that a run's memory is its largest unit's, not the sum of
  // what it built; all are kept while they take less than 64 MiB.
  void forget_all_but(const Unit& unit) {
    std::size_t bytes = 0;
    for (const auto& [code, d] : cache_) bytes += d.bytes();
    if (bytes < (std::size_t{64} << 20)) return;
    std::vector<int> keep;
    for (const Slice& s : slices_needed(unit)) keep.push_back(s.code());
    for (auto it = cache_.begin(); it != cache_.end();)
      it = std::find(keep.begin(), keep.end(), it->first) == keep.end() ? cache_.erase(it)
                                                                        : std::next(it);
  }

  static constexpr Value no_move_value() { return R::kNoMoveWins ? kWinFlag : kLossFlag; }

  // Where a child position (the opponent to move) is: in the unit being built (slice >= 0:
  // current slice and index; its value may still change), or decided already (value, from its
  // side to move's view: a slice built before, or no piece left to move).
  struct Child {
    int slice = -1;
    std::uint64_t index = 0;
    Value value = kUnknown;
  };
  Child where(const Position& child) {
    if (child.pieces(child.turn()) == 0) return {-1, 0, no_move_value()};
    const auto loc = locate(layout_, child);
    if (!loc) throw std::runtime_error("a move led to a position the index cannot hold");
    for (int i = 0; i < current_count_; ++i) {
      if (!(loc->slice == current_[i])) continue;
      if (const auto local = part_[i].local(loc->placement, loc->index))
        return {i, *local, kUnknown};
      // In a part solved before (a key man's move forward: part.hpp).
      return {-1, 0, solved_[i][loc->index]};
    }
    return {-1, 0, lookup(loc->slice)[loc->index]};
  }

  // The value of a child position, from its side to move's view; in_unit: it is in the unit.
  Value child_value(const Position& child, bool& in_unit) {
    const Child c = where(child);
    in_unit = c.slice >= 0;
    return in_unit ? values_[c.slice][c.index] : c.value;
  }

  // Dependencies are loaded before the threads start (see run_pass), so this only reads.
  const Dependency& lookup(const Slice& s) {
    const auto it = cache_.find(s.code());
    if (it == cache_.end()) throw std::runtime_error("dependency not loaded: " + s.name());
    return it->second;
  }

  // Loads every slice the moves of a slice can reach: fewer pieces, or one man crowned.
  void load_dependencies() {
    for (int i = 0; i < current_count_; ++i) {
      const Slice s = current_[i];
      for (const Slice& t : slices_after(s)) {
        const Dependency& d = dependency(t);
        exact_ = exact_ && d.exact;
        max_dependency_distance_ =
            std::max(max_dependency_distance_, static_cast<int>(d.max_distance));
      }
    }
  }

  // Whether pass k looks at the unknown position idx of current slice i: pass 1 looks at all;
  // later passes at the predecessors of the positions the previous pass resolved (marked) and
  // at positions whose smaller-slice children become usable now (wake).
  bool due(int i, std::uint64_t idx, int k) const {
    if (k <= 1 || options_.method == BuildOptions::Method::FullPasses) return true;
    return marked_[i][idx] || wake_[i][idx] == k;
  }

  std::uint64_t run_pass(int k) {
    if (k == 0) {
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
    std::uint64_t total = 0;
    for (int i = 0; i < current_count_; ++i) total += values_[i].size();
    const std::string label = "pass " + std::to_string(k);
    for_all_indices(threads, label.c_str(), [&](int t, int i, std::uint64_t idx) {
      if (values_[i][idx] != kUnknown || !due(i, idx, k)) return;
      const Value v =
          k == 0 ? initial_value(current_[i], part_[i].slice_index(idx)) : solve(i, idx, k);
      if (v != kUnknown) updates[static_cast<std::size_t>(t)].push_back({i, idx, v});
    });
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
      std::fprintf(stderr, "\regdb %s %s: pass %d, %llu resolved, %llu of %llu unknown   ",
                   rules_.c_str(), label_.c_str(), k, static_cast<unsigned long long>(changed),
                   static_cast<unsigned long long>(unknown),
                   static_cast<unsigned long long>(total));
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
    for_each_predecessor(i, idx, [&](int j, std::uint64_t q) { marked_[j][q] = 1; });
  }

  // f(j, index) for every position of the unit (current slice j) that has a quiet move to the
  // position idx of current slice i, or would have one but for a capture it must make instead.
  template <class F>
  void for_each_predecessor(int i, std::uint64_t idx, const F& f) const {
    const Placement q = *unranker_[i](part_[i].slice_index(idx));
    // The position the move led to, as played: the mover (White) is q's Black turned round.
    const SquareSet mover_men = layout_.turned(q.bm), mover_kings = layout_.turned(q.bk);
    const SquareSet other_men = layout_.turned(q.wm), other_kings = layout_.turned(q.wk);
    const Bitboard occupied = layout_.to_bits(mover_men | mover_kings | other_men | other_kings);
    const Slice s = current_[i].mirrored();
    const int j = current_count_ == 2 && current_[1] == s ? 1 : 0;
    const SlicePart& part = part_[j];
    const auto mark = [&](SquareSet men, SquareSet kings) {
      const Placement p{men, kings, other_men, other_kings};
      // A predecessor in another part is in one solved after this one (part.hpp).
      if (const auto local = part.local(p, rank(layout_, s, p))) f(j, *local);
    };
    if constexpr (R::kLineMoves)
      unmove_lines<R>(layout_, mover_men, mover_kings, occupied, mark);
    else
      unmove_diagonals<R>(layout_, mover_men, mover_kings, occupied, mark);
  }

  // --- The counters method ---------------------------------------------------------------
  //
  // count_ per position: kNoQuiet when none of its moves stays in the unit (a capture to make,
  // or only crownings: its value is final after the first look), kCannotLose when a move leaves
  // the unit for a position the opponent does not win, else the number of its moves into the
  // unit not yet known to lead to an opponent's win.
  static constexpr std::uint8_t kNoQuiet = 0xFF, kCannotLose = 0xFE;

  // Looks at every unknown position once, then takes the resolved positions in order of
  // distance: a position at distance d makes each predecessor (un-moves) won in d + 1 if it is
  // lost, or counts down the predecessor's moves if it is won; a predecessor whose count reaches
  // zero is lost, one ply beyond its slowest move. Values and distances are those of the
  // forward passes (a position resolved in pass k is at distance k in both). Returns the
  // number of distances looked at.
  //
  // Memory: the values (2 bytes a position), the counts (1 byte) and two bits, nothing per
  // resolved position: the positions at each distance are marked by a scan of the values
  // (mark_level), then in two steps the losses at d win their predecessors and the wins at d
  // count theirs down (the first step sets only wins at d + 1, so both marks hold). Within a
  // step the threads write values and counts in place (atomic_ref): a win set is d + 1 whoever
  // sets it, a count goes down once per move and a position is lost by the one decrement that
  // reaches zero, so the result depends neither on the order nor on the number of threads.
  int run_counters() {
    const int threads = std::max(1, options_.threads);
    for (int i = 0; i < current_count_; ++i) count_[i].assign(values_[i].size(), kNoQuiet);
    for_all_indices(threads, "first look",
                    [&](int, int i, std::uint64_t idx) { first_look(i, idx); });
    // How many positions are lost (won) at each distance: a distance with none is not scanned.
    std::vector<std::atomic<std::uint64_t>> losses(kDistanceMask + 1), wins(kDistanceMask + 1);
    const auto tally = [&](Value v, std::int64_t n) {
      auto& at = is_loss(v) ? losses : wins;
      at[static_cast<std::size_t>(distance_of(v))].fetch_add(static_cast<std::uint64_t>(n),
                                                             std::memory_order_relaxed);
    };
    for_all_indices(threads, nullptr, [&](int, int i, std::uint64_t idx) {
      const Value v = values_[i][idx];
      if (v != kUnknown && v != kInvalid) tally(v, 1);
    });
    const auto deepest = [&] {
      for (int d = static_cast<int>(kDistanceMask); d > 0; --d)
        if (losses[static_cast<std::size_t>(d)] || wins[static_cast<std::size_t>(d)]) return d;
      return 0;
    };
    int d = 0;
    for (; d <= deepest(); ++d) {
      if (d + 1 >= static_cast<int>(kDistanceMask) - 1)
        throw std::runtime_error("slice " + current_[0].name() + ": distances beyond the format");
      const std::uint64_t lost_here = losses[static_cast<std::size_t>(d)];
      const std::uint64_t won_here = wins[static_cast<std::size_t>(d)];
      if (lost_here + won_here == 0) continue;
      const Value lost_d = static_cast<Value>(kLossFlag | d),
                  won_d = static_cast<Value>(kWinFlag | d);
      mark_level(threads, lost_d, won_d);
      const Value won = static_cast<Value>(kWinFlag | (d + 1));
      if (lost_here > 0)
        for_marked_words(threads, level_lost_, [&](int i, std::uint64_t w, std::uint64_t bits) {
          std::int64_t won_now = 0;  // tallied once a word: the shared counter is contended
          for (; bits; bits &= bits - 1)
            for_each_predecessor(
                i, 64 * w + static_cast<std::uint64_t>(std::countr_zero(bits)),
                [&](int j, std::uint64_t q) {
                  if (count_[j][q] == kNoQuiet) return;  // a capture to make: no quiet move to P
                  std::atomic_ref<Value> value(values_[j][q]);
                  Value cur = value.load(std::memory_order_relaxed);
                  while (cur == kUnknown || (is_win(cur) && distance_of(cur) > d + 1))
                    if (value.compare_exchange_weak(cur, won, std::memory_order_relaxed)) {
                      if (cur != kUnknown) tally(cur, -1);  // a win found faster
                      ++won_now;
                      break;
                    }
                });
          if (won_now) tally(won, won_now);
        });
      if (won_here > 0)
        for_marked(threads, level_won_, [&](int i, std::uint64_t idx) {
          for_each_predecessor(i, idx, [&](int j, std::uint64_t q) {
            std::atomic_ref<Value> value(values_[j][q]);
            if (value.load(std::memory_order_relaxed) != kUnknown) return;
            std::atomic_ref<std::uint8_t> count(count_[j][q]);
            std::uint8_t c = count.load(std::memory_order_relaxed);
            while (c != 0 && c < kCannotLose)
              if (count.compare_exchange_weak(c, static_cast<std::uint8_t>(c - 1),
                                              std::memory_order_relaxed)) {
                // Every move of P now leads to an opponent's win (at most d plies away, values
                // no thread changes now): P is lost one ply beyond the slowest of them.
                if (c == 1) {
                  const Value lost = loss_value(j, q);
                  value.store(lost, std::memory_order_relaxed);
                  tally(lost, 1);
                }
                break;
              }
          });
        });
      if (options_.progress) {
        std::fprintf(stderr, "\regdb %s %s: distance %d, %llu positions   ", rules_.c_str(),
                     label_.c_str(), d, static_cast<unsigned long long>(lost_here + won_here));
        std::fflush(stderr);
      }
    }
    for (int i = 0; i < current_count_; ++i) level_lost_[i] = level_won_[i] = {};
    for (int i = 0; i < current_count_; ++i) count_[i] = {};
    return d;
  }

  // level_lost_ / level_won_: a bit per position of the current slices, set where the value is
  // `lost` / `won`. The values are only read here (no thread writes them meanwhile); each word
  // of bits is written by one thread.
  void mark_level(int threads, Value lost, Value won) {
    for (int i = 0; i < current_count_; ++i) {
      const std::uint64_t n = values_[i].size(), words = (n + 63) / 64;
      level_lost_[i].resize(words);
      level_won_[i].resize(words);
      const Value* v = values_[i].data();
      for_indices(threads, words, [&](std::uint64_t w) {
        const std::uint64_t base = 64 * w;
        const EqualBits bits =
            equal_bits(v + base, std::min<std::uint64_t>(64, n - base), lost, won);
        level_lost_[i][w] = bits.a;
        level_won_[i][w] = bits.b;
      });
    }
  }

  // f(slice, index) for every bit set in marks, the words split over the threads.
  template <class F>
  void for_marked(int threads, const std::vector<std::uint64_t> (&marks)[2], const F& f) {
    for_marked_words(threads, marks, [&](int i, std::uint64_t w, std::uint64_t bits) {
      for (; bits; bits &= bits - 1)
        f(i, 64 * w + static_cast<std::uint64_t>(std::countr_zero(bits)));
    });
  }
  // f(slice, word, bits) for every non-zero word of marks (bit k of word w: index 64 w + k).
  template <class F>
  void for_marked_words(int threads, const std::vector<std::uint64_t> (&marks)[2], const F& f) {
    for (int i = 0; i < current_count_; ++i) {
      const std::vector<std::uint64_t>& bits = marks[i];
      for_indices(threads, bits.size(), [&](std::uint64_t w) {
        if (bits[w]) f(i, w, bits[w]);
      });
    }
  }

  // The first look at a position: an invalid index, or no move (the end of the game); else
  // its moves out of the unit decide it (a move to an opponent's loss, or every move to an
  // opponent's win) or bound it, and its moves into the unit are counted.
  void first_look(int i, std::uint64_t idx) {
    const auto placement = unranker_[i](part_[i].slice_index(idx));
    if (!placement) {
      values_[i][idx] = kInvalid;
      return;
    }
    const Position pos = board_of(layout_, *placement);
    MoveList moves;
    MoveGen<R>::generate(pos, moves);
    if (moves.empty()) {
      values_[i][idx] = no_move_value();
      return;
    }
    int inside = 0, fastest = -1, slowest = 0;
    bool can_lose = true;
    // The mover's rearmost man, when the part is keyed by him (part.hpp).
    const int key =
        part_[i].white_keyed() ? static_cast<int>(std::bit_width(placement->wm)) - 1 : -1;
    for (const Move& m : moves) {
      // A quiet move that does not crown leads to the mirrored slice, which is in the unit, and
      // in the part unless it moves the mover's key man.
      if (!m.is_capture() && !m.crowns && layout_.square_of[m.from] != key) {
        ++inside;
        continue;
      }
      const Child c = where(pos.after<false>(m));
      if (c.slice >= 0) {
        ++inside;
        continue;
      }
      const Value v = c.value;
      if (is_loss(v)) {
        fastest = fastest < 0 ? distance_of(v) : std::min(fastest, distance_of(v));
        can_lose = false;
      } else if (is_win(v)) {
        slowest = std::max(slowest, distance_of(v));
      } else {
        can_lose = false;  // a draw
      }
    }
    if (inside >= kCannotLose) throw std::runtime_error("more quiet moves than the counters hold");
    if (fastest >= 0)
      values_[i][idx] = static_cast<Value>(kWinFlag | (fastest + 1));
    else if (inside == 0 && can_lose)
      values_[i][idx] = static_cast<Value>(kLossFlag | (slowest + 1));
    count_[i][idx] = inside == 0 ? kNoQuiet
                     : !can_lose ? kCannotLose
                                 : static_cast<std::uint8_t>(inside);
  }

  // The value of a position whose every move leads to an opponent's win.
  Value loss_value(int i, std::uint64_t idx) {
    const Position pos = board_of(layout_, *unranker_[i](part_[i].slice_index(idx)));
    MoveList moves;
    MoveGen<R>::generate(pos, moves);
    int slowest = 0;
    for (const Move& m : moves) {
      bool in_unit = false;
      const Value v = child_value(pos.after<false>(m), in_unit);
      if (!is_win(v))
        throw std::logic_error("egdb: slice " + current_[i].name() + " index " +
                               std::to_string(idx) + " counted down with a move not lost");
      slowest = std::max(slowest, distance_of(v));
    }
    return static_cast<Value>(kLossFlag | (slowest + 1));
  }

  // f(thread, slice, index) for every index of the current slices, split over the threads by
  // ranges; a progress line under `label` when one is given.
  template <class F>
  void for_all_indices(int threads, const char* label, const F& f) {
    for_indices(threads, static_cast<std::size_t>(threads), [&](std::size_t t) {
      std::uint64_t seen = 0;
      for (int i = 0; i < current_count_; ++i) {
        const std::uint64_t n = values_[i].size(), parts = static_cast<std::uint64_t>(threads);
        const std::uint64_t lo = n * t / parts, hi = n * (t + 1) / parts;
        for (std::uint64_t idx = lo; idx < hi; ++idx) {
          f(static_cast<int>(t), i, idx);
          if (t == 0 && label && options_.progress && (++seen & 0xFFFF) == 0) {
            std::fprintf(stderr, "\regdb %s %s: %s, %3d%%   ", rules_.c_str(), label_.c_str(),
                         label,
                         static_cast<int>(100 * (idx - lo) / std::max<std::uint64_t>(hi - lo, 1)));
            std::fflush(stderr);
          }
        }
      }
    });
  }

  Value initial_value(const Slice& s, std::uint64_t idx) const {
    const auto placement = unrank(layout_, s, idx);
    if (!placement) return kInvalid;
    const Position pos = board_of(layout_, *placement);
    if (MoveGen<R>::count(pos) == 0) return no_move_value();
    return kUnknown;
  }

  Value solve(int i, std::uint64_t idx, int k) {
    const auto placement = unranker_[i](part_[i].slice_index(idx));
    const Position pos = board_of(layout_, *placement);
    MoveList moves;
    MoveGen<R>::generate(pos, moves);
    int best_win = -1, longest_loss = 0, wake = 0;
    bool all_won = true;
    for (const Move& m : moves) {
      bool in_unit = false;
      const Value v = child_value(pos.after<false>(m), in_unit);
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

  // Through a temporary file renamed over the slice's name (engine/rules/binary_io.hpp): a build
  // stopped at any point, or a full disk, leaves no slice file half written.
  static void write_atomically(const std::string& path, const std::vector<std::uint8_t>& bytes) {
    const auto written = write_file_atomically(path, bytes);
    if (!written) throw std::runtime_error(written.error());
  }

  BuildOptions options_;
  Layout layout_;
  std::string rules_;
  Slice current_[2];
  SliceUnranker unranker_[2];  // of the current slices
  int current_count_ = 0;
  std::string label_;             // the unit (and part) in progress lines
  SlicePart part_[2];             // the part of each current slice being solved (whole: all of it)
  PackedValues solved_[2];        // the current slices' values of the parts solved (in parts)
  std::vector<Value> values_[2];  // of the part being solved, by local index
  std::vector<std::uint8_t> marked_[2];  // candidates of the next pass
  std::vector<std::uint16_t> wake_[2];   // the next pass a smaller slice's value becomes usable
  std::vector<std::uint8_t> count_[2];   // the counters method's counts (run_counters)
  std::vector<std::uint64_t> level_lost_[2], level_won_[2];  // run_counters' current distance
  std::map<int, Dependency> cache_;
  bool exact_ = true;
  int max_dependency_distance_ = 0;
};

}  // namespace tsuru::egdb
