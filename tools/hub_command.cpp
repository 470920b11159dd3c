// tsuru hub [--log FILE]: the Hub protocol on stdin/stdout (protocol/hub/session.hpp).
//
// A plain thread blocks on stdin and queues whole lines; the main thread hands them to the
// session, whose searches run on the engine's own thread, so a search never delays reading.
// The queue is bounded (lines and bytes): when it is full the reader stops reading, the OS pipe
// fills and the client's writes block, so a client that writes without reading our replies
// cannot make us grow without limit (see LineReader).
// stdout carries protocol lines only, each written whole and flushed under one mutex (the
// search thread writes info and done lines too); logs go to stderr. With --log, every line in
// and out is also written to FILE with a timestamp. EOF on stdin ends the program at once, even
// mid-search.
#include <poll.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <csignal>
#include <cstdio>
#include <ctime>
#include <deque>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include <boost/program_options.hpp>

#include "engine/engine.hpp"
#include "protocol/hub/line.hpp"
#include "protocol/hub/session.hpp"
#include "tools/commands.hpp"
#include "tools/options.hpp"

namespace tsuru::tools {
namespace {

// The protocol transcript: "HH:MM:SS.mmm > line" for input, "< line" for output.
class Transcript {
 public:
  explicit Transcript(std::FILE* file) : file_(file) {}
  ~Transcript() {
    if (file_) std::fclose(file_);
  }
  Transcript(const Transcript&) = delete;
  Transcript& operator=(const Transcript&) = delete;

  void log(char direction, std::string_view line) {
    if (!file_) return;
    constexpr std::size_t kShown = 300;
    std::string text;
    for (std::size_t i = 0; i < line.size() && i < kShown; ++i) {
      const auto c = static_cast<unsigned char>(line[i]);
      if (c < 0x20 || c == 0x7f) {
        char hex[8];
        std::snprintf(hex, sizeof hex, "\\x%02x", c);
        text += hex;
      } else {
        text += static_cast<char>(c);
      }
    }
    if (line.size() > kShown) text += " ... (" + std::to_string(line.size()) + " bytes)";
    const auto now = std::chrono::system_clock::now();
    const std::time_t t = std::chrono::system_clock::to_time_t(now);
    const auto ms =
        std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count() %
        1000;
    std::tm tm{};
    localtime_r(&t, &tm);
    std::lock_guard lock(mutex_);
    std::fprintf(file_, "%02d:%02d:%02d.%03d %c %s\n", tm.tm_hour, tm.tm_min, tm.tm_sec,
                 static_cast<int>(ms), direction, text.c_str());
    std::fflush(file_);
  }

 private:
  std::FILE* file_;
  std::mutex mutex_;
};

// Whole lines to stdout, flushed at once; safe from any thread.
class Writer {
 public:
  explicit Writer(Transcript& transcript) : transcript_(transcript) {}
  void write(const std::string& line) {
    std::lock_guard lock(mutex_);
    std::fwrite(line.data(), 1, line.size(), stdout);
    std::fputc('\n', stdout);
    std::fflush(stdout);
    transcript_.log('<', line);
  }

 private:
  Transcript& transcript_;
  std::mutex mutex_;
};

// Reads stdin on its own thread. Lines longer than the codec accepts are cut just past its
// limit (the session then answers "line too long") so a runaway line costs no memory.
//
// Back-pressure: at most kMaxLines lines and kMaxBytes bytes wait in the queue; a full queue
// blocks the reader until the main thread takes a line. Lines stay in order, and that is the
// choice made for stop, ping and quit too: they are not taken out of turn. The main thread
// never waits on a search (go returns at once, ping is answered during a search), so the queue
// only fills when the main thread is stuck writing replies the client does not read; a stop
// read early could not get its done line out either. A stop behind a full queue therefore
// waits exactly as long as it would have in an unbounded one, only in the client's pipe
// rather than in our memory. EOF is likewise seen after the lines before it, as before.
class LineReader {
 public:
  static constexpr std::size_t kMaxLines = 1024;
  // Room for several lines of the longest length the codec reads (256 KiB).
  static constexpr std::size_t kMaxBytes = std::size_t{1} << 20;

