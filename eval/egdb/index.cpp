#include "eval/egdb/index.hpp"

#include <bit>
#include <cctype>
#include <vector>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace tsuru::egdb {
namespace {

constexpr int kMaxK = 16;

struct Binomials {
  std::uint64_t c[65][kMaxK + 1] = {};
  constexpr Binomials() {
    for (int n = 0; n <= 64; ++n) {
      c[n][0] = 1;
      for (int k = 1; k <= kMaxK; ++k) c[n][k] = n == 0 ? 0 : c[n - 1][k - 1] + c[n - 1][k];
    }
  }
};
constexpr Binomials kBinomials;

__extension__ using Wide = unsigned __int128;  // not ISO C++: GCC's and Clang's

// The subsets of k squares among the first 32, by colexicographic rank, for k up to
// kTableK: the colex rank of a set does not depend on how many squares there are to choose
// from, so one table per k serves every slice. 166 KB in all (C(32, 4) = 35,960 entries for
// k = 4), which stays in the level-2 cache during a build.
constexpr int kTableK = 4;

struct UnrankTables {
  std::vector<std::uint32_t> subsets[kTableK + 1];
  UnrankTables() {
    for (int k = 1; k <= kTableK; ++k) {
      auto& t = subsets[k];
      t.resize(kBinomials.c[32][k]);
      // Colex order is the order of the subsets' values as 32-bit words: walk them with
      // Gosper's step (the next larger word with as many bits).
      std::uint64_t v = (std::uint64_t{1} << k) - 1;
      for (std::uint32_t& entry : t) {
        entry = static_cast<std::uint32_t>(v);
        const std::uint64_t low = v & (~v + 1), ripple = v + low;
        v = ripple | (((v ^ ripple) >> 2) / low);
      }
    }
  }
};
// Built at the first use (not with the other globals: another file's may unrank first).
const UnrankTables& unrank_tables() {
  static const UnrankTables tables;
  return tables;
}

}  // namespace

std::uint64_t subset_rank(SquareSet chosen, SquareSet available) {
  std::uint64_t r = 0;
  int i = 0;
  for (Square s : squares_of(chosen)) {
    const int idx = popcount(available & ((SquareSet{1} << s) - 1));
    r += kBinomials.c[idx][++i];
  }
  return r;
}

// Opens a gap at each square available lacks, lowest first: a slice's sets lack few squares
// (the men, a crowning row), so this beats a select loop per bit.
SquareSet deposit_portable(SquareSet compact, SquareSet available) {
  const int width = static_cast<int>(std::bit_width(available));
  SquareSet holes = ~available & (width == 64 ? ~SquareSet{0} : (SquareSet{1} << width) - 1);
  while (holes) {
    const int h = std::countr_zero(holes);
    holes &= holes - 1;
    const SquareSet low = compact & ((SquareSet{1} << h) - 1);
    if (low == compact) break;  // nothing at or above this gap
    compact = low | ((compact >> h) << (h + 1));
  }
  return compact;
}

namespace {

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
// The same as one instruction, BMI2's pdep, compiled for the processors that have it and used
// only on Intel's: AMD's before Zen 3 run it in microcode, slower than the loop.
__attribute__((target("bmi2"))) SquareSet deposit_bmi2(SquareSet compact, SquareSet available) {
  return _pdep_u64(compact, available);
}
const bool kFastDeposit = [] {
  __builtin_cpu_init();
  return __builtin_cpu_supports("bmi2") && __builtin_cpu_is("intel");
}();
SquareSet deposit(SquareSet compact, SquareSet available) {
  return kFastDeposit ? deposit_bmi2(compact, available) : deposit_portable(compact, available);
}
#else
SquareSet deposit(SquareSet compact, SquareSet available) {
  return deposit_portable(compact, available);
}
#endif

}  // namespace

