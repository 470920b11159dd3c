#include "tests/hub_client.hpp"

#include <stdexcept>

namespace tsuru::test {

HubClient::HubClient(const std::vector<std::string>& extra_args, const std::string& stderr_path)
    : process_(
          [&] {
            std::vector<std::string> argv{TSURU_BINARY, "hub"};
            argv.insert(argv.end(), extra_args.begin(), extra_args.end());
            return argv;
          }(),
          stderr_path) {}

void HubClient::send(std::string_view line) {
  if (!process_.send(line))
    throw std::runtime_error("the engine no longer reads its input (sending '" +
                             std::string(line.substr(0, 80)) + "')");
}

std::string HubClient::line(Millis timeout) {
  auto l = process_.read_line(timeout);
  if (!l) {
    std::string recent;
    for (const std::string& s : seen_) recent += "\n  " + s.substr(0, 200);
    throw std::runtime_error(std::string(process_.at_eof() ? "engine output ended"
                                                           : "timed out waiting for the engine") +
                             "; last lines:" + recent);
  }
  seen_.push_back(*l);
  if (seen_.size() > 8) seen_.erase(seen_.begin());
  return *l;
}

std::vector<std::string> HubClient::sync(Millis timeout) {
  send("ping");
  std::vector<std::string> before;
  while (true) {
    std::string l = line(timeout);
    if (l == "pong") return before;
    before.push_back(std::move(l));
  }
}

std::string HubClient::until_done(std::vector<std::string>* before, Millis timeout) {
  while (true) {
    std::string l = line(timeout);
    if (l == "done" || l.rfind("done ", 0) == 0) return l;
    if (before) before->push_back(std::move(l));
  }
}

void HubClient::start_session() {
  send("hub");
  while (line() != "wait") {
  }
  send("init");
  while (line() != "ready") {
  }
}

std::vector<std::string> fields(const std::string& line) {
  std::vector<std::string> out;
  std::string current;
  bool quoted = false;
  for (char c : line) {
    if (c == '"') quoted = !quoted;
    if (c == ' ' && !quoted) {
      if (!current.empty()) out.push_back(current);
      current.clear();
    } else {
      current += c;
    }
  }
  if (!current.empty()) out.push_back(current);
  if (!out.empty()) out.erase(out.begin());  // the command
  return out;
}

}  // namespace tsuru::test