  LineReader() {
    if (::pipe(wake_) != 0) wake_[0] = wake_[1] = -1;
    thread_ = std::thread([this] { run(); });
  }
  ~LineReader() {
    {
      std::lock_guard lock(mutex_);
      closing_ = true;
      space_.notify_all();
    }
    if (wake_[1] >= 0) {
      const char c = 'q';
      [[maybe_unused]] const auto n = ::write(wake_[1], &c, 1);
    }
    thread_.join();
    for (int fd : wake_)
      if (fd >= 0) ::close(fd);
  }
  LineReader(const LineReader&) = delete;
  LineReader& operator=(const LineReader&) = delete;

  // The next line without its newline; nullopt at the end of input.
  std::optional<std::string> next() {
    std::unique_lock lock(mutex_);
    ready_.wait(lock, [&] { return !lines_.empty() || eof_; });
    if (lines_.empty()) return std::nullopt;
    std::string line = std::move(lines_.front());
    lines_.pop_front();
    bytes_ -= cost(line);
    space_.notify_one();
    return line;
  }

 private:
  // What a queued line costs: its text and the string itself.
  static std::size_t cost(const std::string& line) { return sizeof(std::string) + line.capacity(); }

  // Queues a line, waiting for room; false when the reader is being shut down.
  bool push(std::string line) {
    line.shrink_to_fit();  // a line grown byte by byte may hold twice its size
    std::unique_lock lock(mutex_);
    space_.wait(lock, [&] {
      return closing_ || lines_.empty() ||
             (lines_.size() < kMaxLines && bytes_ + cost(line) <= kMaxBytes);
    });
    if (closing_) return false;
    bytes_ += cost(line);
    lines_.push_back(std::move(line));
    ready_.notify_one();
    return true;
  }

  void run() {
    constexpr std::size_t kKeep = hub::kMaxLineLength + 1;
    std::string current;
    bool pending = false;  // bytes of an unfinished line were seen
    char buf[1 << 16];
    while (true) {
      pollfd fds[2] = {{STDIN_FILENO, POLLIN, 0}, {wake_[0], POLLIN, 0}};
      const int ready = ::poll(fds, wake_[0] >= 0 ? 2 : 1, -1);
      if (ready < 0 && errno == EINTR) continue;
      if (ready < 0 || (fds[1].revents & POLLIN)) break;
      const ssize_t n = ::read(STDIN_FILENO, buf, sizeof buf);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      for (ssize_t i = 0; i < n; ++i) {
        if (buf[i] == '\n') {
          if (!push(std::move(current))) return;
          current.clear();
          pending = false;
        } else {
          if (current.size() < kKeep) current += buf[i];
          pending = true;
        }
      }
    }
    if (pending && !push(std::move(current))) return;
    std::lock_guard lock(mutex_);
    eof_ = true;
    ready_.notify_one();
  }

  int wake_[2] = {-1, -1};
  std::thread thread_;
  std::mutex mutex_;
  std::condition_variable ready_;  // a line or EOF for the main thread
  std::condition_variable space_;  // room in the queue for the reader
  std::deque<std::string> lines_;
  std::size_t bytes_ = 0;  // cost() of the queued lines
  bool eof_ = false;
  bool closing_ = false;  // the destructor runs: the reader must not wait for room
};

}  // namespace

int run_hub(const Args& args) {
  namespace po = boost::program_options;
  std::string log_path;
  po::options_description desc("tsuru hub: speak the Hub protocol on stdin/stdout");
  desc.add_options()("help,h", "show this help")(
      "log", po::value(&log_path), "also write a timestamped transcript of the protocol to FILE");
  po::variables_map vm;
  if (!parse_options(args, desc, vm)) return vm.count("help") ? 0 : 2;

  std::FILE* log_file = nullptr;
  if (!log_path.empty()) {
    log_file = std::fopen(log_path.c_str(), "w");
    if (!log_file) {
      std::fprintf(stderr, "tsuru hub: cannot write %s\n", log_path.c_str());
      return 2;
    }
  }
  // A client that closes its end must not kill us with SIGPIPE in the middle of a write.
  std::signal(SIGPIPE, SIG_IGN);

  Transcript transcript(log_file);
  Writer writer(transcript);
  Engine engine;
  hub::Session session(engine, [&writer](const std::string& line) { writer.write(line); });
  LineReader reader;
  while (true) {
    const std::optional<std::string> line = reader.next();
    if (!line) {
      transcript.log('>', "(end of input)");
      session.end_of_input();
      break;
    }
    transcript.log('>', *line);
    if (!session.handle(*line)) break;
  }
  return 0;
}

}  // namespace tsuru::tools
