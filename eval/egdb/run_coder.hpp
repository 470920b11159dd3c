// The value coder of the compact endgame database files (format version 2, docs/formats.md):
// a block of win/draw/loss symbols as runs, each run's length and the next run's symbol coded
// by an adaptive binary range coder whose models start afresh in every block, so that any block
// decodes alone.
//
//   first symbol        2 binary decisions (models "first")
//   per run             its length L >= 1 (the last run's too, so that a probe needs no count
//                       of the runs):
//                         b = floor(log2 L) as a 5-level bit tree (models by the run's symbol),
//                         the top two bits below the leading one adaptive (models by b), the
//                         rest at probability 1/2;
//                       then the next symbol, one of the two others: 1 decision (models by the
//                         previous and the current symbol).
//
// Symbols are 0 draw, 1 win, 2 loss. Positions the probe never asks about (invalid indices,
// and positions with a capture pending when the file leaves them out) are don't-care: they
// take the symbol of the run they fall in, which makes runs longer.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tsuru::egdb {

// Appends the coded block of `symbols` (each 0..2) to out.
void encode_runs(const std::vector<std::uint8_t>& symbols, std::vector<std::uint8_t>& out);

// Decodes a block of n symbols from [data, data + size): into out (resized to n) when out is
// given; nullopt on success, else why the bytes are no such block (a symbol 3, a run past the
// block's end, more bytes than the coder can have read).
std::optional<std::string> decode_runs(const std::uint8_t* data, std::size_t size, std::uint32_t n,
                                       std::vector<std::uint8_t>* out);

// Decodes a block of n symbols straight into their packed form, four to a byte, lowest bits
// first (the form the block cache keeps), a run at a time: whole bytes of a run
// are set at once and runs of symbol 0 cost nothing. Returns what decode_runs returns.
std::optional<std::string> decode_packed(const std::uint8_t* data, std::size_t size,
                                         std::uint32_t n, std::vector<std::uint8_t>& packed);

// The symbol at position i (< n) of a coded block, decoding only up to it.
unsigned symbol_at(const std::uint8_t* data, std::size_t size, std::uint32_t n, std::uint32_t i);

}  // namespace tsuru::egdb
