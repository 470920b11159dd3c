// The 121-point star of two-player Chinese checkers (docs/chinese.md): points, the six
// directions, the goal triangles and a 128-bit point set, all as tables built at compile time.
//
// Points are numbered 0..120 in this file (the notation adds 1): row by row from the top of the
// star as Red sees it (Red starts at the bottom and moves up), left to right within a row. The
// rows hold 1, 2, 3, 4, 13, 12, 11, 10, 9, 10, 11, 12, 13, 4, 3, 2, 1 points. In cube
// coordinates (x + y + z = 0, z = row - 8) the star is the union of the two triangles
// {x, y, z >= -4} and {x, y, z <= 4}; a point's neighbours differ by one unit in two
// coordinates.
#pragma once

#include <array>
#include <bit>
#include <cstdint>

namespace tsuru::chinese {

__extension__ typedef unsigned __int128 Bits;  // one bit per point; __extension__: not ISO C++

inline constexpr int kPoints = 121;
inline constexpr int kRows = 17;
inline constexpr int kDirections = 6;
inline constexpr int kPieces = 10;  // per side
inline constexpr std::int8_t kNone = -1;

enum class Side : std::uint8_t { Red, Blue };
constexpr Side opponent(Side s) {
  return s == Side::Red ? Side::Blue : Side::Red;
}
constexpr int index(Side s) {
  return s == Side::Red ? 0 : 1;
}

constexpr Bits bit(int p) {
  return Bits{1} << p;
}
constexpr int count(Bits b) {
  return std::popcount(static_cast<std::uint64_t>(b)) +
         std::popcount(static_cast<std::uint64_t>(b >> 64));
}
constexpr int lowest(Bits b) {
  const auto lo = static_cast<std::uint64_t>(b);
  return lo ? std::countr_zero(lo) : 64 + std::countr_zero(static_cast<std::uint64_t>(b >> 64));
}
// Calls f(point) for each point of b, lowest first.
template <class F>
constexpr void for_each(Bits b, F&& f) {
  while (b) {
    f(lowest(b));
    b &= b - 1;
  }
}

struct Geometry {
  std::array<std::int8_t, kPoints> row{};
  std::array<std::int8_t, kPoints> x{};  // cube x; y = -x - z
  // neighbour[p][d]: the adjacent point in direction d, kNone off the star. Directions come in
  // opposite pairs: d and d ^ 1.
  std::array<std::array<std::int8_t, kDirections>, kPoints> neighbour{};
  std::array<Bits, kPoints> adjacent{};  // all neighbours of a point
  std::array<int, kRows> row_start{};    // first point of each row
  std::array<int, kRows> row_length{};
  Bits goal[2]{};   // [Red, Blue]: Red's goal is the top triangle, Blue's the bottom one
  Bits start[2]{};  // each side's starting triangle (the other's goal)
};

namespace detail {
constexpr bool on_star(int x, int z) {
  const int y = -x - z;
  return (x >= -4 && y >= -4 && z >= -4) || (x <= 4 && y <= 4 && z <= 4);
}
// (dx, dz) per direction: east, west, north-east, south-west, north-west, south-east.
inline constexpr int kDx[kDirections] = {1, -1, 1, -1, 0, 0};
inline constexpr int kDz[kDirections] = {0, 0, -1, 1, -1, 1};

constexpr Geometry make_geometry() {
  Geometry g{};
  std::array<std::array<std::int8_t, 17>, 17> at{};  // [row][x + 8] -> point, or kNone
  for (auto& r : at) r.fill(kNone);
  int n = 0;
  for (int r = 0; r < kRows; ++r) {
    g.row_start[static_cast<std::size_t>(r)] = n;
    for (int x = -8; x <= 8; ++x) {
      if (!on_star(x, r - 8)) continue;
      g.row[static_cast<std::size_t>(n)] = static_cast<std::int8_t>(r);
      g.x[static_cast<std::size_t>(n)] = static_cast<std::int8_t>(x);
      at[static_cast<std::size_t>(r)][static_cast<std::size_t>(x + 8)] =
          static_cast<std::int8_t>(n);
      ++n;
    }
    g.row_length[static_cast<std::size_t>(r)] = n - g.row_start[static_cast<std::size_t>(r)];
  }
  for (int p = 0; p < kPoints; ++p) {
    const auto up = static_cast<std::size_t>(p);
    for (int d = 0; d < kDirections; ++d) {
      const int x = g.x[up] + kDx[d];
      const int r = g.row[up] + kDz[d];
      std::int8_t q = kNone;
      if (x >= -8 && x <= 8 && r >= 0 && r < kRows)
        q = at[static_cast<std::size_t>(r)][static_cast<std::size_t>(x + 8)];
      g.neighbour[up][static_cast<std::size_t>(d)] = q;
      if (q != kNone) g.adjacent[up] |= bit(q);
    }
    if (g.row[up] <= 3) g.goal[0] |= bit(p);
    if (g.row[up] >= 13) g.goal[1] |= bit(p);
  }
  g.start[0] = g.goal[1];
  g.start[1] = g.goal[0];
  return g;
}
}  // namespace detail

inline constexpr Geometry kGeometry = detail::make_geometry();
static_assert(kGeometry.row_start[16] == 120 && kGeometry.row_length[8] == 9);
static_assert(count(kGeometry.goal[0]) == kPieces && count(kGeometry.goal[1]) == kPieces);

inline constexpr Bits kAllPoints = (Bits{1} << kPoints) - 1;

// Rows a side still has to travel: Red counts rows up to the top (row 0), Blue down to row 16.
constexpr int rows_to_go(Side s, int p) {
  const int r = kGeometry.row[static_cast<std::size_t>(p)];
  return s == Side::Red ? r : kRows - 1 - r;
}

}  // namespace tsuru::chinese