SquareSet subset_unrank(std::uint64_t r, int k, SquareSet available) {
  SquareSet compact = 0;
  int x = popcount(available) - 1;
  for (int i = k; i >= 1; --i) {
    if (i == 1) {  // C(x, 1) = x
      compact |= SquareSet{1} << r;
      break;
    }
    if (i <= kTableK && r < kBinomials.c[32][i]) {  // the rest lies in the first 32 squares
      compact |= unrank_tables().subsets[i][r];
      break;
    }
    // The largest x with C(x, i) <= r, scanning down from the last element's square: over the
    // whole subset x only descends, so the scans take at most |available| steps together.
    while (kBinomials.c[x][i] > r) --x;
    r -= kBinomials.c[x][i];
    compact |= SquareSet{1} << x;
    --x;
  }
  return deposit(compact, available);
}

std::string Slice::name() const {
  std::string s;
  for (int v : {wm, wk, bm, bk}) s += static_cast<char>('0' + v);
  return s;
}

std::optional<Slice> Slice::parse(const std::string& text) {
  if (text.size() != 4) return std::nullopt;
  int v[4];
  for (std::size_t i = 0; i < 4; ++i) {
    if (!std::isdigit(static_cast<unsigned char>(text[i]))) return std::nullopt;
    v[i] = text[i] - '0';
  }
  Slice s{v[0], v[1], v[2], v[3]};
  if (s.wm + s.wk == 0 || s.bm + s.bk == 0) return std::nullopt;
  return s;
}

SquareSet Layout::to_squares(Bitboard b) const {
  SquareSet s = 0;
  for (Square q : squares_of(b)) s |= SquareSet{1} << square_of[static_cast<std::size_t>(q)];
  return s;
}

Bitboard Layout::to_bits(SquareSet s) const {
  Bitboard b = 0;
  for (Square q : squares_of(s)) b |= bit(bit_of[static_cast<std::size_t>(q)]);
  return b;
}

SquareSet Layout::turned(SquareSet s) const {
  // Square q to S-1-q: the 64 bits reversed, then shifted down by the unused top bits.
  s = ((s >> 1) & 0x5555555555555555ULL) | ((s & 0x5555555555555555ULL) << 1);
  s = ((s >> 2) & 0x3333333333333333ULL) | ((s & 0x3333333333333333ULL) << 2);
  s = ((s >> 4) & 0x0F0F0F0F0F0F0F0FULL) | ((s & 0x0F0F0F0F0F0F0F0FULL) << 4);
  s = __builtin_bswap64(s);
  return s >> (64 - squares);
}

std::uint64_t binomial(int n, int k) {
  if (n < 0 || k < 0 || k > kMaxK || n > 64) return 0;
  return kBinomials.c[n][k];
}

std::uint64_t slice_size(const Layout& layout, const Slice& s) {
  const int wa = popcount(layout.men_allowed[0]), ba = popcount(layout.men_allowed[1]);
  const int free = layout.squares - s.wm - s.bm;
  return binomial(wa, s.wm) * binomial(ba, s.bm) * binomial(free, s.wk) *
         binomial(free - s.wk, s.bk);
}

std::uint64_t rank(const Layout& layout, const Slice& s, const Placement& p) {
  const int ba = popcount(layout.men_allowed[1]);
  const int free = layout.squares - s.wm - s.bm;
  const SquareSet free_sq = layout.all & ~(p.wm | p.bm);
  std::uint64_t r = subset_rank(p.wm, layout.men_allowed[0]);
  r = r * binomial(ba, s.bm) + subset_rank(p.bm, layout.men_allowed[1]);
  r = r * binomial(free, s.wk) + subset_rank(p.wk, free_sq);
  r = r * binomial(free - s.wk, s.bk) + subset_rank(p.bk, free_sq & ~p.wk);
  return r;
}

