// An opening book in memory: lookup of the book moves of a position and the choice among them.
#pragma once

#include <optional>
#include <random>
#include <string>
#include <vector>

#include "book/format.hpp"
#include "engine/rules/position.hpp"
#include "engine/rules/score.hpp"

namespace tsuru::book {

struct BookMove {
  Move move{};
  Score score = 0;  // centi-men for the side to move
  int depth = 0;
};

class Book {
 public:
  explicit Book(Variant v, std::vector<Record> records = {});
  static Expected<Book> load(Variant v, const std::string& path);

  Variant variant() const { return variant_; }
  bool empty() const { return records_.empty(); }
  std::size_t size() const { return records_.size(); }
  std::size_t positions() const;
  const std::vector<Record>& records() const { return records_; }

  // The book moves of pos that are legal there, best first.
  std::vector<BookMove> moves(const Position& pos) const;
  // A move chosen uniformly among those within `margin` of the best; nullopt if pos is unknown.
  std::optional<BookMove> choose(const Position& pos, Score margin, std::mt19937_64& rng) const;

 private:
  Variant variant_;
  std::vector<Record> records_;  // sorted by key, best score first
};

// Where the rule set's default book <name>.book is, the first found of: the data directories'
// book/ folders (book/data_dir.hpp), beside the executable
// (build/book/), relative to it as installed (<bin>/../share/tsuru/book/), the install prefix
// compiled in, the build tree compiled in. nullopt when there is none. Never the source tree.
std::optional<std::string> default_book_path(Variant v);

}  // namespace tsuru::book
