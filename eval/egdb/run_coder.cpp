#include "eval/egdb/run_coder.hpp"

#include <array>
#include <bit>
#include <cstring>

namespace tsuru::egdb {
namespace {

// A binary range coder with adaptive probabilities (11-bit, shift 5), carry propagated through a
// cached byte: the classic design of the LZMA family, written here from its description.
constexpr int kProbBits = 11;
constexpr std::uint32_t kProbOne = 1U << kProbBits;
constexpr int kMoveBits = 5;
constexpr std::uint32_t kTop = 1U << 24;

using Prob = std::uint16_t;
constexpr Prob kHalf = kProbOne / 2;

class Encoder {
 public:
  explicit Encoder(std::vector<std::uint8_t>& out) : out_(out) {}
  void bit(Prob& p, unsigned b) {
    const std::uint32_t bound = (range_ >> kProbBits) * p;
    if (!b) {
      range_ = bound;
      p = static_cast<Prob>(p + ((kProbOne - p) >> kMoveBits));
    } else {
      low_ += bound;
      range_ -= bound;
      p = static_cast<Prob>(p - (p >> kMoveBits));
    }
    while (range_ < kTop) {
      range_ <<= 8;
      shift_low();
    }
  }
  void direct(unsigned b) {
    range_ >>= 1;
    if (b) low_ += range_;
    while (range_ < kTop) {
      range_ <<= 8;
      shift_low();
    }
  }
  void finish() {
    for (int i = 0; i < 5; ++i) shift_low();
  }

 private:
  void shift_low() {
    if (low_ < 0xFF000000ULL || low_ >= (1ULL << 32)) {
      const auto carry = static_cast<std::uint8_t>(low_ >> 32);
      if (!first_) out_.push_back(static_cast<std::uint8_t>(cache_ + carry));
      first_ = false;
      for (; pending_ > 0; --pending_) out_.push_back(static_cast<std::uint8_t>(0xFF + carry));
      cache_ = static_cast<std::uint8_t>(low_ >> 24);
    } else {
      ++pending_;
    }
    low_ = (low_ & 0x00FFFFFFULL) << 8;
  }

