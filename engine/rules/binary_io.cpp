#include "engine/rules/binary_io.hpp"

#include <sys/stat.h>
#include <unistd.h>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>

namespace tsuru {

std::uint64_t fnv1a(const std::uint8_t* p, std::size_t n, std::uint64_t from) {
  std::uint64_t h = from;
  for (std::size_t i = 0; i < n; ++i) {
    h ^= p[i];
    h *= 0x100000001b3ULL;
  }
  return h;
}

void put_le(std::vector<std::uint8_t>& out, std::uint64_t value, int bytes) {
  for (int i = 0; i < bytes; ++i) out.push_back(static_cast<std::uint8_t>(value >> (8 * i)));
}

std::uint64_t get_le(const std::uint8_t* p, int bytes) {
  std::uint64_t v = 0;
  for (int i = 0; i < bytes; ++i) v |= static_cast<std::uint64_t>(p[i]) << (8 * i);
  return v;
}

Expected<std::uint64_t> regular_file_size(const std::string& path, const std::string& what) {
  using E = Expected<std::uint64_t>;
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::file_status status = fs::status(path, ec);
  if (!fs::exists(status))
    return E::failure("cannot open " + what + " " + path + ": " +
                      (ec ? ec.message() : std::string("no such file")));
  if (fs::is_directory(status)) return E::failure(path + " is a directory, not a " + what);
  if (!fs::is_regular_file(status)) return E::failure(path + " is not a regular file");
  const std::uint64_t size = fs::file_size(path, ec);
  if (ec) return E::failure("cannot open " + what + " " + path + ": " + ec.message());
  return size;
}

Expected<bool> write_file_atomically(const std::string& path, std::span<const std::uint8_t> bytes) {
  // mkstemp never opens an existing file: a FILE.tmp of someone else's stays untouched, and two
  // writers of one file do not share a temporary file.
  std::string tmp = path + ".tmp.XXXXXX";
  const int fd = ::mkstemp(tmp.data());
  if (fd < 0)
    return Expected<bool>::failure("cannot create a temporary file " + tmp + ": " +
                                   std::strerror(errno));
  ::fchmod(fd, 0644);  // mkstemp makes it 0600; these files are not secrets
  std::size_t written = 0;
  while (written < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + written, bytes.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    written += static_cast<std::size_t>(n);
  }
  const bool closed = ::close(fd) == 0;
  if (written != bytes.size() || !closed) {
    std::remove(tmp.c_str());
    return Expected<bool>::failure("cannot write " + tmp);
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    std::remove(tmp.c_str());
    return Expected<bool>::failure("cannot rename " + tmp + " to " + path);
  }
  return true;
}

}  // namespace tsuru
