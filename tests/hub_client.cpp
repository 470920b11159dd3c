#include "tests/hub_client.hpp"

#include <stdexcept>

#include "tests/spawn.hpp"

namespace tsuru::test {

using tools::ChildProcess;

HubClient::HubClient(const std::vector<std::string>& extra_args, const std::string& stderr_path) {
  std::vector<std::string> argv{TSURU_BINARY, "hub"};
  argv.insert(argv.end(), extra_args.begin(), extra_args.end());
  tools::ChildOptions options;
  options.error_output =
      stderr_path.empty() ? tools::ErrorOutput::Discard : tools::ErrorOutput::File;
  options.error_file = stderr_path;
  // The engine ends by itself at the end of its input.
  options.exit_grace = Millis(2000);
  process_ = spawn(argv, options);
}

void HubClient::send(std::string_view line) {
  if (!process_->write_line(line))
    throw std::runtime_error("the engine no longer reads its input (sending '" +
                             std::string(line.substr(0, 80)) + "')");
}

std::string HubClient::line(Millis timeout) {
  std::string l;
  const ChildProcess::Read r = process_->read_line(l, timeout);
  if (r != ChildProcess::Read::Ok) {
    std::string recent;
    for (const std::string& s : seen_) recent += "\n  " + s.substr(0, 200);
    throw std::runtime_error(std::string(r == ChildProcess::Read::Closed
                                             ? "engine output ended"
                                             : "timed out waiting for the engine") +
                             "; last lines:" + recent);
  }
  seen_.push_back(l);
  if (seen_.size() > 8) seen_.erase(seen_.begin());
  return l;
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

std::string turn_round(const std::string& text) {
  std::string out, number;
  auto flush = [&] {
    if (!number.empty()) out += std::to_string(33 - std::stoi(number));
    number.clear();
  };
  for (char c : text) {
    if (c >= '0' && c <= '9') {
      number += c;
    } else {
      flush();
      out += c;
    }
  }
  flush();
  return out;
}

}  // namespace tsuru::test
