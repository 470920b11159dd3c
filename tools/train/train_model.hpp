// The trainer's model (tools/train/trainer.hpp): the pattern evaluation's features
// (eval/pattern_features.hpp) as a sparse linear model in floating point, one parameter per
// feature and phase, and its folding into a weights file's integers.
//
// Parameters, by group:
//   men windows     a part per region and a part shared by all regions (the same state anywhere
//                   on the board), added together when the weights are written: rare states
//                   borrow from the shared part while data is short;
//   wide windows    (optionally) a part per window and a part shared by the windows of the same
//                   row band (the same rows from the side to move's back row, any column: 4
//                   tables for 12 windows on 10x10, 3 for 6 on 8x8), added together when the
//                   weights are written; a state never seen keeps its zero weight, which the
//                   file codes in a few bytes;
//   king windows    the shared table, and (optionally) one per region; they stay apart in the
//                   file, as the evaluation reads them;
//   king squares, linear terms.
// A position becomes a list of (parameter, value) entries: each feature gives its opening
// parameter the opening share of the position's phase and its endgame parameter the rest.
#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <string_view>
#include <vector>

#include "eval/pattern.hpp"

namespace tsuru::train {

enum ParamGroup : int {
  kMenGroup,
  kWideGroup,
  kWideBandGroup,
  kKingWindowGroup,
  kRegionKingGroup,
  kKingSquareGroup,
  kLinearGroup,
  kParamGroups
};
inline constexpr std::array<std::string_view, kParamGroups> kGroupNames = {
    "men", "wide", "wide-bands", "kings", "region-kings", "king-squares", "linear"};

struct Entry {
  std::uint32_t index;
  float value;
};

template <class R>
class Model {
  using G = typename R::Geometry;
  static constexpr std::size_t kRegions = eval::PatternLayout<G>::kRegions;
  static constexpr std::size_t kWide = eval::WideLayout<G>::kWindows;
  // The row bands of the wide windows (their row offsets); none without wide windows.
  static constexpr std::size_t kWideBands = [] {
    if constexpr (eval::WideLayout<G>::kWindows > 0)
      return static_cast<std::size_t>(eval::WideLayout<G>::kRowOffsets);
    else
      return std::size_t{0};
  }();
  static constexpr std::size_t band_of(std::size_t j) {
    if constexpr (eval::WideLayout<G>::kWindows > 0)
      return j / static_cast<std::size_t>(eval::WideLayout<G>::kColOffsets);
    else
      return 0;
  }
  static constexpr std::size_t kSquares = G::kSquares;
  static constexpr std::size_t P = eval::kPhases;

 public:
  Model(bool region_kings, bool wide) : region_kings_(region_kings), wide_(wide) {
    std::size_t at = 0;
    auto place = [&](std::size_t n) {
      const std::size_t start = at;
      at += n;
      return start;
    };
    men_ = place(kRegions * eval::kRegionStates * P);
    men_shared_ = place(eval::kRegionStates * P);
    wide_base_ = place(wide ? kWide * eval::kWideStates * P : 0);
    wide_band_ = place(wide ? kWideBands * eval::kWideStates * P : 0);
    king_shared_ = place(eval::kKingStates * P);
    king_region_ = place(region_kings ? kRegions * eval::kKingStates * P : 0);
    king_square_ = place(2 * kSquares * P);
    linear_ = place(P * eval::kLinearCount);
    size_ = at;
  }

  std::size_t size() const { return size_; }
  bool region_kings() const { return region_kings_; }

  ParamGroup group(std::size_t i) const {
    if (i < wide_base_) return kMenGroup;
    if (i < wide_band_) return kWideGroup;
    if (i < king_shared_) return kWideBandGroup;
    if (i < king_region_) return kKingWindowGroup;
    if (i < king_square_) return kRegionKingGroup;
    if (i < linear_) return kKingSquareGroup;
    return kLinearGroup;
  }

