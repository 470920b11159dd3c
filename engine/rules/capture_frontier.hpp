// The frontier (breadth-first) capture search's storage: the states of one layer (every state
// of one number of captured pieces), the next layer's candidates with their de-duplication, and
// the finished sequences of the best rank seen so far.
//
// Why a second search order: the depth-first capture search (movegen.hpp) walks each state once
// thanks to its memo, but it must look a state up before it can go on from it, so a search of
// millions of states waits for one memory access at a time (about 150 ns on the machines the
// README measures). A layer's candidates are all known before any is looked up, so their look-ups
// overlap (prefetched a few ahead): a tenth of the cost per state. The line generator
// (movegen_lines.hpp) switches a king's search to this order once its depth-first search has
// recorded CaptureFrontier::kAfterStates states, which only contrived positions reach (a
// Turkish king among 30 kings: 4.2 million states).
//
// Memory is bounded: a layer of more than kMaxCandidates candidates gives the search up (the
// caller goes back to the depth-first order, whose memo is lossy and bounded), and large buffers
// are handed back after each search. The frontier is one per thread, like the memo.
#pragma once

#include <sys/mman.h>
#include <algorithm>
#include <cstdint>
#include <new>
#include <tuple>
#include <type_traits>
#include <vector>

#include "engine/rules/types.hpp"

namespace tsuru::movegen_detail {

class CaptureFrontier {
 public:
  // A state: the captured set and a tag (the square of the last captured piece and the direction
  // of that capture, as the generator packs them).
  struct State {
    Bitboard captured = 0;
    std::uint32_t tag = 0;
    std::uint32_t stamp = 0;  // the de-duplication table's: which layer wrote the slot
  };
  // A finished sequence: where the king stops, what it took, and the rank of the capture.
  struct Leaf {
    Bitboard captured = 0;
    Square to = 0;
    int rank = 0;
    friend bool operator<(const Leaf& a, const Leaf& b) {
      return std::tie(a.captured, a.to) < std::tie(b.captured, b.to);
    }
    friend bool operator==(const Leaf& a, const Leaf& b) {
      return a.captured == b.captured && a.to == b.to;
    }
  };

  // The depth-first states from which a king's search goes over to this one.
  static constexpr std::size_t kAfterStates = std::size_t{1} << 13;
  // Candidates of one layer beyond which the search gives up (32 MiB of candidates, a table of
  // 64 MiB): about twice the largest layer of the crafted positions in the tests.
  static constexpr std::size_t kMaxCandidates = std::size_t{1} << 21;

  static CaptureFrontier& local() {
    thread_local CaptureFrontier frontier;
    return frontier;
  }

  // A new search.
  void start() {
    ++searches_;
    layer_.clear();
    candidates_.clear();
    leaves_.clear();
    best_rank_ = -1;
  }

  const std::vector<State>& layer() const { return layer_; }
  // A first capture (distinct from the others: each takes another piece).
  void seed(Bitboard captured, std::uint32_t tag) {
    layer_.push_back(State{captured, tag, 0});
    ++states_;
  }
  // A state of the next layer, reached from one of this layer (perhaps reached before).
  void add(Bitboard captured, std::uint32_t tag) { candidates_.push_back(State{captured, tag, 0}); }
  // A sequence that ends; kept when its rank is the best so far.
  void leaf(Bitboard captured, Square to, int rank) {
    if (rank < best_rank_) return;
    if (rank > best_rank_) {
      leaves_.clear();
      best_rank_ = rank;
    }
    leaves_.push_back(Leaf{captured, to, rank});
  }

