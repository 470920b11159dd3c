#include "tools/match/engine_spec.hpp"

#include <charconv>

namespace tsuru::match {

Expected<EngineSpec> parse_engine_spec(std::string_view text) {
  using E = Expected<EngineSpec>;
  EngineSpec spec;
  spec.text = std::string(text);
  if (text.starts_with("hub:")) {
    spec.kind = EngineSpec::Kind::Hub;
    spec.command = std::string(text.substr(4));
    if (spec.command.find_first_not_of(" \t") == std::string::npos)
      return E::failure("engine '" + spec.text + "': hub: needs a command");
    return spec;
  }
  if (text.starts_with("dxp:")) {
    spec.kind = EngineSpec::Kind::Dxp;
    const std::string_view rest = text.substr(4);
    const std::size_t colon = rest.rfind(':');
    const std::string_view port =
        colon == std::string_view::npos ? std::string_view{} : rest.substr(colon + 1);
    spec.host = std::string(colon == std::string_view::npos ? rest : rest.substr(0, colon));
    if (spec.host.size() >= 2 && spec.host.front() == '[' && spec.host.back() == ']')
      spec.host = spec.host.substr(1, spec.host.size() - 2);
    const auto [ptr, ec] = std::from_chars(port.data(), port.data() + port.size(), spec.port);
    if (spec.host.empty() || port.empty() || ec != std::errc{} ||
        ptr != port.data() + port.size() || spec.port < 1 || spec.port > 65535)
      return E::failure("engine '" + spec.text + "': expected dxp:HOST:PORT");
    return spec;
  }
  return E::failure("engine '" + spec.text + "': expected hub:CMD or dxp:HOST:PORT");
}

Expected<std::pair<std::string, std::string>> parse_param(std::string_view text) {
  using E = Expected<std::pair<std::string, std::string>>;
  const std::size_t eq = text.find('=');
  if (eq == std::string_view::npos || eq == 0)
    return E::failure("parameter '" + std::string(text) + "': expected name=value");
  return std::pair<std::string, std::string>{std::string(text.substr(0, eq)),
                                             std::string(text.substr(eq + 1))};
}

}  // namespace tsuru::match
