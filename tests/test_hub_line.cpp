// Hub line codec: the grammar of docs/hub.md, every syntax error, canonical output.
#include <random>
#include <string>

#include <catch2/catch.hpp>

#include "protocol/hub/line.hpp"

using namespace tsuru;
using hub::Message;
using hub::parse_line;

namespace {

Message parsed(const std::string& text) {
  const auto m = parse_line(text);
  INFO(text);
  REQUIRE(m.ok());
  return *m;
}

std::string error_of(const std::string& text) {
  const auto m = parse_line(text);
  INFO(text);
  REQUIRE_FALSE(m.ok());
  return m.error();
}

}  // namespace

TEST_CASE("hub line: commands, values, quoted values and flags", "[hub][line]") {
  const Message go = parsed("go think");
  CHECK(go.command() == "go");
  CHECK(go.has("think"));
  CHECK(go.value("think") == nullptr);  // a flag has no value
  CHECK_FALSE(go.has("ponder"));

  const Message pos =
      parsed("pos pos=Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww moves=\"32-28 19-23\"");
  CHECK(pos.command() == "pos");
  REQUIRE(pos.value("pos"));
  CHECK(*pos.value("pos") == "Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww");
  REQUIRE(pos.value("moves"));
  CHECK(*pos.value("moves") == "32-28 19-23");

  // A quoted value may hold spaces and '=', or nothing at all.
  const Message id = parsed("id name=Scan author=\"Fabien Letouzey = x\" country=\"\"");
  CHECK(*id.value("author") == "Fabien Letouzey = x");
  REQUIRE(id.value("country"));
  CHECK(id.value("country")->empty());

  // The kinds of line docs/hub.md shows.
  const Message done = parsed("done move=32-28 ponder=19-23");
  CHECK(done.arguments().size() == 2);
  CHECK(done.arguments()[0] == hub::Argument{"move", "32-28"});
  CHECK(done.arguments()[1] == hub::Argument{"ponder", "19-23"});
  const Message param =
      parsed("param name=variant value=international type=enum values=\"international english\"");
  CHECK(*param.value("values") == "international english");
  CHECK(parsed("level infinite").has("infinite"));
  CHECK(parsed("ping").arguments().empty());
}

TEST_CASE("hub line: white space, line ends, repeats, case, UTF-8", "[hub][line]") {
  const Message m = parsed("  \tlevel   depth=3\t nodes=100   ");
  CHECK(m.command() == "level");
  CHECK(*m.value("depth") == "3");
  CHECK(*m.value("nodes") == "100");
  CHECK(parsed("stop\r").command() == "stop");
  CHECK(parsed("stop\r\n").command() == "stop");
  CHECK(parsed("stop\n").command() == "stop");

  // The last repeat wins, even when it is a flag.
  CHECK(*parsed("level depth=3 depth=5").value("depth") == "5");
  const Message flag_last = parsed("level depth=3 depth");
  CHECK(flag_last.has("depth"));
  CHECK(flag_last.value("depth") == nullptr);

  // Names are case-sensitive.
  CHECK(parsed("Go Think").command() == "Go");
  CHECK_FALSE(parsed("Go Think").has("think"));

  // Non-ASCII UTF-8 is ordinary text.
  CHECK(*parsed("id author=\"S\xc3\xb8ren \xe6\x97\xa5\"").value("author") ==
        "S\xc3\xb8ren \xe6\x97\xa5");
  CHECK(*parsed("id name=Tsuru\xe2\x84\xa2").value("name") == "Tsuru\xe2\x84\xa2");
}

