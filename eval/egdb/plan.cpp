#include "eval/egdb/plan.hpp"

#include <algorithm>

namespace tsuru::egdb {

Unit unit_of(const Slice& s) {
  const Slice m = s.mirrored();
  return s.code() <= m.code() ? Unit{s, m} : Unit{m, s};
}

std::vector<Slice> slices_with(int pieces) {
  std::vector<Slice> out;
  for (int wm = 0; wm <= pieces; ++wm)
    for (int wk = 0; wm + wk <= pieces; ++wk)
      for (int bm = 0; wm + wk + bm <= pieces; ++bm) {
        const Slice s{wm, wk, bm, pieces - wm - wk - bm};
        if (s.wm + s.wk > 0 && s.bm + s.bk > 0) out.push_back(s);
      }
  return out;
}

std::vector<Unit> plan(int max_pieces) {
  std::vector<Unit> units;
  for (int n = 2; n <= max_pieces; ++n) {
    std::vector<Slice> slices = slices_with(n);
    std::stable_sort(slices.begin(), slices.end(), [](const Slice& a, const Slice& b) {
      return a.men() != b.men() ? a.men() < b.men() : a.code() < b.code();
    });
    for (const Slice& s : slices)
      if (unit_of(s).first == s) units.push_back(unit_of(s));
  }
  return units;
}

std::vector<Slice> slices_after(const Slice& s) {
  std::vector<Slice> out;
  for (int crowned = 0; crowned <= std::min(1, s.wm); ++crowned)
    for (int bm = 0; bm <= s.bm; ++bm)
      for (int bk = 0; bk <= s.bk; ++bk) {
        const Slice after{s.wm - crowned, s.wk + crowned, bm, bk};
        if (after.bm + after.bk == 0 || after == s) continue;
        out.push_back(after.mirrored());
      }
  return out;
}

std::vector<Slice> slices_needed(const Unit& u) {
  std::vector<Slice> out;
  std::vector<Slice> loaded;  // needed files whose capture positions must be restored
  for (const Slice& s : {u.first, u.second})
    for (const Slice& t : slices_after(s)) {
      if (t == u.first || t == u.second) continue;
      if (std::find(out.begin(), out.end(), t) != out.end()) continue;
      out.push_back(t);
      loaded.push_back(t);
    }
  while (!loaded.empty()) {
    const Slice t = loaded.back();
    loaded.pop_back();
    for (const Slice& c : slices_after(t)) {
      if (c.pieces() >= t.pieces()) continue;
      if (std::find(out.begin(), out.end(), c) != out.end()) continue;
      out.push_back(c);
      loaded.push_back(c);
    }
  }
  std::sort(out.begin(), out.end(),
            [](const Slice& a, const Slice& b) { return a.code() < b.code(); });
  return out;
}

std::vector<Unit> units_needed(const Unit& u) {
  std::vector<Unit> out;
  const std::vector<Slice> needed = slices_needed(u);
  for (const Unit& candidate : plan(u.pieces()))
    for (const Slice& s : needed)
      if (unit_of(s).first == candidate.first) {
        out.push_back(candidate);
        break;
      }
  return out;
}

std::uint64_t legal_positions(const Layout& layout, int pieces) {
  // Men of each colour: only in the rows both may stand on, or on the one row only they may.
  const int both = popcount(layout.men_allowed[0] & layout.men_allowed[1]);
  const int own_w = popcount(layout.men_allowed[0] & ~layout.men_allowed[1]);
  const int own_b = popcount(layout.men_allowed[1] & ~layout.men_allowed[0]);
  std::uint64_t total = 0;
  for (int wm = 0; wm <= pieces; ++wm)
    for (int bm = 0; wm + bm <= pieces; ++bm) {
      std::uint64_t men = 0;
      for (int a = 0; a <= std::min(wm, own_w); ++a)
        for (int b = 0; b <= std::min(bm, own_b); ++b)
          men += binomial(own_w, a) * binomial(own_b, b) * binomial(both, wm - a) *
                 binomial(both - (wm - a), bm - b);
      const int free = layout.squares - wm - bm;
      for (int wk = 0; wm + bm + wk <= pieces; ++wk) {
        const int bk = pieces - wm - bm - wk;
        total += men * binomial(free, wk) * binomial(free - wk, bk);
      }
    }
  return total;
}

std::uint64_t one_sided_positions(const Layout& layout, int pieces) {
  std::uint64_t total = 0;
  for (int side = 0; side < 2; ++side) {
    const int men_squares = popcount(layout.men_allowed[side]);
    for (int m = 0; m <= std::min(pieces, men_squares); ++m)
      total += binomial(men_squares, m) * binomial(layout.squares - m, pieces - m);
  }
  return total;
}

std::string file_name(std::string_view rules, const Slice& s) {
  return std::string(rules) + "-" + s.name() + ".egdb";
}

}  // namespace tsuru::egdb