SliceUnranker::SliceUnranker(const Layout& layout, const Slice& s)
    : slice_(s), all_(layout.all), men_allowed_{layout.men_allowed[0], layout.men_allowed[1]} {
  const int free = layout.squares - s.wm - s.bm;
  const std::uint64_t size = slice_size(layout, s);
  const auto divisor = [&](std::uint64_t d) {
    Divisor x{d, 0};
    // Every dividend is below the slice's size: the product bound holds for all when it holds
    // for size * d. Then m = floor((2^64 - 1) / d) + 1 is within 1 of 2^64 / d, and the error
    // it adds to n / d, under n / 2^64 < 1 / d, never crosses an integer.
    if (d > 1 && static_cast<Wide>(size) * d < (static_cast<Wide>(1) << 64))
      x.m = ~std::uint64_t{0} / d + 1;
    return x;
  };
  bk_ = divisor(binomial(free - s.wk, s.bk));
  wk_ = divisor(binomial(free, s.wk));
  bm_ = divisor(binomial(popcount(layout.men_allowed[1]), s.bm));
}

std::uint64_t SliceUnranker::Divisor::quotient(std::uint64_t n) const {
  if (m) return static_cast<std::uint64_t>((static_cast<Wide>(n) * m) >> 64);
  return d == 1 ? n : n / d;
}

std::optional<Placement> SliceUnranker::operator()(std::uint64_t index) const {
  const Slice& s = slice_;
  std::uint64_t q = bk_.quotient(index);
  const std::uint64_t r_bk = index - q * bk_.d;
  index = q;
  q = wk_.quotient(index);
  const std::uint64_t r_wk = index - q * wk_.d;
  index = q;
  const std::uint64_t r_wm = bm_.quotient(index), r_bm = index - r_wm * bm_.d;
  Placement p;
  p.wm = subset_unrank(r_wm, s.wm, men_allowed_[0]);
  p.bm = subset_unrank(r_bm, s.bm, men_allowed_[1]);
  if (p.wm & p.bm) return std::nullopt;
  const SquareSet free_sq = all_ & ~(p.wm | p.bm);
  p.wk = subset_unrank(r_wk, s.wk, free_sq);
  p.bk = subset_unrank(r_bk, s.bk, free_sq & ~p.wk);
  return p;
}

std::optional<Placement> unrank(const Layout& layout, const Slice& s, std::uint64_t index) {
  return SliceUnranker(layout, s)(index);
}

std::optional<Located> locate(const Layout& layout, const Position& pos) {
  Placement p;
  const bool flipped = pos.turn() == Side::Black;
  const Side us = pos.turn(), them = opponent(us);
  p.wm = layout.to_squares(pos.men(us));
  p.wk = layout.to_squares(pos.kings(us));
  p.bm = layout.to_squares(pos.men(them));
  p.bk = layout.to_squares(pos.kings(them));
  if (flipped) {
    p.wm = layout.turned(p.wm);
    p.wk = layout.turned(p.wk);
    p.bm = layout.turned(p.bm);
    p.bk = layout.turned(p.bk);
  }
  if ((p.wm & ~layout.men_allowed[0]) || (p.bm & ~layout.men_allowed[1])) return std::nullopt;
  const Slice s{popcount(p.wm), popcount(p.wk), popcount(p.bm), popcount(p.bk)};
  if (s.wm + s.wk == 0 || s.bm + s.bk == 0) return std::nullopt;
  return Located{s, rank(layout, s, p), flipped, p};
}

Position position_of(const Layout& layout, const Placement& p) {
  const Position board = board_of(layout, p);
  return Position::from_bitboards(board.pieces(Side::White), board.pieces(Side::Black),
                                  board.kings(), Side::White);
}

Position board_of(const Layout& layout, const Placement& p) {
  const Bitboard white = layout.to_bits(p.wm | p.wk), black = layout.to_bits(p.bm | p.bk);
  return Position::unkeyed(white, black, layout.to_bits(p.wk | p.bk), Side::White);
}

}  // namespace tsuru::egdb
