// Options as data: the one mechanism for every `NAME:k=v,k=v` spec a user types (scenes, drivers,
// --net, adapters). A declaration is a name, a type, a default or none, a range and one line of help.
//
// Adopting it for a new spec (a driver, an adapter, --stream ...), in three steps:
//   1. declare:  const options::OptionSet set{"adapter 'stream'", {
//                    options::number("fps", "frames a second it encodes").within(1, 240).or_default("60"),
//                    options::word("codec", {"h264", "vp8"}, "the encoder").or_default("h264")}};
//   2. parse:    const options::Values v = options::parse(set, text_after_the_colon);
//                (every error is a UsageError in the one wording below: exit 2, nothing started)
//   3. read:     v.number("fps"), v.choice_as<Codec>("codec"), v.optional_number("x") ...
// and list `set` where `pictor list` lists the others (src/cli/list.cpp), so --help shows it.
#pragma once
#include <cstddef>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/units.h"

namespace pictor::options {

// What a value may be written as (and what it is read back as).
enum class Type {
  text,      // any text (a path, a key list): the user of the value checks it further
  word,      // one of a fixed list of words; read back as its index (an enum)
  integer,   // a signed integer in [min, max]
  count,     // a non-negative integer in [min, max] up to 2^64-1 (seeds)
  number,    // a finite number in [min, max]
  flag,      // on or off
  duration,  // "500ms", "2s", "1.5m" (core/units.h), in seconds in [min, max]
  size,      // "WxH"
  bit_rate,  // bit/s with a unit: "9600bit", "256kbit", "50mbit", "1gbit"; positive, in [min, max]
  share,     // "0.5%" or "0.005", a fraction in [0, 1]
};

struct Option {
  std::string name;
  Type type = Type::text;
  std::string help;                        // one line: what it does (without type or default)
  std::optional<std::string> default_text; // as a user would write it; nullopt: unset unless given
  bool required = false;                   // the spec must give it
  std::vector<std::string> words;          // Type::word: the allowed words, in enum order
  double min = -std::numeric_limits<double>::infinity();  // integer, number, duration: inclusive
  double max = std::numeric_limits<double>::infinity();
  std::uint64_t count_max = std::numeric_limits<std::uint64_t>::max();  // Type::count
  std::string bare_unit;  // Type::bit_rate: the unit of a number written without one ("kbit"); empty: none

  // Builders, chained onto the constructors below.
  Option or_default(std::string text) &&;
  Option within(double low, double high) &&;
  Option up_to(std::uint64_t high) &&;   // Type::count
  Option bare_number_in(std::string unit) &&;  // Type::bit_rate: "1200" means 1200 `unit` (bit, kbit, ...)
  Option must_be_given() &&;
};

Option text(std::string name, std::string help);
Option word(std::string name, std::vector<std::string> words, std::string help);
Option integer(std::string name, std::string help);
Option count(std::string name, std::string help);
Option number(std::string name, std::string help);
Option flag(std::string name, std::string help);
Option duration(std::string name, std::string help);  // [0, kMaxDurationS] unless within()
Option size(std::string name, std::string help);
Option bit_rate(std::string name, std::string help);
Option share(std::string name, std::string help);

// The options of one spec-taking thing.
struct OptionSet {
  OptionSet() = default;
  OptionSet(std::string owner_, std::vector<Option> options_, std::string separators_ = ":,",
            std::optional<std::string> leading_ = std::nullopt, std::string leading_help_ = {})
      : owner(std::move(owner_)), options(std::move(options_)), separators(std::move(separators_)),
        leading(std::move(leading_)), leading_help(std::move(leading_help_)) {}

  // How messages name the owner: "scene 'spin'", "driver 'scripted'", "--net".
  std::string owner;
  std::vector<Option> options;
  // The characters between NAME=VALUE items (scenes and drivers: ':' or ','; --net: ',').
  std::string separators = ":,";
  // A first item that is no NAME=VALUE but a value of its own ("replay:REC,timeout=2s"): its
  // placeholder for help and messages ("REC"); it runs to the first ',' (it may hold ':' and '/'),
  // or to the first separator where ',' is none.
  std::optional<std::string> leading;
  std::string leading_help;  // what the leading value is, for help

