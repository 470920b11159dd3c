// The README against the binary: the commands its table lists are the ones `tsuru --help`
// lists, each `--option` a row gives is one that command's `--help` describes, and every link
// to docs/ in the README and in docs/ names a file that exists.
#include <filesystem>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "tests/text_helpers.hpp"
#include "tests/tsuru_run.hpp"

namespace fs = std::filesystem;

namespace {

const fs::path kRepo = fs::path(TSURU_TEST_DATA).parent_path().parent_path();

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

std::string joined(const std::set<std::string>& names) {
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : " ") + n;
  return out;
}

// One row of the README's command table: the command and the options its first cell names.
struct Row {
  std::string command;
  std::set<std::string> options;
};

// The rows of the table under "## Commands" whose first cell starts with `tsuru NAME.
std::vector<Row> readme_commands(const std::string& readme) {
  std::vector<Row> rows;
  bool in_section = false;
  const std::regex row(R"(^\| `tsuru ([a-z][a-z0-9-]*)(\\\||[^|])*)");
  const std::regex option(R"(--[a-z][a-z0-9-]*)");
  for (const std::string& line : lines_of(readme)) {
    if (line.starts_with("## ")) in_section = line == "## Commands";
    if (!in_section) continue;
    std::smatch m;
    if (!std::regex_search(line, m, row)) continue;
    Row r{m[1].str(), {}};
    const std::string cell = m[0].str();
    for (auto it = std::sregex_iterator(cell.begin(), cell.end(), option);
         it != std::sregex_iterator(); ++it)
      r.options.insert(it->str());
    rows.push_back(r);
  }
  return rows;
}

// The commands `tsuru --help` lists: the indented lines between the usage line and the end.
std::set<std::string> help_commands(const std::string& help) {
  std::set<std::string> names;
  const std::regex entry(R"(^  ([a-z][a-z0-9-]*) +\S)");
  for (const std::string& line : lines_of(help)) {
    std::smatch m;
    if (std::regex_search(line, m, entry)) names.insert(m[1].str());
  }
  return names;
}

}  // namespace

TEST_CASE("README: the command table lists exactly the commands of tsuru --help", "[docs]") {
  const std::string readme = tsuru::test::read_file((kRepo / "README.md").string());
  REQUIRE_FALSE(readme.empty());
  const auto help = tsuru::test::run_tsuru({"--help"});
  REQUIRE(help.code == 0);
  const std::set<std::string> listed = help_commands(help.out);
  REQUIRE(listed.size() >= 5);  // the parser found the list

  std::set<std::string> documented;
  for (const Row& r : readme_commands(readme)) documented.insert(r.command);
  INFO("tsuru --help: " << joined(listed));
  INFO("README table: " << joined(documented));
  for (const std::string& name : listed) {
    INFO("a command tsuru --help lists is missing from the README's table: " << name);
    CHECK(documented.count(name) == 1);
  }
  for (const std::string& name : documented) {
    INFO("the README's table lists a command tsuru --help does not: " << name);
    CHECK(listed.count(name) == 1);
  }
}

TEST_CASE("README: every --option of the command table is one the command accepts", "[docs]") {
  const std::string readme = tsuru::test::read_file((kRepo / "README.md").string());
  const std::vector<Row> rows = readme_commands(readme);
  REQUIRE_FALSE(rows.empty());
  for (const Row& r : rows) {
    if (r.options.empty()) continue;
    const auto help = tsuru::test::run_tsuru({r.command, "--help"});
    INFO("tsuru " << r.command << " --help");
    REQUIRE(help.code == 0);
    for (const std::string& option : r.options) {
      INFO("the README gives " << option << ", which tsuru " << r.command
                               << " --help does not describe");
      CHECK(help.out.find(option + " ") != std::string::npos);
    }
  }
}

