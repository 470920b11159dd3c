#include "eval/egdb/part.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#include <filesystem>
#include <system_error>

#include "engine/rules/binary_io.hpp"
#include "eval/egdb/database.hpp"

namespace tsuru::egdb {
namespace {

std::uint64_t kings_of(const Layout& layout, const Slice& s) {
  const int free = layout.squares - s.wm - s.bm;
  return binomial(free, s.wk) * binomial(free - s.wk, s.bk);
}

SquareSet below(int square) {
  return (SquareSet{1} << square) - 1;
}

}  // namespace

SlicePart SlicePart::whole(const Layout& layout, const Slice& s) {
  SlicePart p = rear(layout, s, -1, -1);
  p.whole_ = true;
  return p;
}

SlicePart SlicePart::rear(const Layout& layout, const Slice& s, int white_rear, int black_rear) {
  SlicePart p;
  p.whole_ = false;
  p.kings_ = kings_of(layout, s);
  p.black_allowed_ = layout.men_allowed[1];
  p.black_men_ = s.bm;
  p.black_all_ = binomial(popcount(p.black_allowed_), s.bm);
  Box& b = p.box_[0];
  b.white_rear = white_rear;
  b.black_rear = black_rear;
  std::uint64_t white_count = binomial(popcount(layout.men_allowed[0]), s.wm);
  if (white_rear >= 0) {
    // The white men with their largest square the e-th allowed one: colexicographic ranks
    // C(e, wm) .. C(e + 1, wm) - 1, C(e, wm - 1) of them.
    const int e = popcount(layout.men_allowed[0] & below(white_rear));
    b.white_first = binomial(e, s.wm);
    white_count = binomial(e, s.wm - 1);
  }
  b.black_count = p.black_all_;
  if (black_rear >= 0) {
    b.beyond = p.black_allowed_ & ~((SquareSet{2} << black_rear) - 1);
    b.black_count = binomial(popcount(b.beyond), s.bm - 1);
  }
  b.size = white_count * b.black_count * p.kings_;
  return p;
}

SlicePart SlicePart::either(const SlicePart& a, const SlicePart& b) {
  SlicePart p = a;
  p.box_[1] = b.box_[0];
  p.boxes_ = 2;
  return p;
}

std::uint64_t SlicePart::box_index(const Box& b, std::uint64_t local) const {
  const std::uint64_t kings = local % kings_, men = local / kings_;
  std::uint64_t black = men % b.black_count;
  const std::uint64_t white = b.white_first + men / b.black_count;
  if (b.black_rear >= 0)
    black =
        subset_rank(subset_unrank(black, black_men_ - 1, b.beyond) | (SquareSet{1} << b.black_rear),
                    black_allowed_);
  return (white * black_all_ + black) * kings_ + kings;
}

std::uint64_t SlicePart::slice_index(std::uint64_t local) const {
  if (whole_) return local;
  if (boxes_ == 2 && local >= box_[0].size) return box_index(box_[1], local - box_[0].size);
  return box_index(box_[0], local);
}

std::optional<std::uint64_t> SlicePart::local(const Placement& p, std::uint64_t index) const {
  if (whole_) return index;
  std::uint64_t offset = 0;
  for (int k = 0; k < boxes_; offset += box_[k].size, ++k) {
    const Box& b = box_[k];
    if (b.white_rear >= 0 && static_cast<int>(std::bit_width(p.wm)) - 1 != b.white_rear) continue;
    if (b.black_rear >= 0 && std::countr_zero(p.bm) != b.black_rear) continue;
    const std::uint64_t kings = index % kings_, men = index / kings_;
    std::uint64_t black = men % black_all_;
    const std::uint64_t white = men / black_all_ - b.white_first;
    if (b.black_rear >= 0) black = subset_rank(p.bm & (p.bm - 1), b.beyond);
    return offset + (white * b.black_count + black) * kings_ + kings;
  }
  return std::nullopt;
}

bool splits(const Unit& u) {
  return u.first.men() > 0;
}

std::vector<UnitPart> unit_parts(const Layout& layout, const Unit& u) {
  std::vector<UnitPart> parts;
  if (!splits(u)) {
    UnitPart whole;
    whole.slice[0] = SlicePart::whole(layout, u.first);
    whole.slice[1] = SlicePart::whole(layout, u.second);
    parts.push_back(whole);
    return parts;
  }
  const int last = layout.squares - 1;
  // The squares White's rearmost man can stand on when White has `men` men (enough allowed
  // squares before it for the others), the most advanced first.
  const auto white_rears = [&](int men) {
    std::vector<int> squares;
    int seen = 0;
    for (Square x : squares_of(layout.men_allowed[0]))
      if (++seen >= men) squares.push_back(x);  // enough allowed squares before it
    return squares;
  };
  if (u.symmetric()) {
    // How far each side's rearmost man stands forward, a = S - 1 - (White's square) = (Black's
    // square): parts by the pair {a, b}, a <= b, the largest sum first.
    const Slice& s = u.first;
    std::vector<int> forward;
    for (int x : white_rears(s.wm)) forward.push_back(last - x);
    std::vector<std::pair<int, int>> pairs;
    for (std::size_t i = 0; i < forward.size(); ++i)
      for (std::size_t j = i; j < forward.size(); ++j)
        pairs.emplace_back(std::min(forward[i], forward[j]), std::max(forward[i], forward[j]));
    std::stable_sort(pairs.begin(), pairs.end(), [](const auto& p, const auto& q) {
      return p.first + p.second > q.first + q.second;
    });
    for (const auto& [a, b] : pairs) {
      UnitPart p;
      p.key = a * 64 + b;
      const SlicePart ab = SlicePart::rear(layout, s, last - a, b);
      p.slice[0] = a == b ? ab : SlicePart::either(ab, SlicePart::rear(layout, s, last - b, a));
      p.slice[1] = p.slice[0];
      parts.push_back(p);
    }
    return parts;
  }
  if (u.first.wm > 0) {
    // The first slice's White: his rearmost man on the largest square, the most advanced (the
    // smallest such square) first; in the second slice that man is Black's, turned round.
    for (int x : white_rears(u.first.wm)) {
      UnitPart p;
      p.key = x;
      p.slice[0] = SlicePart::rear(layout, u.first, x, -1);
      p.slice[1] = SlicePart::rear(layout, u.second, -1, last - x);
      parts.push_back(p);
    }
  } else {
    // The first slice's Black (White has only kings there), whom the second slice sees as
    // White: the same from the second slice's view.
    for (int x : white_rears(u.second.wm)) {
      UnitPart p;
      p.key = last - x;
      p.slice[0] = SlicePart::rear(layout, u.first, -1, last - x);
      p.slice[1] = SlicePart::rear(layout, u.second, x, -1);
      parts.push_back(p);
    }
  }
  return parts;
}

namespace {

constexpr char kPartMagic[8] = {'T', 'S', 'U', 'R', 'U', 'E', 'P', '\0'};
constexpr std::uint32_t kPartVersion = 1;

}  // namespace

// Layout (little-endian): magic "TSURUEP\0" | version u32 | rule set (16, NUL padded) | the
// unit's two slices (wm wk bm bk u8 each) | key i32 | then per slice of the unit (one when it is
// symmetric) its local positions u64, wins, draws, losses, invalid u64 and largest distance u32,
// and its values at two bits (packed_values.hpp) as u64 words | FNV-1a 64 of all before it.
std::vector<std::uint8_t> encode_part_file(std::string_view rules, const Unit& u,
                                           const UnitPart& part, const PartValues& v) {
  std::vector<std::uint8_t> out(kPartMagic, kPartMagic + 8);
  put_le(out, kPartVersion, 4);
  char name[16] = {};
  std::memcpy(name, rules.data(), std::min<std::size_t>(rules.size(), 15));
  out.insert(out.end(), name, name + 16);
  for (const Slice& s : {u.first, u.second})
    for (int x : {s.wm, s.wk, s.bm, s.bk}) put_le(out, static_cast<std::uint64_t>(x), 1);
  put_le(out, static_cast<std::uint32_t>(part.key), 4);
  for (int i = 0; i < (u.symmetric() ? 1 : 2); ++i) {
    const SliceCounts& c = v.counts[i];
    put_le(out, v.values[i].size(), 8);
    for (std::uint64_t x : {c.wins, c.draws, c.losses, c.invalid}) put_le(out, x, 8);
    put_le(out, c.max_distance, 4);
    for (std::uint64_t w : v.values[i].words()) put_le(out, w, 8);
  }
  put_le(out, fnv1a(out.data(), out.size()), 8);
  return out;
}

Expected<PartValues> read_part_file(const std::string& path, std::string_view rules, const Unit& u,
                                    const UnitPart& part) {
  using Result = Expected<PartValues>;
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return Result::failure("");
  auto file = MappedFile::open(path);
  if (!file) return Result::failure(file.error());
  const std::uint8_t* data = file->data();
  const std::size_t size = file->size();
  if (size < 8 + 4 + 16 + 8 + 4 + 8 || std::memcmp(data, kPartMagic, 8) != 0)
    return Result::failure("not a part file");
  if (get_le(data + size - 8, 8) != fnv1a(data, size - 8)) return Result::failure("checksum");
  if (get_le(data + 8, 4) != kPartVersion) return Result::failure("another format version");
  char name[17] = {};
  std::memcpy(name, data + 12, 16);
  if (std::string_view(name) != rules) return Result::failure("another rule set");
  const std::uint8_t* at = data + 28;
  for (const Slice& s : {u.first, u.second})
    for (int x : {s.wm, s.wk, s.bm, s.bk})
      if (*at++ != x) return Result::failure("another unit");
  if (static_cast<std::int32_t>(get_le(at, 4)) != part.key) return Result::failure("another part");
  at += 4;
  PartValues v;
  for (int i = 0; i < (u.symmetric() ? 1 : 2); ++i) {
    const std::uint8_t* end = data + size - 8;
    if (end - at < 8 * 5 + 4) return Result::failure("too short");
    const std::uint64_t n = get_le(at, 8);
    if (n != part.slice[i].size()) return Result::failure("another part size");
    SliceCounts& c = v.counts[i];
    c.positions = n;
    c.wins = get_le(at + 8, 8);
    c.draws = get_le(at + 16, 8);
    c.losses = get_le(at + 24, 8);
    c.invalid = get_le(at + 32, 8);
    c.max_distance = static_cast<std::uint32_t>(get_le(at + 40, 4));
    at += 44;
    const std::uint64_t words = (n + 31) / 32;
    if (static_cast<std::uint64_t>(end - at) < 8 * words) return Result::failure("too short");
    std::vector<std::uint64_t> w(words);
    for (std::uint64_t k = 0; k < words; ++k, at += 8) w[k] = get_le(at, 8);
    v.values[i] = *PackedValues::from_words(n, std::move(w));
  }
  if (at != data + size - 8) return Result::failure("unexpected bytes after the values");
  return v;
}

std::uint64_t build_memory(const Layout& layout, const Unit& u, int distance_pieces,
                           bool in_parts) {
  std::uint64_t unit = slice_size(layout, u.first);
  if (!u.symmetric()) unit += slice_size(layout, u.second);
  std::uint64_t needed = 0;
  for (const Slice& s : slices_needed(u)) {
    const std::uint64_t n = slice_size(layout, s);
    needed += s.pieces() <= distance_pieces ? 2 * n : (n + 3) / 4;
  }
  std::uint64_t solving = 4 * unit;
  if (in_parts && splits(u) && u.pieces() > distance_pieces) {
    std::uint64_t largest = 0;
    for (const UnitPart& p : unit_parts(layout, u))
      largest = std::max(largest, p.slice[0].size() + (u.symmetric() ? 0 : p.slice[1].size()));
    solving = 4 * largest + unit / 2;
  }
  return solving + needed + (std::uint64_t{64} << 20);
}

}  // namespace tsuru::egdb