  const Option* find(std::string_view name) const;
};

// The items of a spec's option part, as written, in order; `leading` when the set has one.
struct Items {
  std::string leading;
  std::vector<std::pair<std::string, std::string>> given;
};

// Splits "k=v,k=v" (after "NAME:"). Empty items are skipped. Throws UsageError for an item
// without '=' or without a name ("<owner>: 'x' is not NAME=VALUE"), a name given twice
// ("<owner>: option 'x' given twice") and a missing leading value.
Items split(const OptionSet& set, std::string_view args);

// The option part again from its items, in the set's own form (the leading value, then
// NAME=VALUE items joined by ',' where ',' separates, else by the first separator):
// split(set, format(set, items)) gives the items back.
std::string format(const OptionSet& set, const Items& items);

// Every declared option's value: given, else its default, else unset. Getters of an option that
// is not declared, or not of the getter's type, are programming errors (std::logic_error); so is
// reading an unset option other than through the optional_ getters.
class Values {
 public:
  bool given(std::string_view name) const;
  bool has(std::string_view name) const;          // given or defaulted
  const std::string& leading() const { return leading_; }
  const std::string& text(std::string_view name) const;  // as written, for any type
  std::int64_t integer(std::string_view name) const;
  std::uint64_t count(std::string_view name) const;
  double number(std::string_view name) const;     // number, duration (s), bit_rate (bit/s), share
  bool flag(std::string_view name) const;
  Size size(std::string_view name) const;
  std::size_t choice(std::string_view name) const;  // the word's index in the declaration
  template <class Enum>
  Enum choice_as(std::string_view name) const {
    return static_cast<Enum>(choice(name));
  }
  std::optional<double> optional_number(std::string_view name) const;
  template <class Enum>
  std::optional<Enum> optional_choice_as(std::string_view name) const {
    if (!has(name)) return std::nullopt;
    return choice_as<Enum>(name);
  }

 private:
  friend Values resolve(const OptionSet& set, const Items& items);
  // One option's declaration (a copy: values outlive the set they were parsed with) and its
  // value; the field of its type holds it once `set`.
  struct Entry {
    Option option;
    bool set = false, given = false;
    std::string text;
    std::int64_t integer = 0;
    std::uint64_t count = 0;
    double number = 0;
    bool flag = false;
    Size size;
    std::size_t choice = 0;
  };
  const Entry& entry(std::string_view name, Type type) const;
  const Entry& entry(std::string_view name) const;
  std::map<std::string, Entry, std::less<>> entries_;
  std::string leading_;
};

// Checks the items against the declarations: an unknown name ("<owner> has no option 'x'
// (options: a, b)"), a value not of its type or outside its range ("<owner>: x=v is not an
// integer in [1, 10] (help)"), a required option not given ("<owner>: option 'x' is required
// (help)"). UsageError for each; defaults fill in the rest (a bad default is a std::logic_error).
Values resolve(const OptionSet& set, const Items& items);

// split, then resolve.
Values parse(const OptionSet& set, std::string_view args);

// "NAME[:ARGS]" into NAME and ARGS (empty without ':').
std::pair<std::string, std::string_view> split_name(std::string_view spec);

// What a value of `option` must be, for messages and help: "an integer in [1, 1000000]",
// "one of racing, shooter, strategy", "a duration (e.g. 20ms, 1.5s)".
std::string expectation(const Option& option);

// The declared names for a message: "objects, seed, max_fps" ("none" for none).
std::string names(const OptionSet& set);

// The set as help text, one option a line, indented by `indent` spaces:
//   objects=INTEGER   number of cubes; an integer in [1, 1000000]; default 500
std::string help(const OptionSet& set, int indent = 2);

}  // namespace pictor::options
