#include "tools/play/console.hpp"

#include <cctype>
#include <cstdio>
#include <istream>
#include <ostream>

#include "engine/rules/binary_io.hpp"
#include "engine/rules/notation.hpp"
#include "eval/egdb/database.hpp"
#include "protocol/pdn.hpp"
#include "tools/play/board_view.hpp"

namespace tsuru::play {
namespace {

constexpr std::string_view kPrompt = "> ";
// The longest input line read whole; the rest of a longer line is skipped unread into memory.
constexpr std::size_t kMaxLine = 1024;
// How much of the person's text an answer repeats.
constexpr std::size_t kShown = 80;

// Text typed by the person as it may be repeated to the terminal: control bytes escaped
// (\xNN), cut after `limit` characters with "…" (a pasted megabyte is not echoed back, and
// an escape sequence is never sent to the terminal).
std::string shown(std::string_view text, std::size_t limit = kShown) {
  std::string out;
  std::size_t chars = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    const bool continuation = (c & 0xc0) == 0x80;  // a UTF-8 character is never cut in two
    if (!continuation && chars++ == limit) return out + "\u2026";
    if (c < 0x20 || c == 0x7f) {
      char hex[8];
      std::snprintf(hex, sizeof hex, "\\x%02x", c);
      out += hex;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

// One line of at most kMaxLine bytes; `cut` tells that more followed (skipped). False at the
// end of the input with nothing read.
bool read_line(std::istream& in, std::string& line, bool& cut) {
  line.clear();
  cut = false;
  std::streambuf* buf = in.rdbuf();
  bool any = false;
  for (int c = buf->sbumpc(); c != std::char_traits<char>::eof(); c = buf->sbumpc()) {
    any = true;
    if (c == '\n') return true;
    if (line.size() < kMaxLine)
      line += static_cast<char>(c);
    else
      cut = true;
  }
  in.setstate(std::ios::eofbit);
  return any;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// A move that resets the offer bar and the move-count rules: a man move or a capture.
bool man_move_or_capture(const Position& before, const Move& m) {
  return m.is_capture() || !has(before.kings(), m.from);
}

constexpr std::string_view kHelp =
    "Moves: numeric 11-15, 22x31, 11x18x27 (or from x to when that is unambiguous),\n"
    "       algebraic c3-d4, c3xe5 (the frame of the board names files and ranks).\n"
    "Commands:\n"
    "  moves       list the legal moves\n"
    "  undo        take back your last move and the engine's reply\n"
    "  draw        offer a draw with your next move\n"
    "  accept      accept the engine's draw offer\n"
    "  resign      resign the game\n"
    "  new         start a new game\n"
    "  save FILE   save the game as PDN\n"
    "  level L     engine level: beginner, medium or hard\n"
    "  flip        turn the board round\n"
    "  help        this text\n"
    "  quit        leave\n";

}  // namespace

Console::Console(const PlaySettings& settings, std::istream& in, std::ostream& out)
    : settings_(settings),
      in_(in),
      out_(out),
      game_(settings.variant, settings.start),
      bottom_(settings.human) {
  EngineOptions options;
  options.level = settings.level;
  options.seed = settings.seed;
  options.tt_log2 = settings.tt_log2;
  options.eval_file = settings.eval_file;
  options.egdb_dir = settings.egdb_dir;
  options.egdb_draws = settings.egdb_draws;
  options.egdb_resign = settings.egdb_resign;
  engine_.set_options(options);
}

int Console::run() {
  const VariantInfo& vi = info(settings_.variant);
  out_ << "Tsuru - " << vi.description << ", engine level " << level_name(settings_.level)
       << ".\nYou play " << side_name(settings_.human)
       << (settings_.human == vi.first_to_move ? " (the first player)" : " (the second player)")
       << ". Type help for the commands.\n";
  if (const auto db = engine_.databases(settings_.variant))
    out_ << "Endgame databases: up to " << db->pieces() << " pieces ("
         << Engine::egdb_directory(engine_.options()) << ").\n";
  new_game();
  std::string line;
  while (true) {
    out_ << kPrompt << std::flush;
    bool cut = false;
    if (!read_line(in_, line, cut)) {
      out_ << "\nEnd of input. Goodbye.\n";
      return 0;
    }
    if (cut) {
      out_ << "Line too long (more than " << kMaxLine << " bytes): '" << shown(line)
           << "'. Type help for the commands.\n";
      continue;
    }
    if (!handle(line)) {
      out_ << "Goodbye.\n";
      return 0;
    }
  }
}

bool Console::handle(std::string_view line) {
  line = trim(line);
  if (line.empty()) return true;
  const std::size_t space = line.find_first_of(" \t");
  const std::string word = lower(line.substr(0, space));
  const std::string_view arg =
      space == std::string_view::npos ? std::string_view{} : trim(line.substr(space));
  if (word == "quit" || word == "exit") return false;
  if (word == "help" || word == "?") {
    help();
  } else if (word == "moves") {
    list_moves();
  } else if (word == "undo") {
    undo();
  } else if (word == "draw") {
    offer_draw();
  } else if (word == "accept") {
    accept_draw();
  } else if (word == "resign") {
    resign();
  } else if (word == "new") {
    new_game();
  } else if (word == "save") {
    save(arg);
  } else if (word == "level") {
    set_level(arg);
  } else if (word == "flip") {
    bottom_ = opponent(bottom_);
    show_position();
  } else {
    human_move(line);
  }
  return true;
}

void Console::new_game() {
  game_ = Game(settings_.variant, settings_.start);
  offers_ = DrawOffers{};
  offer_history_.clear();
  offer_next_ = false;
  ending_ = Ending::None;
  engine_.new_game();
  out_ << "\nNew game.\n";
  if (!over() && game_.position().turn() != settings_.human)
    engine_turn();  // shows the position after its move
  else
    show_position();
}

std::string Console::side_name(Side s) const {
  return s == Side::White ? "White" : "Black";
}

std::string Console::describe_move(const Position& before, const Move& m) const {
  const Variant v = settings_.variant;
  return notation::format_move_pdn(v, before, m) + " (" +
         notation::format_move_algebraic(v, before, m) + ")";
}

bool Console::over() const {
  return ending_ != Ending::None || game_.result().outcome != Outcome::Ongoing;
}

Outcome Console::outcome() const {
  switch (ending_) {
    case Ending::HumanResigned:
      return settings_.human == Side::White ? Outcome::BlackWins : Outcome::WhiteWins;
    case Ending::EngineResigned:
      return settings_.human == Side::White ? Outcome::WhiteWins : Outcome::BlackWins;
    case Ending::Agreed:
      return Outcome::Draw;
    case Ending::None:
      break;
  }
  return game_.result().outcome;
}

void Console::show_position() {
  const Position& pos = game_.position();
  out_ << '\n' << render_board(settings_.variant, pos, bottom_);
  const auto moves = game_.moves();
  if (!moves.empty()) {
    const std::size_t i = moves.size() - 1;
    const Position& before = game_.positions()[i];
    out_ << "Last move: " << describe_move(before, moves[i]) << " by "
         << (before.turn() == settings_.human ? "you" : "Tsuru") << ".\n";
  }
  if (over()) {
    show_result();
    return;
  }
  const Side turn = pos.turn();
  out_ << side_name(turn) << " to move" << (turn == settings_.human ? " (you)." : " (Tsuru).")
       << '\n';
  const GameResult r = game_.result();
  // The seed's page shows the count once each side has 5 moves or fewer left.
  if (r.plies_left >= 0 && r.plies_left <= 10)
    out_ << "Moves left before an automatic draw: " << (r.plies_left + 1) / 2 << " ("
         << r.plies_left << " plies).\n";
  if (turn == settings_.human && has_capture(settings_.variant, pos))
    out_ << "You must capture: a capture is compulsory.\n";
  if (turn == settings_.human && offers_.pending() == opponent(settings_.human))
    out_ << "Tsuru offers a draw: type accept to take it, or play a move to decline.\n";
}

void Console::show_result() {
  const Outcome o = outcome();
  std::string reason;
  switch (ending_) {
    case Ending::HumanResigned:
      reason = side_name(settings_.human) + " resigned";
      break;
    case Ending::EngineResigned:
      reason = side_name(opponent(settings_.human)) + " resigned";
      break;
    case Ending::Agreed:
      reason = "draw by agreement";
      break;
    case Ending::None: {
      const GameResult r = game_.result();
      if (r.reason == ResultReason::NoLegalMove)
        reason = side_name(game_.position().turn()) + " has no legal move";
      else
        reason = std::string(describe(r.reason));
      break;
    }
  }
  const bool human_wins = (o == Outcome::WhiteWins && settings_.human == Side::White) ||
                          (o == Outcome::BlackWins && settings_.human == Side::Black);
  out_ << "Result: " << describe(o) << " (" << reason << "), "
       << pdn::result_text(settings_.variant, o) << ". "
       << (o == Outcome::Draw ? "Drawn game."
           : human_wins       ? "You win."
                              : "Tsuru wins.")
       << '\n'
       << "Type new for another game, save FILE to keep this one, or quit.\n";
}

void Console::play(const Move& m, bool offer) {
  const Position before = game_.position();
  offer_history_.push_back(offers_);
  game_.play(m);
  offers_.on_move(before.turn(), man_move_or_capture(before, m), offer);
}

void Console::engine_turn() {
  const Side me = game_.position().turn();
  if (engine_.resigns(game_)) {
    ending_ = Ending::EngineResigned;
    out_ << "Tsuru resigns: the endgame databases say its position is lost.\n";
    show_position();
    return;
  }
  engine_.set_position(game_);
  const bool offer = offers_.may_offer(me) && engine_.offers_draw();
  const BestMove best = engine_.think(SearchLimits{});
  if (!best.has_move || !game_.legal_moves().contains(best.move)) {
    // Cannot happen with a sound engine; say so rather than loop.
    out_ << "Tsuru found no move.\n";
    return;
  }
  out_ << "Tsuru plays " << describe_move(game_.position(), best.move)
       << (offer ? " and offers a draw" : "") << ".\n";
  play(best.move, offer);
  show_position();
}

void Console::human_move(std::string_view text) {
  if (over()) {
    out_ << "The game is over. Type new for another game.\n";
    return;
  }
  const Variant v = settings_.variant;
  const Position& pos = game_.position();
  const auto parsed = notation::parse_move(v, pos, text);
  if (!parsed) {
    const notation::MoveError& e = parsed.error();
    const bool must_capture = has_capture(v, pos);
    if (e.kind == notation::MoveError::Kind::Malformed) {
      out_ << "Not a command or a move: '" << shown(text) << "' (" << shown(e.message)
           << "). Type help for the commands.\n";
    } else if (must_capture && text.find('-') != std::string_view::npos) {
      out_ << "A capture is compulsory: you must capture. Legal moves:";
      for (const Move& m : game_.legal_moves()) out_ << ' ' << notation::format_move_pdn(v, pos, m);
      out_ << '\n';
    } else {
      out_ << "Illegal move '" << shown(text) << "': " << shown(e.message)
           << ". Type moves for the list.\n";
    }
    return;
  }
  const bool offer = offer_next_;
  offer_next_ = false;
  out_ << "You play " << describe_move(pos, *parsed) << (offer ? " and offer a draw" : "") << ".\n";
  play(*parsed, offer);
  if (over()) {
    show_position();
    return;
  }
  if (offer) {
    engine_.set_position(game_);
    if (engine_.accepts_draw()) {
      out_ << "Tsuru accepts your draw offer.\n";
      ending_ = Ending::Agreed;
      show_position();
      return;
    }
    out_ << "Tsuru declines your draw offer.\n";
  }
  engine_turn();
}

void Console::list_moves() {
  const Position& pos = game_.position();
  if (over()) {
    out_ << "The game is over: no moves.\n";
    return;
  }
  const MoveList moves = game_.legal_moves();
  out_ << "Legal moves (" << moves.size() << "):";
  for (const Move& m : moves) out_ << ' ' << describe_move(pos, m);
  out_ << '\n';
}

void Console::undo() {
  if (ending_ != Ending::None) {
    out_ << "The game has ended by " << (ending_ == Ending::Agreed ? "agreement" : "resignation")
         << "; type new for another game.\n";
    return;
  }
  // Back to before the person's last move: that takes back the engine's reply with it.
  const auto positions = game_.positions();
  std::ptrdiff_t target = -1;
  for (std::ptrdiff_t i = static_cast<std::ptrdiff_t>(game_.moves().size()) - 1; i >= 0; --i) {
    if (positions[static_cast<std::size_t>(i)].turn() == settings_.human) {
      target = i;
      break;
    }
  }
  if (target < 0) {
    out_ << "Nothing to undo.\n";
    return;
  }
  const std::size_t keep = static_cast<std::size_t>(target);
  const std::size_t taken = game_.moves().size() - keep;
  while (game_.moves().size() > keep) game_.undo();
  offers_ = offer_history_[keep];
  offer_history_.resize(keep);
  offer_next_ = false;
  out_ << "Took back " << taken << (taken == 1 ? " move" : " moves") << ".\n";
  show_position();
}

void Console::offer_draw() {
  if (over()) {
    out_ << "The game is over.\n";
  } else if (!offers_.may_offer(settings_.human)) {
    out_ << "You may not offer a draw again until a man moves or a piece is captured.\n";
  } else {
    offer_next_ = true;
    out_ << "Your draw offer goes with your next move.\n";
  }
}

void Console::accept_draw() {
  if (!over() && game_.position().turn() == settings_.human &&
      offers_.pending() == opponent(settings_.human)) {
    ending_ = Ending::Agreed;
    out_ << "You accept Tsuru's draw offer.\n";
    show_result();
  } else {
    out_ << "There is no draw offer to accept.\n";
  }
}

void Console::resign() {
  if (over()) {
    out_ << "The game is over.\n";
    return;
  }
  ending_ = Ending::HumanResigned;
  out_ << "You resign.\n";
  show_result();
}

void Console::save(std::string_view file) {
  if (file.empty()) {
    out_ << "Usage: save FILE\n";
    return;
  }
  pdn::Tags tags;
  tags.event = "Tsuru console game";
  const std::string engine_name = "Tsuru (" + std::string(level_name(settings_.level)) + ")";
  tags.white = settings_.human == Side::White ? "You" : engine_name;
  tags.black = settings_.human == Side::Black ? "You" : engine_name;
  tags.result = outcome();
  const std::string text = pdn::write(game_, tags);
  const auto written = write_file_atomically(
      std::string(file), {reinterpret_cast<const std::uint8_t*>(text.data()), text.size()});
  if (!written)
    out_ << "Cannot write '" << shown(file) << "': " << shown(written.error()) << ".\n";
  else
    out_ << "Game saved to " << shown(file) << ".\n";
}

void Console::set_level(std::string_view name) {
  const auto level = parse_level(lower(name));
  if (!level || *level == Level::None) {
    out_ << "Unknown level '" << shown(name) << "': choose beginner, medium or hard.\n";
    return;
  }
  settings_.level = *level;
  EngineOptions options = engine_.options();
  options.level = *level;
  engine_.set_options(options);
  out_ << "Engine level: " << level_name(*level) << ".\n";
}

void Console::help() {
  out_ << kHelp;
}

}  // namespace tsuru::play
