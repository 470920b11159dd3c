// The journal of a self-play run in progress (`tsuru selfplay`): each game's samples, appended
// as the game finishes, so that a run stopped at any point (SIGKILL, the machine gone) resumes
// where it stopped and ends with the bytes one uninterrupted run writes (every game depends on
// the run's options and its own index alone: selfplay.hpp).
//
//   header (32 bytes, little-endian)
//     magic "TSURUSJ\0" (8) | version u32 | 0 u32 | run fingerprint u64 | 0 u64
//   then one record per game, appended in the order the games finish
//     game index u32 | image size u32 | the game's samples as a sample file image (sample.hpp:
//     its own header with the rule set and a checksum)
//
// The fingerprint stands for everything that shapes the games (the caller's choice): a journal
// of another run is refused, never mixed in. A record cut short, or one whose image does not
// decode, ends the journal: it and what follows are cut off when the journal is opened (the
// program was killed while appending it). docs/formats.md describes the file for users.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "engine/rules/binary_io.hpp"
#include "engine/rules/expected.hpp"
#include "tools/train/sample.hpp"

namespace tsuru::train {

struct JournalGame {
  std::uint32_t index = 0;
  std::vector<Sample> samples;
};

class SampleJournal {
 public:
  // Opens path for a run of rule set v with the given fingerprint: the games of an existing
  // journal of the same run are read back (a torn last record cut off); a journal of another
  // run, or a file that is no journal, is an error; a missing file is created.
  static Expected<std::unique_ptr<SampleJournal>> open(const std::string& path, Variant v,
                                                       std::uint64_t fingerprint);

  // The games read back when it was opened, in journal order.
  const std::vector<JournalGame>& recovered() const { return recovered_; }
  // Bytes of a torn record cut off when it was opened.
  std::uint64_t cut_off() const { return cut_off_; }
  // Appends a finished game whole, or not at all (a full disk: the error).
  Expected<bool> append(std::uint32_t game, const std::vector<Sample>& samples);
  // The run is complete: the journal goes.
  void remove();
  const std::string& path() const { return path_; }

 private:
  SampleJournal() = default;
  Variant variant_ = Variant::English;
  std::string path_;
  AppendFile file_;
  std::vector<JournalGame> recovered_;
  std::uint64_t cut_off_ = 0;
};

}  // namespace tsuru::train
