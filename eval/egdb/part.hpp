// Parts of a build unit: the unit's positions split by the squares of the rearmost men, so that
// a unit too large for memory is solved a part at a time (docs/egdb.md, "Parts").
//
// A man only moves forward, so a side's rearmost man never goes back: a quiet move keeps a
// position in its part or takes it to a part where that man stands further forward. Parts are
// solved most advanced first; a move out of the part being solved leads to a part solved before
// it (its values final), and an undone move out of it to a part solved after it (which finds
// this one's values when its own moves are looked at). Captures and crownings leave the unit.
//
// - A unit of two slices is split by the rearmost man of one side (White's in the first slice
//   when it has men there, else Black's): in the slice where that side is White, his square is
//   the leading square of the white men's colexicographic rank, so the part is one range of the
//   slice's indices; in the other slice the side is Black, and the part is numbered by the white
//   men, then the other black men among the squares past the key man's, then the kings.
// - A symmetric unit is one slice holding both sides to move, so a move there swaps the sides'
//   roles: it is split by the pair of both sides' rearmost men, how far each stands forward, as
//   an unordered pair (the two orders are both in the part, one after the other), the parts
//   with the larger sum first.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "engine/rules/expected.hpp"
#include "eval/egdb/format.hpp"
#include "eval/egdb/index.hpp"
#include "eval/egdb/packed_values.hpp"
#include "eval/egdb/plan.hpp"

namespace tsuru::egdb {

// The positions of one slice that belong to a part, with their local numbering.
class SlicePart {
 public:
  // Every position of the slice (a unit solved whole): local index = slice index.
  static SlicePart whole(const Layout& layout, const Slice& s);
  // The positions whose white men's rearmost (largest) square is white_rear and whose black
  // men's rearmost (smallest) square is black_rear; -1: any.
  static SlicePart rear(const Layout& layout, const Slice& s, int white_rear, int black_rear);
  // The positions of either (disjoint) part: a's local indices, then b's.
  static SlicePart either(const SlicePart& a, const SlicePart& b);

  std::uint64_t size() const { return boxes_ == 2 ? box_[0].size + box_[1].size : box_[0].size; }
  // Whether the key includes White's rearmost man, so that his quiet moves (White is to move)
  // may leave the part.
  bool white_keyed() const { return box_[0].white_rear >= 0; }
  // The slice index of a local index (< size()).
  std::uint64_t slice_index(std::uint64_t local) const;
  // The local index of a position of the slice (p its placement, index its slice index), or
  // nullopt when it is not in the part.
  std::optional<std::uint64_t> local(const Placement& p, std::uint64_t index) const;

 private:
  // Positions with each side's rearmost man on a given square or anywhere.
  struct Box {
    int white_rear = -1, black_rear = -1;
    std::uint64_t size = 0;
    std::uint64_t white_first = 0;  // the first white men's rank with that rearmost square
    std::uint64_t black_count = 1;  // placements of the black men in the box
    SquareSet beyond = 0;           // the black men's squares past the rearmost one's
  };
  std::uint64_t box_index(const Box& b, std::uint64_t local) const;

  Box box_[2];
  int boxes_ = 1;
  bool whole_ = true;
  std::uint64_t kings_ = 1;      // placements of the kings for given men
  std::uint64_t black_all_ = 1;  // placements of the black men in the slice
  SquareSet black_allowed_ = 0;
  int black_men_ = 0;
};

// One part of a unit: the same key's positions in both its slices.
struct UnitPart {
  int key = -1;        // names the part's file (-1: the whole unit)
  SlicePart slice[2];  // of unit.first and unit.second (one when the unit is symmetric)
};

// The parts of a unit in the order they are solved; one whole part when it has no men.
std::vector<UnitPart> unit_parts(const Layout& layout, const Unit& u);
// Whether unit_parts splits the unit.
bool splits(const Unit& u);

// A solved part's values while its unit is built, by local index, and their counts.
struct PartValues {
  PackedValues values[2];
  SliceCounts counts[2];
};

// The part file that keeps a solved part until its unit's slices are written (docs/formats.md,
// "Part files"), and back: the error is empty when there is no file, else why it is not the
// part's (then the part is solved again).
std::vector<std::uint8_t> encode_part_file(std::string_view rules, const Unit& u,
                                           const UnitPart& part, const PartValues& v);
Expected<PartValues> read_part_file(const std::string& path, std::string_view rules, const Unit& u,
                                    const UnitPart& part);

// The memory a unit's build takes at its peak, in bytes, estimated from the slices' sizes (the
// generator's arrays, eval/egdb/generator.hpp), with the slices it needs decoded in memory: 2
// bytes an index with distances (up to distance_pieces pieces), a quarter byte without
// (eval/egdb/packed_values.hpp); and 64 MiB for the program.
//   whole: per index of the unit its value (2 bytes), its count of moves (1) and the two bits
//          that mark a distance, or when the files are written the value, the capture mask and
//          the encoded bytes: 4 bytes an index.
//   in parts (a unit that splits and has no distances; else as whole): per index of the largest
//          part the same 4 bytes; per index of the unit its value
//          once solved (a quarter byte), and when the files are written the capture mask (an
//          eighth) and the encoded bytes (an eighth at most, in practice far less).
std::uint64_t build_memory(const Layout& layout, const Unit& u, int distance_pieces, bool in_parts);

}  // namespace tsuru::egdb