TEST_CASE("hub line: every syntax error has its message", "[hub][line]") {
  CHECK(error_of("") == "missing command");
  CHECK(error_of("   \t ") == "missing command");
  CHECK(error_of("\r") == "missing command");
  CHECK(error_of("=x") == "missing command");
  CHECK(error_of("pos=x moves=y") == "missing command");
  CHECK(error_of("\"go\" think") == "missing command");

  CHECK(error_of("pos pos=\"Wbbb") == "unclosed quote");
  CHECK(error_of("id author=\"a\" name=\"b") == "unclosed quote");

  CHECK(error_of("pos moves=") == "missing value");
  CHECK(error_of("pos moves= pos=x") == "missing value");
  CHECK(error_of("pos moves=\t") == "missing value");

  CHECK(error_of("pos =x") == "bad argument");
  CHECK(error_of("pos \"x\"") == "bad argument");
  CHECK(error_of("pos a\"b\"") == "bad argument");
  CHECK(error_of("pos a=b\"c\"") == "bad argument");
  CHECK(error_of("pos a=\"b\"c") == "bad argument");
  CHECK(error_of("pos a=b=c") == "bad argument");

  // Binary garbage: control characters, NUL, bytes that are not UTF-8.
  CHECK(error_of("go\x01 think") == "bad character");
  CHECK(error_of(std::string("go\0think", 8)) == "bad character");
  CHECK(error_of("go think\x7f") == "bad character");
  CHECK(error_of("stop\rstop") == "bad character");
  CHECK(error_of("\xff\xfe\xfd") == "bad character");
  CHECK(error_of("id name=\xc0\xaf") == "bad character");          // overlong '/'
  CHECK(error_of("id name=\xed\xa0\x80") == "bad character");      // a UTF-16 surrogate
  CHECK(error_of("id name=\xf4\x90\x80\x80") == "bad character");  // above U+10FFFF
  CHECK(error_of("id name=\xe2\x82") == "bad character");          // cut short
  CHECK(error_of("id name=\x80") == "bad character");              // a lone continuation byte

  // Length: the limit itself is fine, one more byte is not, 1 MB certainly not.
  std::string longest = "pos moves=\"" + std::string(hub::kMaxLineLength - 12, ' ') + "\"";
  REQUIRE(longest.size() == hub::kMaxLineLength);
  CHECK(parse_line(longest).ok());
  CHECK(error_of(longest + " ") == "line too long");
  CHECK(error_of("pos moves=\"" + std::string(1 << 20, '1') + "\"") == "line too long");
}

TEST_CASE("hub line: output in canonical order, quoted only when needed", "[hub][line]") {
  Message done("done");
  done.add("move", "32-28").add("ponder", "19-23");
  CHECK(hub::format_line(done) == "done move=32-28 ponder=19-23");

  Message info("info");
  info.add("depth", "3").add("pv", "32-28 19-23").add("score", "-0.25");
  CHECK(hub::format_line(info) == "info depth=3 pv=\"32-28 19-23\" score=-0.25");

  Message id("id");
  id.add("name", "Tsuru").add("author", "Tsuru team").add("empty", "").add("eq", "a=b");
  CHECK(hub::format_line(id) == "id name=Tsuru author=\"Tsuru team\" empty=\"\" eq=\"a=b\"");

  // Hub has no escapes: a quote or a control character in a value cannot be written as is.
  Message bad("error");
  bad.add("message", "say \"hi\"\n").add_flag("flag");
  CHECK(hub::format_line(bad) == "error message=\"say 'hi' \" flag");
  Message tab("pos");
  tab.add("moves", "32-28\t19-23");  // a tab is white space: quoted, and kept
  CHECK(hub::format_line(tab) == "pos moves=\"32-28\t19-23\"");
  CHECK(hub::format_line(Message("wait")) == "wait");

  CHECK(hub::is_name("32-28"));
  CHECK(hub::is_name("-0.25"));
  CHECK_FALSE(hub::is_name(""));
  CHECK_FALSE(hub::is_name("a b"));
  CHECK_FALSE(hub::is_name("a=b"));
  CHECK_FALSE(hub::is_name("a\"b"));
  CHECK_FALSE(hub::is_name("a\tb"));
}

TEST_CASE("hub line: parse(format(m)) == m for random messages", "[hub][line]") {
  std::mt19937 rng(11);
  const std::string alphabet = "ab-x=\" \t09.\xc3\xa9";
  auto random_text = [&](bool allow_empty) {
    std::string s;
    const int len = static_cast<int>(rng() % 8) + (allow_empty ? 0 : 1);
    while (static_cast<int>(s.size()) < len) {
      const std::size_t k = rng() % (alphabet.size() - 1);
      if (alphabet[k] == '\xc3') {
        s += "\xc3\xa9";
      } else {
        s += alphabet[k];
      }
    }
    return s;
  };
  auto random_name = [&] {
    std::string s;
    while (!hub::is_name(s)) s = random_text(false);
    return s;
  };
  for (int i = 0; i < 2000; ++i) {
    Message m(random_name());
    const int n = static_cast<int>(rng() % 5);
    for (int k = 0; k < n; ++k) {
      if (rng() % 4 == 0) {
        m.add_flag(random_name());
      } else {
        std::string value = random_text(true);
        for (char& c : value)
          if (c == '"') c = '\'';  // cannot be written (see the test above)
        m.add(random_name(), value);
      }
    }
    const std::string text = hub::format_line(m);
    INFO(text);
    const auto back = parse_line(text);
    REQUIRE(back.ok());
    CHECK(*back == m);
  }
}
