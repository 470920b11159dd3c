// The data directory: where Tsuru finds its endgame databases, opening books and weights files
// without being told (README.md, "The data directory").
//
// The directories searched, in order: $TSURU_DATA alone when it is set and not empty; otherwise
// the user's, $XDG_DATA_HOME/tsuru (default ~/.local/share/tsuru), then the installed binary's,
// <bin>/../share/tsuru and the install prefix's share/tsuru. Each holds the folders egdb/,
// book/ and weights/. An option that names a file or directory (`--egdb-dir`, the Hub
// `egdb-dir`, `book-file`, `eval-file`) always wins over the data directory.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tsuru::data {

// The data directories in the order they are searched (they need not exist).
std::vector<std::string> search_dirs();

// The folder `what` (egdb, book, weights) of the first data directory that has it; nullopt
// when none has.
std::optional<std::string> find_folder(std::string_view what);

// The file `what`/`name` of the first data directory that has it; nullopt when none has.
std::optional<std::string> find_file(std::string_view what, std::string_view name);

// The folder `what` of the data directory written to (`tsuru egdb build`): $TSURU_DATA's when
// it is set, else the user's. Empty when neither is known (no TSURU_DATA, XDG_DATA_HOME nor
// HOME).
std::string user_folder(std::string_view what);

// A weights file named as the user gave it (`eval-file`): the name itself when it is a special
// value (default, builtin, empty), an absolute path or a file that exists; otherwise the file
// of that name in the data directories' weights/ folder when there is one; else the name
// unchanged (its loading then reports it missing).
std::string weights_file(const std::string& name);

}  // namespace tsuru::data
