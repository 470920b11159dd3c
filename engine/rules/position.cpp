#include "engine/rules/position.hpp"

namespace tsuru {

Position Position::unkeyed(Bitboard white, Bitboard black, Bitboard kings, Side turn) {
  Position p;
  p.side_[index(Side::White)] = white;
  p.side_[index(Side::Black)] = black;
  p.kings_ = kings & (white | black);
  p.turn_ = turn;
  return p;
}

Position Position::from_bitboards(Bitboard white, Bitboard black, Bitboard kings, Side turn,
                                  bool track_king_runs) {
  Position p = unkeyed(white, black, kings, turn);
  p.track_runs_ = track_king_runs;
  p.key_ = p.compute_key();
  return p;
}

Key Position::compute_key() const {
  Key k = turn_ == Side::Black ? zobrist::black_to_move() : 0;
  for (Side s : {Side::White, Side::Black})
    for (Square sq : squares_of(side_[index(s)])) k ^= zobrist::piece(s, has(kings_, sq), sq);
  for (Side s : {Side::White, Side::Black})
    k ^= zobrist::king_run(s, run_count_[index(s)], run_square_[index(s)]);
  return k;
}

void Position::set_king_run(Side s, KingRun run) {
  if (!track_runs_) return;
  const bool valid = run.count > 0 && run.count <= 3 && has(kings(s), run.square) && men(s);
  run_square_[index(s)] = static_cast<std::uint8_t>(valid ? run.square : 0);
  run_count_[index(s)] = static_cast<std::uint8_t>(valid ? run.count : 0);
  key_ = compute_key();
}

template <bool UpdateKey>
void Position::update_king_runs(const Move& m, bool was_king) {
  const Side them = turn_, us = opponent(turn_);  // called after the turn passed
  const KingRun old[2] = {king_run(Side::White), king_run(Side::Black)};
  KingRun next[2] = {old[0], old[1]};
  KingRun& mine = next[index(us)];
  if (m.captured || !was_king)
    mine = {};
  else if (mine.count > 0 && mine.square == m.from)
    mine = {m.to, mine.count + 1};
  else
    mine = {m.to, 1};
  KingRun& theirs = next[index(them)];
  if (theirs.count > 0 && has(m.captured, theirs.square)) theirs = {};
  for (Side s : {Side::White, Side::Black})
    if (!men(s)) next[index(s)] = {};
  for (Side s : {Side::White, Side::Black}) {
    const int i = index(s);
    if constexpr (UpdateKey)
      key_ ^= zobrist::king_run(s, old[i].count, old[i].square) ^
              zobrist::king_run(s, next[i].count, next[i].square);
    run_square_[i] = static_cast<std::uint8_t>(next[i].square);
    run_count_[i] = static_cast<std::uint8_t>(next[i].count);
  }
}

template void Position::update_king_runs<true>(const Move&, bool);
template void Position::update_king_runs<false>(const Move&, bool);

}  // namespace tsuru
