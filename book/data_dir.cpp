#include "book/data_dir.hpp"

#include <cstdlib>
#include <filesystem>
#include <system_error>

namespace tsuru::data {
namespace {

namespace fs = std::filesystem;

std::string env(const char* name) {
  const char* v = std::getenv(name);
  return v ? std::string(v) : std::string();
}

// The user's data directory: $XDG_DATA_HOME/tsuru, else ~/.local/share/tsuru; empty when
// neither variable is set.
std::string user_dir() {
  const std::string xdg = env("XDG_DATA_HOME");
  if (!xdg.empty()) return (fs::path(xdg) / "tsuru").string();
  const std::string home = env("HOME");
  if (!home.empty()) return (fs::path(home) / ".local" / "share" / "tsuru").string();
  return {};
}

}  // namespace

std::vector<std::string> search_dirs() {
  const std::string forced = env("TSURU_DATA");
  if (!forced.empty()) return {forced};
  std::vector<std::string> dirs;
  if (std::string user = user_dir(); !user.empty()) dirs.push_back(std::move(user));
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
#ifdef TSURU_RELATIVE_DATA_DIR
  if (!ec)
    dirs.push_back((exe.parent_path() / TSURU_RELATIVE_DATA_DIR).lexically_normal().string());
#endif
#ifdef TSURU_PREFIX_DATA_DIR
  dirs.emplace_back(TSURU_PREFIX_DATA_DIR);
#endif
  return dirs;
}

std::optional<std::string> find_folder(std::string_view what) {
  std::error_code ec;
  for (const std::string& dir : search_dirs()) {
    const fs::path folder = fs::path(dir) / what;
    if (fs::is_directory(folder, ec)) return folder.string();
  }
  return std::nullopt;
}

std::optional<std::string> find_file(std::string_view what, std::string_view name) {
  std::error_code ec;
  for (const std::string& dir : search_dirs()) {
    const fs::path file = fs::path(dir) / what / name;
    if (fs::is_regular_file(file, ec)) return file.string();
  }
  return std::nullopt;
}

std::string user_folder(std::string_view what) {
  const std::string forced = env("TSURU_DATA");
  const std::string dir = forced.empty() ? user_dir() : forced;
  return dir.empty() ? std::string() : (fs::path(dir) / what).string();
}

std::string weights_file(const std::string& name) {
  if (name.empty() || name == "default" || name == "builtin") return name;
  std::error_code ec;
  const fs::path p(name);
  if (p.is_absolute() || fs::exists(p, ec)) return name;
  if (auto found = find_file("weights", name)) return *found;
  return name;
}

}  // namespace tsuru::data
