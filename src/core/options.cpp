// The one parser of NAME=VALUE specs and the one wording of their errors (see options.h).
#include "core/options.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "core/error.h"

namespace pictor::options {

namespace {

Option make(std::string name, Type type, std::string help) {
  Option o;
  o.name = std::move(name);
  o.type = type;
  o.help = std::move(help);
  return o;
}

// The whole text as a number of type T (std::from_chars: no spaces, no hex); one leading '+' is
// taken, as strtod took it.
template <class T>
bool whole(std::string_view text, T& out) {
  if (text.size() > 1 && text[0] == '+' && text[1] != '-') text.remove_prefix(1);
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return ec == std::errc() && end == text.data() + text.size() && !text.empty();
}

// A number followed by a unit word ("50mbit", "0.5%"): the number must be finite.
bool number_and_unit(std::string_view text, double& value, std::string_view& unit) {
  std::size_t digits = 0;
  while (digits < text.size() && std::string_view("+-.0123456789eE").find(text[digits]) != std::string_view::npos) {
    // An 'e' only inside a number ("1e3"), not the start of a unit.
    if ((text[digits] == 'e' || text[digits] == 'E') &&
        (digits + 1 >= text.size() || std::string_view("+-0123456789").find(text[digits + 1]) == std::string_view::npos))
      break;
    ++digits;
  }
  unit = text.substr(digits);
  return whole(text.substr(0, digits), value) && std::isfinite(value);
}

std::string number_text(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.15g", v);
  return buf;
}

bool bounded(const Option& o) { return std::isfinite(o.min) || std::isfinite(o.max); }

// The bit/s of each rate unit, largest first.
constexpr std::pair<const char*, double> kRateUnits[] = {{"gbit", 1e9}, {"mbit", 1e6}, {"kbit", 1e3}, {"bit", 1}};

// 200000 -> "200kbit": in the largest unit that holds it whole.
std::string rate_text(double bit_s) {
  for (const auto& [unit, scale] : kRateUnits)
    if (bit_s >= scale && std::fmod(bit_s, scale) == 0) return number_text(bit_s / scale) + unit;
  return number_text(bit_s) + "bit";
}

std::string range_text(const Option& o) {
  if (o.type == Type::duration)
    return "[" + format_duration(o.min) + ", " + format_duration(o.max) + "]";
  if (o.type == Type::bit_rate) return "[" + rate_text(o.min) + ", " + rate_text(o.max) + "]";
  return "[" + number_text(o.min) + ", " + number_text(o.max) + "]";
}

std::string joined(const std::vector<std::string>& words, const char* between) {
  std::string out;
  for (const auto& w : words) out += (out.empty() ? "" : between) + w;
  return out;
}

bool in_range(const Option& o, double v) { return v >= o.min && v <= o.max; }

}  // namespace

// ---- declarations

Option Option::or_default(std::string value) && {
  default_text = std::move(value);
  return std::move(*this);
}

Option Option::within(double low, double high) && {
  min = low;
  max = high;
  return std::move(*this);
}

Option Option::up_to(std::uint64_t high) && {
  count_max = high;
  return std::move(*this);
}

Option Option::bare_number_in(std::string unit) && {
  bare_unit = std::move(unit);
  return std::move(*this);
}

Option Option::must_be_given() && {
  required = true;
  return std::move(*this);
}

Option text(std::string name, std::string help) { return make(std::move(name), Type::text, std::move(help)); }
Option word(std::string name, std::vector<std::string> words, std::string help) {
  Option o = make(std::move(name), Type::word, std::move(help));
  o.words = std::move(words);
  return o;
}
Option integer(std::string name, std::string help) { return make(std::move(name), Type::integer, std::move(help)); }
Option count(std::string name, std::string help) { return make(std::move(name), Type::count, std::move(help)); }
Option number(std::string name, std::string help) { return make(std::move(name), Type::number, std::move(help)); }
Option flag(std::string name, std::string help) { return make(std::move(name), Type::flag, std::move(help)); }
Option duration(std::string name, std::string help) {
  return make(std::move(name), Type::duration, std::move(help)).within(0, kMaxDurationS);
}
Option size(std::string name, std::string help) { return make(std::move(name), Type::size, std::move(help)); }
Option bit_rate(std::string name, std::string help) { return make(std::move(name), Type::bit_rate, std::move(help)); }
Option share(std::string name, std::string help) {
  return make(std::move(name), Type::share, std::move(help)).within(0, 1);
}

const Option* OptionSet::find(std::string_view name) const {
  for (const auto& o : options)
    if (o.name == name) return &o;
  return nullptr;
}

std::string expectation(const Option& o) {
  switch (o.type) {
    case Type::text: return "a text";
    case Type::word: return "one of " + joined(o.words, ", ");
    case Type::integer: return bounded(o) ? "an integer in " + range_text(o) : "an integer";
    case Type::count:
      return o.count_max == std::numeric_limits<std::uint64_t>::max() ? "a non-negative integer"
                                                                      : "an integer in [0, " + std::to_string(o.count_max) + "]";
    case Type::number: return bounded(o) ? "a number in " + range_text(o) : "a number";
    case Type::flag: return "on or off";
    case Type::duration:
      // The longest duration Pictor takes is no bound worth naming.
      if (o.max >= kMaxDurationS)
        return o.min > 0 ? "a duration of at least " + format_duration(o.min) + " (e.g. 20ms, 1.5s)"
                         : "a duration (e.g. 20ms, 1.5s)";
      return "a duration in " + range_text(o) + " (e.g. 20ms, 1.5s)";
    case Type::size: return "a size WxH (e.g. 1280x720)";
    case Type::bit_rate: {
      const std::string bare = o.bare_unit.empty() ? "" : ", or a bare number of " + o.bare_unit;
      return (bounded(o) ? "a rate in " + range_text(o) + " in" : std::string("a positive rate in")) +
             " bit, kbit, mbit or gbit (e.g. 50mbit" + bare + ")";
    }
    case Type::share: return "a share in [0%, 100%] (e.g. 0.5% or 0.005)";
  }
  return "a value";
}

std::string names(const OptionSet& set) {
  std::vector<std::string> all;
  for (const auto& o : set.options) all.push_back(o.name);
  return all.empty() ? "none" : joined(all, ", ");
}

// ---- parsing

std::pair<std::string, std::string_view> split_name(std::string_view spec) {
  const auto colon = spec.find(':');
  if (colon == std::string_view::npos) return {std::string(spec), {}};
  return {std::string(spec.substr(0, colon)), spec.substr(colon + 1)};
}

Items split(const OptionSet& set, std::string_view args) {
  Items items;
  if (set.leading) {
    // To the first ',' where ',' separates (the value may hold ':'), else to the first separator.
    const bool comma_separates = set.separators.find(',') != std::string::npos;
    const auto comma = comma_separates ? args.find(',') : args.find_first_of(set.separators);
    items.leading = std::string(args.substr(0, comma));
    if (items.leading.empty())
      throw UsageError(set.owner + ": " + *set.leading + " comes first (" + *set.leading + "[,option=value...])");
    args = comma == std::string_view::npos ? std::string_view() : args.substr(comma + 1);
  }
  std::size_t pos = 0;
  while (pos <= args.size()) {
    std::size_t end = args.find_first_of(set.separators, pos);
    if (end == std::string_view::npos) end = args.size();
    const std::string_view item = args.substr(pos, end - pos);
    pos = end + 1;
    if (item.empty()) continue;
    const auto eq = item.find('=');
    if (eq == std::string_view::npos || eq == 0)
      throw UsageError(set.owner + ": '" + std::string(item) + "' is not NAME=VALUE");
    std::string name(item.substr(0, eq));
    for (const auto& [seen, value] : items.given)
      if (seen == name) throw UsageError(set.owner + ": option '" + name + "' given twice");
    items.given.emplace_back(std::move(name), std::string(item.substr(eq + 1)));
  }
  return items;
}

std::string format(const OptionSet& set, const Items& items) {
  const char between = set.separators.find(',') != std::string::npos ? ',' : set.separators.front();
  std::string out = set.leading ? items.leading : std::string();
  bool first = !set.leading;
  for (const auto& [option, value] : items.given) {
    if (!first) out += between;
    out += option + "=" + value;
    first = false;
  }
  return out;
}

namespace {

// Reads `text` into the entry's field of its type; false when it is not a value of the type
// or lies outside the declared range.
bool read_value(const Option& o, const std::string& text, auto& e) {
  switch (o.type) {
    case Type::text: return true;
    case Type::word: {
      const auto it = std::find(o.words.begin(), o.words.end(), text);
      e.choice = static_cast<std::size_t>(it - o.words.begin());
      return it != o.words.end();
    }
    case Type::integer:
      return whole(text, e.integer) && in_range(o, static_cast<double>(e.integer));
    case Type::count:
      return text[0] != '-' && whole(text, e.count) && e.count <= o.count_max &&
             static_cast<double>(e.count) >= o.min;
    case Type::number: return whole(text, e.number) && std::isfinite(e.number) && in_range(o, e.number);
    case Type::flag:
      e.flag = text == "on";
      return text == "on" || text == "off";
    case Type::duration:
      try {
        e.number = parse_duration_s(text);
      } catch (const UsageError&) {
        return false;
      }
      return in_range(o, e.number);
    case Type::size:
      try {
        e.size = parse_size(text);
      } catch (const UsageError&) {
        return false;
      }
      return true;
    case Type::bit_rate: {
      std::string_view unit;
      if (!number_and_unit(text, e.number, unit)) return false;
      if (unit.empty()) unit = o.bare_unit;
      if (unit == "bps") unit = "bit";
      double scale = 0;
      for (const auto& [name, bit_s] : kRateUnits)
        if (unit == name) scale = bit_s;
      e.number *= scale;
      return e.number > 0 && std::isfinite(e.number) && in_range(o, e.number);
    }
    case Type::share: {
      std::string_view unit;
      if (!number_and_unit(text, e.number, unit) || (!unit.empty() && unit != "%")) return false;
      if (unit == "%") e.number /= 100.0;
      return in_range(o, e.number);
    }
  }
  return false;
}

}  // namespace

Values resolve(const OptionSet& set, const Items& items) {
  Values v;
  v.leading_ = items.leading;
  for (const auto& o : set.options) {
    Values::Entry& e = v.entries_[o.name];
    e.option = o;
    if (o.default_text) {
      e.text = *o.default_text;
      if (e.text.empty() && o.type != Type::text) throw std::logic_error(set.owner + ": empty default for " + o.name);
      if (!read_value(o, e.text, e)) throw std::logic_error(set.owner + ": bad default " + o.name + "=" + e.text);
      e.set = true;
    }
  }
  for (const auto& [name, text] : items.given) {
    const auto it = v.entries_.find(name);
    if (it == v.entries_.end())
      throw UsageError(set.owner + " has no option '" + name + "' (options: " + names(set) + ")");
    Values::Entry& e = it->second;
    const Option& o = e.option;
    if ((text.empty() && o.type != Type::text) || !read_value(o, text, e))
      throw UsageError(set.owner + ": " + name + "=" + text + " is not " + expectation(o) +
                       (o.help.empty() ? "" : " (" + o.help + ")"));
    e.text = text;
    e.set = e.given = true;
  }
  for (const auto& o : set.options)
    if (o.required && !v.entries_.at(o.name).given)
      throw UsageError(set.owner + ": option '" + o.name + "' is required (" + o.help + ")");
  return v;
}

Values parse(const OptionSet& set, std::string_view args) { return resolve(set, split(set, args)); }

// ---- help

namespace {

std::string placeholder(const Option& o) {
  switch (o.type) {
    case Type::text: return "TEXT";
    case Type::word: return joined(o.words, "|");
    case Type::integer:
    case Type::count: return "N";
    case Type::number: return "X";
    case Type::flag: return "on|off";
    case Type::duration: return "DURATION";
    case Type::size: return "WxH";
    case Type::bit_rate: return "RATE";
    case Type::share: return "SHARE";
  }
  return "VALUE";
}

}  // namespace

std::string help(const OptionSet& set, int indent) {
  std::vector<std::pair<std::string, std::string>> rows;
  if (set.leading) rows.emplace_back(*set.leading, "(first) " + set.leading_help);
  for (const auto& o : set.options) {
    std::string what = o.help;
    if (o.type != Type::text && o.type != Type::word && o.type != Type::flag) what += "; " + expectation(o);
    if (o.required) what += "; required";
    else if (o.default_text && !o.default_text->empty()) what += "; default " + *o.default_text;
    rows.emplace_back(o.name + "=" + placeholder(o), what);
  }
  std::size_t width = 0;
  for (const auto& r : rows) width = std::max(width, r.first.size());
  std::string out;
  for (const auto& [left, right] : rows)
    out += std::string(static_cast<std::size_t>(indent), ' ') + left + std::string(width - left.size() + 2, ' ') + right + "\n";
  return out;
}

// ---- reading

const Values::Entry& Values::entry(std::string_view name) const {
  const auto it = entries_.find(name);
  if (it == entries_.end()) throw std::logic_error("no option '" + std::string(name) + "' declared");
  return it->second;
}

const Values::Entry& Values::entry(std::string_view name, Type type) const {
  const Entry& e = entry(name);
  if (e.option.type != type) throw std::logic_error("option '" + std::string(name) + "' read as another type");
  if (!e.set) throw std::logic_error("option '" + std::string(name) + "' read while unset");
  return e;
}

bool Values::given(std::string_view name) const { return entry(name).given; }
bool Values::has(std::string_view name) const { return entry(name).set; }

const std::string& Values::text(std::string_view name) const {
  const Entry& e = entry(name);
  if (!e.set) throw std::logic_error("option '" + std::string(name) + "' read while unset");
  return e.text;
}

std::int64_t Values::integer(std::string_view name) const { return entry(name, Type::integer).integer; }
std::uint64_t Values::count(std::string_view name) const { return entry(name, Type::count).count; }
bool Values::flag(std::string_view name) const { return entry(name, Type::flag).flag; }
Size Values::size(std::string_view name) const { return entry(name, Type::size).size; }
std::size_t Values::choice(std::string_view name) const { return entry(name, Type::word).choice; }

double Values::number(std::string_view name) const {
  const Entry& e = entry(name);
  const Type t = e.option.type;
  if (t != Type::number && t != Type::duration && t != Type::bit_rate && t != Type::share)
    throw std::logic_error("option '" + std::string(name) + "' is not a number");
  if (!e.set) throw std::logic_error("option '" + std::string(name) + "' read while unset");
  return e.number;
}

std::optional<double> Values::optional_number(std::string_view name) const {
  if (!has(name)) return std::nullopt;
  return number(name);
}

}  // namespace pictor::options