  // The next layer: the candidates, each once. False when there were more than kMaxCandidates
  // (the search is to be given up).
  bool advance() {
    layer_.clear();
    if (candidates_.size() > limit_) {
      candidates_.clear();
      return false;
    }
    std::size_t size = 1024;
    while (size < 2 * candidates_.size()) size *= 2;
    if (table_.size() < size) {
      table_.reset(size);
      stamp_ = 0;
    }
    if (++stamp_ == 0) {
      table_.clear();
      stamp_ = 1;
    }
    const std::size_t mask = size - 1;
    auto slot = [mask](const State& s) {
      const std::uint64_t h = (s.captured ^ (std::uint64_t{s.tag} << 40)) * 0x9E3779B97F4A7C15ULL;
      return static_cast<std::size_t>(h >> 32) & mask;
    };
    constexpr std::size_t kAhead = 16;
    const std::size_t n = candidates_.size();
    for (std::size_t i = 0; i < n; ++i) {
      if (i + kAhead < n) __builtin_prefetch(&table_[slot(candidates_[i + kAhead])]);
      const State& c = candidates_[i];
      for (std::size_t at = slot(c);; at = (at + 1) & mask) {
        State& e = table_[at];
        if (e.stamp != stamp_) {
          e = State{c.captured, c.tag, stamp_};
          layer_.push_back(c);
          break;
        }
        if (e.captured == c.captured && e.tag == c.tag) break;
      }
    }
    candidates_.clear();
    states_ += layer_.size();
    return true;
  }

  // The sequences of the best rank, each (captured, to) once, in a fixed order.
  const std::vector<Leaf>& best_leaves() {
    std::sort(leaves_.begin(), leaves_.end());
    leaves_.erase(std::unique(leaves_.begin(), leaves_.end()), leaves_.end());
    return leaves_;
  }

  // The candidates of one layer beyond which a search gives up: kMaxCandidates (the tests lower
  // it to reach the way back to depth first).
  void limit(std::size_t candidates) { limit_ = candidates; }

  // The searches this thread has made (the tests check the frontier is used where they mean it).
  std::uint64_t searches() const { return searches_; }
  // The states its layers have held, over all its searches: the work done, whatever the clock
  // (a state's moves are generated once, from its layer).
  std::uint64_t states() const { return states_; }

  // Hands large buffers back (a contrived position must not keep its memory for ever).
  void release() {
    constexpr std::size_t kKeep = std::size_t{1} << 16;
    auto trim = [](auto& v) {
      if (v.capacity() > kKeep) std::decay_t<decltype(v)>().swap(v);
    };
    trim(layer_);
    trim(candidates_);
    trim(leaves_);
    if (table_.size() > kKeep) {
      table_.reset(0);
      stamp_ = 0;
    }
  }

 private:
  // The de-duplication table: zeroed memory mapped from the kernel, in huge pages where the
  // system gives them (the look-ups go all over it; small pages would add a page-table walk to
  // most of them).
  class Table {
   public:
    Table() = default;
    Table(const Table&) = delete;
    Table& operator=(const Table&) = delete;
    ~Table() { reset(0); }
    std::size_t size() const { return size_; }
    State& operator[](std::size_t i) { return data_[i]; }
    // n zeroed states (0: none).
    void reset(std::size_t n) {
      if (data_) ::munmap(data_, size_ * sizeof(State));
      data_ = nullptr;
      size_ = 0;
      if (n == 0) return;
      void* p = ::mmap(nullptr, n * sizeof(State), PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      if (p == MAP_FAILED) throw std::bad_alloc();
      ::madvise(p, n * sizeof(State), MADV_HUGEPAGE);  // advice only
      data_ = static_cast<State*>(p);
      size_ = n;
    }
    void clear() { std::fill(data_, data_ + size_, State{}); }

   private:
    State* data_ = nullptr;
    std::size_t size_ = 0;
  };

  std::vector<State> layer_;
  std::vector<State> candidates_;
  std::vector<Leaf> leaves_;
  Table table_;
  std::uint32_t stamp_ = 0;
  int best_rank_ = -1;
  std::uint64_t searches_ = 0;
  std::uint64_t states_ = 0;
  std::size_t limit_ = kMaxCandidates;
};

}  // namespace tsuru::movegen_detail
