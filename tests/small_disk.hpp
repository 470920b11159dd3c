// A directory that runs out of space, for the disk-full tests: a tmpfs of a few KiB mounted on
// a fresh directory when the tests run as root, otherwise an ordinary directory and commands
// run under a file-size limit (RLIMIT_FSIZE through the shell's `ulimit -f`, with SIGXFSZ
// ignored so that a write past the limit fails with EFBIG instead of killing the program).
// Either way a write past the limit fails, and the program must say so and leave no half file.
#pragma once

#include <sys/mount.h>
#include <unistd.h>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

namespace tsuru::test {

class SmallDisk {
 public:
  // bytes: the room on the tmpfs, or the largest file under the limit (rounded to 512 bytes).
  explicit SmallDisk(std::size_t bytes) : bytes_(bytes) {
    static int counter = 0;
    dir_ = (std::filesystem::temp_directory_path() /
            ("tsuru-small-disk-" + std::to_string(::getpid()) + "-" + std::to_string(++counter)))
               .string();
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
    // TSURU_SMALL_DISK=rlimit takes the file-size limit even as root (to test that way too).
    const char* mode = std::getenv("TSURU_SMALL_DISK");
    if (::geteuid() == 0 && !(mode && std::string(mode) == "rlimit")) {
      const std::string options = "size=" + std::to_string(bytes) + ",mode=0755";
      tmpfs_ = ::mount("tmpfs", dir_.c_str(), "tmpfs", 0, options.c_str()) == 0;
    }
  }
  ~SmallDisk() {
    if (tmpfs_) ::umount2(dir_.c_str(), MNT_DETACH);
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }
  SmallDisk(const SmallDisk&) = delete;
  SmallDisk& operator=(const SmallDisk&) = delete;

  const std::string& dir() const { return dir_; }
  std::string path(const std::string& name) const { return dir_ + "/" + name; }
  bool tmpfs() const { return tmpfs_; }
  // What the program's error names: the tmpfs fills, the limit makes files too large.
  std::string reason() const { return tmpfs_ ? "No space left on device" : "File too large"; }

  // The command to run: as it is on the tmpfs, else under the file-size limit.
  std::vector<std::string> wrap(const std::vector<std::string>& argv) const {
    if (tmpfs_) return argv;
    std::vector<std::string> all{
        "/bin/sh", "-c",
        "trap '' XFSZ; ulimit -f " + std::to_string(bytes_ / 512) + " && exec \"$@\"", "sh"};
    all.insert(all.end(), argv.begin(), argv.end());
    return all;
  }

 private:
  std::size_t bytes_;
  std::string dir_;
  bool tmpfs_ = false;
};

}  // namespace tsuru::test