TEST_CASE("README and docs/: every link to a file in docs/ names a file that exists", "[docs]") {
  const std::regex link(R"(\]\(((docs/)?[a-z_]+\.md)\))");
  std::vector<fs::path> pages = {kRepo / "README.md"};
  for (const auto& entry : fs::directory_iterator(kRepo / "docs"))
    if (entry.path().extension() == ".md") pages.push_back(entry.path());
  REQUIRE(pages.size() >= 6);  // README and the five pages
  int links = 0;
  for (const fs::path& page : pages) {
    const std::string text = tsuru::test::read_file(page.string());
    for (auto it = std::sregex_iterator(text.begin(), text.end(), link);
         it != std::sregex_iterator(); ++it) {
      const std::string target = (*it)[1].str();
      const fs::path resolved = page.parent_path() / target;
      INFO(page.filename().string() << " links to " << target);
      CHECK(fs::is_regular_file(resolved));
      ++links;
    }
  }
  CHECK(links >= 10);
}

TEST_CASE("The repository cites no file outside it", "[docs]") {
  // The reference material the code was written against lives outside the repository; code and
  // docs cite the repository's own files (docs/, tests/data/) instead. Built up here so that
  // this file does not match itself.
  const std::vector<std::string> outside = {std::string("..") + "/shared",
                                            std::string("/") + "shared/"};
  const std::set<std::string> text = {".cpp",   ".hpp", ".md",  ".txt", ".sh",
                                      ".cmake", ".in",  ".tsv", ".pdn", ""};
  int files = 0;
  for (const char* top : {"engine", "eval", "book", "protocol", "tools", "tests", "docs", "cmake",
                          ".ci", "README.md", "CMakeLists.txt"}) {
    const fs::path root = kRepo / top;
    std::vector<fs::path> paths;
    if (fs::is_regular_file(root)) {
      paths.push_back(root);
    } else if (fs::is_directory(root)) {
      for (const auto& entry : fs::recursive_directory_iterator(root))
        if (entry.is_regular_file() && text.count(entry.path().extension().string()))
          paths.push_back(entry.path());
    }
    for (const fs::path& path : paths) {
      const std::string content = tsuru::test::read_file(path.string());
      ++files;
      for (const std::string& needle : outside) {
        INFO(fs::relative(path, kRepo).string() << " cites " << needle);
        CHECK(content.find(needle) == std::string::npos);
      }
    }
  }
  CHECK(files >= 100);
}

TEST_CASE("README: tsuru --version is documented and prints the version line", "[docs]") {
  const std::string readme = tsuru::test::read_file((kRepo / "README.md").string());
  CHECK(readme.find("`tsuru --version`") != std::string::npos);
  const auto help = tsuru::test::run_tsuru({"--help"});
  CHECK(help.out.find("--version") != std::string::npos);
  const auto version = tsuru::test::run_tsuru({"--version"});
  CHECK(version.code == 0);
  CHECK(std::regex_match(version.out, std::regex(R"(tsuru \d+\.\d+\.\d+( \([^)]+\))?\n)")));
}

TEST_CASE("README: every option a command's --help describes is in the README", "[docs]") {
  const std::string readme = tsuru::test::read_file((kRepo / "README.md").string());
  const auto help = tsuru::test::run_tsuru({"--help"});
  const std::regex described(R"(^ +(-[a-z] \[ )?--([a-z][a-z0-9-]*))");
  int options = 0;
  for (const std::string& command : help_commands(help.out)) {
    const auto run = tsuru::test::run_tsuru({command, "--help"});
    REQUIRE(run.code == 0);
    for (const std::string& line : lines_of(run.out)) {
      std::smatch m;
      if (!std::regex_search(line, m, described) || m[2] == "help") continue;
      ++options;
      const std::regex mention("--" + m[2].str() + "([^a-z0-9-]|$)");
      INFO("tsuru " << command << " --help describes --" << m[2] << ", the README does not");
      CHECK(std::regex_search(readme, mention));
    }
  }
  CHECK(options >= 60);  // the parser found the options
}