  std::vector<std::uint8_t>& out_;
  std::uint64_t low_ = 0;
  std::uint32_t range_ = 0xFFFFFFFFU;
  std::uint8_t cache_ = 0;
  std::uint64_t pending_ = 0;
  bool first_ = true;
};

class Decoder {
 public:
  Decoder(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {
    for (int i = 0; i < 4; ++i) code_ = (code_ << 8) | next();
  }
  unsigned bit(Prob& p) {
    const std::uint32_t bound = (range_ >> kProbBits) * p;
    unsigned b;
    if (code_ < bound) {
      range_ = bound;
      p = static_cast<Prob>(p + ((kProbOne - p) >> kMoveBits));
      b = 0;
    } else {
      code_ -= bound;
      range_ -= bound;
      p = static_cast<Prob>(p - (p >> kMoveBits));
      b = 1;
    }
    normalize();
    return b;
  }
  unsigned direct() {
    range_ >>= 1;
    unsigned b = 0;
    if (code_ >= range_) {
      code_ -= range_;
      b = 1;
    }
    normalize();
    return b;
  }
  // Bytes asked for beyond the block (read as zero): a coder that finished writes 4 bytes after
  // its last decision's, so a well-formed block never needs more than it has.
  std::size_t overrun() const { return at_ > size_ ? at_ - size_ : 0; }

 private:
  std::uint32_t next() { return at_ < size_ ? data_[at_++] : (++at_, 0U); }
  void normalize() {
    while (range_ < kTop) {
      range_ <<= 8;
      code_ = (code_ << 8) | next();
    }
  }
  const std::uint8_t* data_;
  std::size_t size_;
  std::size_t at_ = 0;
  std::uint32_t code_ = 0;
  std::uint32_t range_ = 0xFFFFFFFFU;
};

constexpr int kBucketBits = 5;  // run lengths up to 2^32 - 1
constexpr int kAdaptiveMantissa = 2;

// The adaptive models of one block.
struct Models {
  std::array<Prob, 4> first;
  std::array<std::array<Prob, 1 << kBucketBits>, 3> bucket;  // bit tree, by the run's symbol
  std::array<std::array<Prob, 1 << kAdaptiveMantissa>, 32> mantissa;  // by bucket
  std::array<std::array<Prob, 3>, 3> next;  // by previous and current symbol
  Models() {
    first.fill(kHalf);
    for (auto& t : bucket) t.fill(kHalf);
    for (auto& t : mantissa) t.fill(kHalf);
    for (auto& t : next) t.fill(kHalf);
  }
};

// The symbol after `current` (one of the two others): decision 0 the lower, 1 the higher.
unsigned other(unsigned current, unsigned decision) {
  const unsigned low = current == 0 ? 1 : 0;
  const unsigned high = current == 2 ? 1 : 2;
  return decision ? high : low;
}

void encode_length(Encoder& enc, Models& m, unsigned symbol, std::uint32_t length) {
  const int b = static_cast<int>(std::bit_width(length)) - 1;
  unsigned node = 1;
  for (int i = kBucketBits - 1; i >= 0; --i) {
    const unsigned bit = (static_cast<unsigned>(b) >> i) & 1U;
    enc.bit(m.bucket[symbol][node], bit);
    node = node * 2 + bit;
  }
  unsigned mnode = 1;
  for (int i = b - 1; i >= 0; --i) {
    const unsigned bit = (length >> i) & 1U;
    if (b - 1 - i < kAdaptiveMantissa) {
      enc.bit(m.mantissa[static_cast<std::size_t>(b)][mnode], bit);
      mnode = mnode * 2 + bit;
    } else {
      enc.direct(bit);
    }
  }
}

std::uint32_t decode_length(Decoder& dec, Models& m, unsigned symbol) {
  unsigned node = 1;
  for (int i = 0; i < kBucketBits; ++i) node = node * 2 + dec.bit(m.bucket[symbol][node]);
  const int b = static_cast<int>(node - (1U << kBucketBits));
  std::uint32_t length = 1;
  unsigned mnode = 1;
  for (int i = b - 1; i >= 0; --i) {
    unsigned bit;
    if (b - 1 - i < kAdaptiveMantissa) {
      bit = dec.bit(m.mantissa[static_cast<std::size_t>(b)][mnode]);
      mnode = mnode * 2 + bit;
    } else {
      bit = dec.direct();
    }
    length = (length << 1) | bit;
  }
  return length;
}

// Walks a block's runs: f(symbol, start, length) for each; false from f stops. Returns why the
// block is bad, or nullopt.
template <class F>
std::optional<std::string> walk(const std::uint8_t* data, std::size_t size, std::uint32_t n,
                                const F& f) {
  Decoder dec(data, size);
  Models m;
  unsigned symbol = dec.bit(m.first[1]) << 1;
  symbol |= dec.bit(m.first[2 + (symbol >> 1)]);
  if (symbol == 3) return "bad symbol in a block";
  unsigned previous = 0;
  std::uint32_t at = 0;
  while (true) {
    const std::uint32_t length = decode_length(dec, m, symbol);
    if (dec.overrun() > 4) return "block data ends early";
    if (length == 0 || length > n - at) return "run past the end of a block";
    if (!f(symbol, at, length)) return std::nullopt;
    at += length;
    if (at == n) break;
    const unsigned d = dec.bit(m.next[previous][symbol]);
    previous = symbol;
    symbol = other(symbol, d);
  }
  if (dec.overrun() > 0) return "block data ends early";
  return std::nullopt;
}

}  // namespace

void encode_runs(const std::vector<std::uint8_t>& symbols, std::vector<std::uint8_t>& out) {
  Encoder enc(out);
  Models m;
  const std::size_t n = symbols.size();
  unsigned symbol = n ? symbols[0] : 0;
  enc.bit(m.first[1], symbol >> 1);
  enc.bit(m.first[2 + (symbol >> 1)], symbol & 1U);
  unsigned previous = 0;
  for (std::size_t i = 0; i < n;) {
    std::size_t j = i;
    while (j < n && symbols[j] == symbol) ++j;
    // Every run's length is coded, the last one's too: a probe then finds its index without
    // knowing which run is last.
    encode_length(enc, m, symbol, static_cast<std::uint32_t>(j - i));
    i = j;
    if (i == n) break;
    const unsigned next = symbols[i];
    const unsigned high = symbol == 2 ? 1U : 2U;  // see other()
    enc.bit(m.next[previous][symbol], next == high ? 1U : 0U);
    previous = symbol;
    symbol = next;
  }
  enc.finish();
}

std::optional<std::string> decode_runs(const std::uint8_t* data, std::size_t size, std::uint32_t n,
                                       std::vector<std::uint8_t>* out) {
  if (out) out->assign(n, 0);
  return walk(data, size, n, [&](unsigned symbol, std::uint32_t at, std::uint32_t length) {
    if (out)
      for (std::uint32_t k = 0; k < length; ++k) (*out)[at + k] = static_cast<std::uint8_t>(symbol);
    return true;
  });
}

std::optional<std::string> decode_packed(const std::uint8_t* data, std::size_t size,
                                         std::uint32_t n, std::vector<std::uint8_t>& packed) {
  packed.assign((std::size_t{n} + 3) / 4, 0);
  return walk(data, size, n, [&](unsigned symbol, std::uint32_t at, std::uint32_t length) {
    if (symbol == 0) return true;
    const auto set = [&](std::uint32_t i) {
      packed[i / 4] = static_cast<std::uint8_t>(packed[i / 4] | (symbol << (2 * (i % 4))));
    };
    std::uint32_t i = at;
    const std::uint32_t end = at + length;
    for (; i < end && i % 4 != 0; ++i) set(i);
    const std::uint32_t whole = (end - i) / 4;
    std::memset(packed.data() + i / 4, static_cast<int>(symbol * 0x55U), whole);
    for (i += 4 * whole; i < end; ++i) set(i);
    return true;
  });
}

unsigned symbol_at(const std::uint8_t* data, std::size_t size, std::uint32_t n, std::uint32_t i) {
  unsigned found = 0;
  walk(data, size, n, [&](unsigned symbol, std::uint32_t at, std::uint32_t length) {
    if (i < at + length) {
      found = symbol;
      return false;
    }
    return true;
  });
  return found;
}

}  // namespace tsuru::egdb
