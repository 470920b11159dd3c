// Training sample files (tools/train/sample.hpp): round trip, and every kind of damage rejected
// with a reason.
#include <unistd.h>
#include <filesystem>
#include <fstream>

#include <catch2/catch.hpp>

#include "engine/rules/binary_io.hpp"
#include "engine/rules/legal.hpp"
#include "tools/train/sample.hpp"

using namespace tsuru;
using train::Sample;

namespace {

std::vector<Sample> some_samples(Variant v) {
  std::vector<Sample> out;
  Position p = start_position(v);
  std::uint16_t ply = 0;
  for (int i = 0; i < 6; ++i) {
    const auto moves = legal_moves(v, p);
    REQUIRE(!moves.empty());
    Sample s{.white = p.pieces(Side::White),
             .black = p.pieces(Side::Black),
             .kings = p.kings(),
             .game = 7,
             .ply = ply++,
             .score = static_cast<std::int16_t>(i % 2 ? -35 : train::kNoScore),
             .turn = p.turn(),
             .result = static_cast<std::int8_t>(i % 3 - 1)};
    out.push_back(s);
    p.play(moves[moves.size() / 2]);
  }
  return out;
}

void reseal(std::vector<std::uint8_t>& bytes) {
  const std::uint64_t h =
      fnv1a(bytes.data() + train::kSampleHeaderSize, bytes.size() - train::kSampleHeaderSize);
  for (int i = 0; i < 8; ++i)
    bytes[48 + static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(h >> (8 * i));
}

std::string temp_path(const char* name) {
  return (std::filesystem::temp_directory_path() /
          (std::string("tsuru_") + name + "_" + std::to_string(::getpid())))
      .string();
}

}  // namespace

TEST_CASE("sample files round trip in every board layout", "[samples]") {
  for (Variant v : {Variant::English, Variant::International, Variant::Turkish}) {
    const auto samples = some_samples(v);
    const auto decoded = train::decode_samples(v, train::encode_samples(v, samples));
    REQUIRE(decoded.ok());
    CHECK(*decoded == samples);
    CHECK((*decoded)[0].position() == start_position(v));
  }
  const std::string path = temp_path("samples");
  const auto samples = some_samples(Variant::International);
  REQUIRE(train::write_samples(Variant::International, path, samples).ok());
  CHECK(train::sample_file_variant(path).value() == Variant::International);
  const auto read = train::read_samples(Variant::International, path);
  REQUIRE(read.ok());
  CHECK(*read == samples);
  std::filesystem::remove(path);
}

TEST_CASE("damaged sample files are rejected with a reason", "[samples]") {
  const Variant v = Variant::English;
  const auto good = train::encode_samples(v, some_samples(v));
  auto fails_with = [&](std::vector<std::uint8_t> bytes, const std::string& reason) {
    const auto r = train::decode_samples(v, bytes);
    REQUIRE_FALSE(r.ok());
    CHECK_THAT(r.error(), Catch::Contains(reason));
  };
  fails_with({good.begin(), good.begin() + 10}, "too short");
  {
    auto b = good;
    b[0] = 'X';
    fails_with(b, "bad magic");
  }
  {
    auto b = good;
    b[8] = 9;
    fails_with(b, "version 9");
  }
  {
    auto b = good;
    b[train::kSampleHeaderSize + 3] ^= 0x10;
    fails_with(b, "checksum");
  }
  {
    auto b = good;
    b.pop_back();
    fails_with(b, "truncated");
  }
  {
    auto b = good;
    b[40] = 0xff;
    b[41] = 0xff;
    b[42] = 0xff;
    b[43] = 0xff;
    fails_with(b, "more than the limit");
  }
  {
    // White and black on one square.
    auto b = good;
    for (int i = 0; i < 8; ++i)
      b[train::kSampleHeaderSize + 8 + static_cast<std::size_t>(i)] =
          b[train::kSampleHeaderSize + static_cast<std::size_t>(i)];
    reseal(b);
    fails_with(b, "not a valid position");
  }
  {
    auto b = good;
    b[train::kSampleHeaderSize + 33] = 2;  // result +2
    reseal(b);
    fails_with(b, "not a valid position");
  }
  const auto other = train::decode_samples(Variant::Russian, good);
  REQUIRE_FALSE(other.ok());
  CHECK_THAT(other.error(), Catch::Contains("rule set 'english'"));
  const auto missing = train::read_samples(v, temp_path("no_such_samples"));
  REQUIRE_FALSE(missing.ok());
  CHECK_THAT(missing.error(), Catch::Contains("cannot open sample file"));
  const auto dir = train::read_samples(v, std::filesystem::temp_directory_path().string());
  REQUIRE_FALSE(dir.ok());
  CHECK_THAT(dir.error(), Catch::Contains("is a directory"));
}