  // pos's entries, appended to out.
  void entries(const Position& pos, std::vector<Entry>& out) const {
    const auto op = static_cast<float>(eval::opening_share<R>(pos)), ep = 1 - op;
    struct Visit {
      const Model& m;
      std::vector<Entry>& out;
      float op, ep;
      bool wide_windows() const { return m.wide_; }
      void wide(int j, int s) {
        const auto w = static_cast<std::size_t>(j), state = static_cast<std::size_t>(s);
        pair(m.wide_base_ + (w * eval::kWideStates + state) * P, 1);
        pair(m.wide_band_ + (band_of(w) * eval::kWideStates + state) * P, 1);
      }
      void pair(std::size_t base, float x) {
        out.push_back({static_cast<std::uint32_t>(base), x * op});
        out.push_back({static_cast<std::uint32_t>(base + 1), x * ep});
      }
      void men(int j, int s) {
        pair(m.men_ +
                 (static_cast<std::size_t>(j) * eval::kRegionStates + static_cast<std::size_t>(s)) *
                     P,
             1);
        pair(m.men_shared_ + static_cast<std::size_t>(s) * P, 1);
      }
      void king_window(int j, int s) {
        pair(m.king_shared_ + static_cast<std::size_t>(s) * P, 1);
        if (m.region_kings_)
          pair(m.king_region_ +
                   (static_cast<std::size_t>(j) * eval::kKingStates + static_cast<std::size_t>(s)) *
                       P,
               1);
      }
      void king_square(int other, int sq) {
        pair(m.king_square_ +
                 (static_cast<std::size_t>(other) * kSquares + static_cast<std::size_t>(sq)) * P,
             1);
      }
      void linear(int k, int xi) {
        const auto x = static_cast<float>(xi);
        out.push_back(
            {static_cast<std::uint32_t>(m.linear_ + static_cast<std::size_t>(k)), x * op});
        out.push_back({static_cast<std::uint32_t>(m.linear_ + eval::kLinearCount +
                                                  static_cast<std::size_t>(k)),
                       x * ep});
      }
    };
    eval::visit_features<R>(pos, Visit{*this, out, op, ep});
  }

  // The starting point: material as the classic evaluation starts it (a man 100, a king by how
  // far it reaches; in the losing games both are burdens, eval_antidraughts.hpp), nothing for a
  // correction to the classic evaluation (on_classic), or the weights given.
  std::vector<float> initial(const eval::PatternWeights* from, bool on_classic = false) const {
    std::vector<float> theta(size_, 0.0f);
    if (!from && on_classic) return theta;
    if (!from) {
      const float sign = R::kNoMoveWins ? -1.0f : 1.0f;
      for (std::size_t p = 0; p < P; ++p) {
        theta[linear_ + p * eval::kLinearCount + eval::kMen] = sign * 100.0f;
        theta[linear_ + p * eval::kLinearCount + eval::kKings] =
            sign * (R::kFlyingKings ? 300.0f : 140.0f);
      }
      return theta;
    }
    auto copy = [&](const std::vector<std::int16_t>& w, std::size_t base) {
      for (std::size_t i = 0; i < w.size(); ++i)
        theta[base + i] = static_cast<float>(w[i]) / eval::kWeightScale;
    };
    copy(from->region, men_);
    if (wide_) copy(from->wide, wide_base_);
    copy(from->king_shared, king_shared_);
    if (region_kings_) copy(from->king_region, king_region_);
    copy(from->king_square, king_square_);
    for (std::size_t p = 0; p < P; ++p)
      for (std::size_t k = 0; k < eval::kLinearCount; ++k)
        theta[linear_ + p * eval::kLinearCount + k] =
            static_cast<float>(from->linear[p][k]) / eval::kWeightScale;
    return theta;
  }

  // The weights a file holds: men windows with their shared part folded in, in quarter
  // centi-men.
  eval::PatternWeights fold(Variant v, const std::vector<float>& theta) const {
    eval::PatternWeights w = eval::PatternWeights::zero(v, region_kings_, wide_);
    const std::size_t states = eval::kRegionStates * P;
    for (std::size_t j = 0; j < kRegions; ++j)
      for (std::size_t i = 0; i < states; ++i)
        w.region[j * states + i] = quantize(static_cast<double>(theta[men_ + j * states + i]) +
                                            static_cast<double>(theta[men_shared_ + i]));
    auto copy = [&](std::vector<std::int16_t>& out, std::size_t base) {
      for (std::size_t i = 0; i < out.size(); ++i) out[i] = quantize(theta[base + i]);
    };
    const std::size_t wide_states = eval::kWideStates * P;
    for (std::size_t j = 0; j < w.wide.size() / wide_states; ++j)
      for (std::size_t i = 0; i < wide_states; ++i)
        w.wide[j * wide_states + i] =
            quantize(static_cast<double>(theta[wide_base_ + j * wide_states + i]) +
                     static_cast<double>(theta[wide_band_ + band_of(j) * wide_states + i]));
    copy(w.king_shared, king_shared_);
    copy(w.king_region, king_region_);
    copy(w.king_square, king_square_);
    for (std::size_t p = 0; p < P; ++p)
      for (std::size_t k = 0; k < eval::kLinearCount; ++k)
        w.linear[p][k] = quantize(theta[linear_ + p * eval::kLinearCount + k]);
    return w;
  }

  static std::int16_t quantize(double cp) {
    const double q = std::round(cp * eval::kWeightScale);
    return static_cast<std::int16_t>(q < -32767.0 ? -32767.0 : q > 32767.0 ? 32767.0 : q);
  }

 private:
  bool region_kings_, wide_;
  std::size_t men_ = 0, men_shared_ = 0, wide_base_ = 0, wide_band_ = 0, king_shared_ = 0,
              king_region_ = 0, king_square_ = 0, linear_ = 0, size_ = 0;
};

}  // namespace tsuru::train
