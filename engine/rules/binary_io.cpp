#include "engine/rules/binary_io.hpp"

#include <fcntl.h>
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

namespace {

// Writes all of bytes to fd; the errno of the failure, or 0. A short write (the disk full, the
// file-size limit reached) is retried once and then reported as ENOSPC when the system names
// no error.
int write_all(int fd, std::span<const std::uint8_t> bytes) {
  std::size_t written = 0;
  while (written < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + written, bytes.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return errno;
    if (n == 0) return ENOSPC;
    written += static_cast<std::size_t>(n);
  }
  return 0;
}

std::string reason(int error) {
  return std::strerror(error);
}

}  // namespace

Expected<bool> write_file_atomically(const std::string& path, std::span<const std::uint8_t> bytes) {
  using E = Expected<bool>;
  // mkstemp never opens an existing file: a FILE.tmp of someone else's stays untouched, and two
  // writers of one file do not share a temporary file.
  std::string tmp = path + ".tmp.XXXXXX";
  const int fd = ::mkstemp(tmp.data());
  if (fd < 0) return E::failure("cannot create a temporary file " + tmp + ": " + reason(errno));
  ::fchmod(fd, 0644);  // mkstemp makes it 0600; these files are not secrets
  int error = write_all(fd, bytes);
  // On disk before the rename: after a crash of the machine the final name holds the old file
  // or the new one, never a file whose blocks never reached the disk.
  if (!error && ::fsync(fd) != 0 && errno != EINVAL && errno != EROFS) error = errno;
  if (::close(fd) != 0 && !error) error = errno;
  if (error) {
    std::remove(tmp.c_str());
    return E::failure("cannot write " + path + ": " + reason(error) + " (nothing written under " +
                      "that name)");
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    error = errno;
    std::remove(tmp.c_str());
    return E::failure("cannot rename " + tmp + " to " + path + ": " + reason(error));
  }
  return true;
}

Expected<bool> AppendFile::open(const std::string& path, bool truncate) {
  close();
  fd_ = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | (truncate ? O_TRUNC : 0),
               0644);
  if (fd_ < 0) return Expected<bool>::failure("cannot open " + path + ": " + reason(errno));
  path_ = path;
  const off_t end = ::lseek(fd_, 0, SEEK_END);
  size_ = end > 0 ? static_cast<std::uint64_t>(end) : 0;
  return true;
}

Expected<bool> AppendFile::append(std::string_view text) {
  using E = Expected<bool>;
  if (fd_ < 0) return E::failure("no file open");
  const int error =
      write_all(fd_, {reinterpret_cast<const std::uint8_t*>(text.data()), text.size()});
  if (error) {
    // Whatever part of the record reached the file goes: the file ends with a whole record.
    if (::ftruncate(fd_, static_cast<off_t>(size_)) != 0)
      return E::failure("cannot write " + path_ + ": " + reason(error) +
                        "; and cannot cut the part written off: " + reason(errno));
    return E::failure("cannot write " + path_ + ": " + reason(error));
  }
  size_ += text.size();
  return true;
}

void AppendFile::close() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
}

}  // namespace tsuru
