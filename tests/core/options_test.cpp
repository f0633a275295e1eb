// The one options mechanism: each type read and range-checked, defaults and unset options, and
// the one wording of each error (unknown option, bad value, duplicate, missing '=', required).
#include "core/options.h"

#include <gtest/gtest.h>

#include <stdexcept>

#include "core/error.h"

namespace pictor::options {
namespace {

enum class Colour { red, green, blue };

const OptionSet& sample() {
  static const OptionSet set{
      "thing 'demo'",
      {text("path", "where it writes"), word("colour", {"red", "green", "blue"}, "its colour").or_default("green"),
       integer("objects", "number of cubes").within(1, 1'000'000).or_default("500"),
       count("seed", "the generator's seed").or_default("1"),
       number("detail", "load scale").within(0.1, 8).or_default("1"), flag("motion", "moves").or_default("on"),
       duration("hold", "press to release").within(0, 5), size("window", "window size").or_default("640x360"),
       bit_rate("rate", "link rate"), share("loss", "share of chunks lost")}};
  return set;
}

std::string error_of(const OptionSet& set, std::string_view args) {
  try {
    parse(set, args);
  } catch (const UsageError& e) {
    return e.what();
  }
  return "";
}

TEST(CoreOptions, DefaultsFillWhatIsNotGivenAndUnsetStaysUnset) {
  const Values v = parse(sample(), "");
  EXPECT_EQ(v.integer("objects"), 500);
  EXPECT_EQ(v.count("seed"), 1u);
  EXPECT_DOUBLE_EQ(v.number("detail"), 1.0);
  EXPECT_TRUE(v.flag("motion"));
  EXPECT_EQ(v.choice_as<Colour>("colour"), Colour::green);
  EXPECT_EQ(v.size("window"), (Size{640, 360}));
  EXPECT_FALSE(v.has("hold"));
  EXPECT_FALSE(v.given("objects"));
  EXPECT_EQ(v.optional_number("hold"), std::nullopt);
  EXPECT_EQ(v.optional_choice_as<Colour>("colour"), Colour::green);
  EXPECT_EQ(v.text("objects"), "500");
  // Reading an unset option, or one as another type, is a bug in the caller, not a usage error.
  EXPECT_THROW(v.number("hold"), std::logic_error);
  EXPECT_THROW(v.text("path"), std::logic_error);
  EXPECT_THROW(v.number("objects"), std::logic_error);
  EXPECT_THROW(v.flag("nothing"), std::logic_error);
}

TEST(CoreOptions, EachTypeReadsItsForms) {
  const Values v = parse(sample(),
                         "path=/a/b,colour=blue:objects=+7,seed=18446744073709551615,detail=0.25,motion=off,"
                         "hold=20ms,window=1280x720,rate=50mbit,loss=0.5%");
  EXPECT_TRUE(v.given("path"));
  EXPECT_EQ(v.text("path"), "/a/b");
  EXPECT_EQ(v.choice("colour"), 2u);
  EXPECT_EQ(v.integer("objects"), 7);
  EXPECT_EQ(v.count("seed"), 18446744073709551615u);
  EXPECT_DOUBLE_EQ(v.number("detail"), 0.25);
  EXPECT_FALSE(v.flag("motion"));
  EXPECT_DOUBLE_EQ(v.number("hold"), 0.020);
  EXPECT_EQ(v.size("window"), (Size{1280, 720}));
  EXPECT_DOUBLE_EQ(v.number("rate"), 50e6);
  EXPECT_DOUBLE_EQ(v.number("loss"), 0.005);
  EXPECT_DOUBLE_EQ(parse(sample(), "loss=0.02").number("loss"), 0.02);
  EXPECT_DOUBLE_EQ(parse(sample(), "rate=9600bit").number("rate"), 9600);
  EXPECT_DOUBLE_EQ(parse(sample(), "rate=1e3kbit").number("rate"), 1e6);
  EXPECT_DOUBLE_EQ(parse(sample(), "hold=2").number("hold"), 2.0);
}

TEST(CoreOptions, BadValuesNameTheOptionTheTypeAndTheRange) {
  EXPECT_EQ(error_of(sample(), "objects=abc"),
            "thing 'demo': objects=abc is not an integer in [1, 1000000] (number of cubes)");
  EXPECT_EQ(error_of(sample(), "objects=0"),
            "thing 'demo': objects=0 is not an integer in [1, 1000000] (number of cubes)");
  EXPECT_EQ(error_of(sample(), "objects=1.5"),
            "thing 'demo': objects=1.5 is not an integer in [1, 1000000] (number of cubes)");
  EXPECT_EQ(error_of(sample(), "detail=99"), "thing 'demo': detail=99 is not a number in [0.1, 8] (load scale)");
  EXPECT_EQ(error_of(sample(), "detail=nan"), "thing 'demo': detail=nan is not a number in [0.1, 8] (load scale)");
  EXPECT_EQ(error_of(sample(), "seed=-1"), "thing 'demo': seed=-1 is not a non-negative integer (the generator's seed)");
  EXPECT_EQ(error_of(sample(), "colour=pink"), "thing 'demo': colour=pink is not one of red, green, blue (its colour)");
  EXPECT_EQ(error_of(sample(), "motion=yes"), "thing 'demo': motion=yes is not on or off (moves)");
  EXPECT_EQ(error_of(sample(), "hold=6s"),
            "thing 'demo': hold=6s is not a duration in [0 s, 5 s] (e.g. 20ms, 1.5s) (press to release)");
  EXPECT_NE(error_of(sample(), "hold=fast").find("hold=fast is not a duration"), std::string::npos);
  // The longest duration Pictor takes is not named as a bound.
  EXPECT_EQ(expectation(duration("d", "")), "a duration (e.g. 20ms, 1.5s)");
  EXPECT_EQ(expectation(duration("d", "").within(1e-3, kMaxDurationS)), "a duration of at least 1 ms (e.g. 20ms, 1.5s)");
  EXPECT_NE(error_of(sample(), "window=big").find("window=big is not a size WxH"), std::string::npos);
  EXPECT_NE(error_of(sample(), "rate=50mb").find("rate=50mb is not a positive rate"), std::string::npos);
  EXPECT_NE(error_of(sample(), "rate=0mbit").find("rate=0mbit is not a positive rate"), std::string::npos);
  EXPECT_NE(error_of(sample(), "loss=150%").find("loss=150% is not a share in [0%, 100%]"), std::string::npos);
  EXPECT_NE(error_of(sample(), "loss=1x").find("loss=1x is not a share"), std::string::npos);
  // An empty value is no value of a typed option; a text may be empty.
  EXPECT_NE(error_of(sample(), "objects=").find("objects= is not an integer"), std::string::npos);
  EXPECT_EQ(parse(sample(), "path=").text("path"), "");
}

// A rate may be bounded and may name the unit of a bare number (--stream's bitrate: x264's kbit/s);
// without one a bare number stays no rate.
TEST(CoreOptions, ARateMayBeBoundedAndTakeABareNumberInItsUnit) {
  const OptionSet set{"--x", {bit_rate("bitrate", "target").within(100e3, 200e6).bare_number_in("kbit")}, ","};
  EXPECT_DOUBLE_EQ(parse(set, "bitrate=1200").number("bitrate"), 1.2e6);
  EXPECT_DOUBLE_EQ(parse(set, "bitrate=8mbit").number("bitrate"), 8e6);
  EXPECT_DOUBLE_EQ(parse(set, "bitrate=100kbit").number("bitrate"), 100e3);
  EXPECT_EQ(error_of(set, "bitrate=99kbit"),
            "--x: bitrate=99kbit is not a rate in [100kbit, 200mbit] in bit, kbit, mbit or gbit (e.g. 50mbit, or a "
            "bare number of kbit) (target)");
  EXPECT_NE(error_of(set, "bitrate=201mbit").find("is not a rate in [100kbit, 200mbit]"), std::string::npos);
  EXPECT_NE(error_of(set, "bitrate=12furlong").find("is not a rate"), std::string::npos);
  EXPECT_NE(error_of(sample(), "rate=1200").find("rate=1200 is not a positive rate"), std::string::npos);
}

TEST(CoreOptions, UnknownDuplicateAndMissingEqualsHaveOneWordingEach) {
  EXPECT_EQ(error_of(sample(), "speed=3"),
            "thing 'demo' has no option 'speed' (options: path, colour, objects, seed, detail, motion, hold, window, "
            "rate, loss)");
  EXPECT_EQ(error_of(sample(), "objects=3,objects=4"), "thing 'demo': option 'objects' given twice");
  EXPECT_EQ(error_of(sample(), "objects"), "thing 'demo': 'objects' is not NAME=VALUE");
  EXPECT_EQ(error_of(sample(), "=3"), "thing 'demo': '=3' is not NAME=VALUE");
  EXPECT_EQ(error_of(OptionSet{"--net", {}, ","}, "x=1"), "--net has no option 'x' (options: none)");
  // Empty items are no error: "a=1,,b=2" and a trailing separator read as without them.
  EXPECT_EQ(parse(sample(), "objects=3,,seed=4:").integer("objects"), 3);
}

TEST(CoreOptions, SeparatorsAreTheSetsOwn) {
  const OptionSet commas{"--net", {text("a", ""), text("b", "")}, ","};
  EXPECT_EQ(parse(commas, "a=x:y,b=z").text("a"), "x:y");
  EXPECT_EQ(parse(sample(), "colour=red:seed=3").count("seed"), 3u);
}

TEST(CoreOptions, RequiredOptionsAndALeadingValue) {
  const OptionSet set{"driver 'replay'",
                      {number("threshold", "how similar").within(0, 255).or_default("12"),
                       text("truth", "the truth directory").must_be_given()},
                      ":,",
                      "REC",
                      "the recording"};
  const Values v = parse(set, "/rec/a:b,truth=/t,threshold=3");
  EXPECT_EQ(v.leading(), "/rec/a:b");  // the leading value runs to the first ','
  EXPECT_DOUBLE_EQ(v.number("threshold"), 3);
  EXPECT_EQ(v.text("truth"), "/t");
  try {
    parse(set, "/rec");
    ADD_FAILURE();
  } catch (const UsageError& e) {
    EXPECT_STREQ(e.what(), "driver 'replay': option 'truth' is required (the truth directory)");
  }
  try {
    parse(set, ",truth=/t");
    ADD_FAILURE();
  } catch (const UsageError& e) {
    EXPECT_STREQ(e.what(), "driver 'replay': REC comes first (REC[,option=value...])");
  }
}

TEST(CoreOptions, FormatGivesTheItemsBackInTheSetsOwnForm) {
  const OptionSet leading{"driver 'replay'", {text("truth", ""), count("seed", "")}, ":,", "REC", "the recording"};
  const Items a = split(leading, "/rec/a:b,truth=/t:seed=4");
  EXPECT_EQ(format(leading, a), "/rec/a:b,truth=/t,seed=4");
  const Items again = split(leading, format(leading, a));
  EXPECT_EQ(again.leading, a.leading);
  EXPECT_EQ(again.given, a.given);
  const OptionSet colons{"scene", {text("a", ""), text("b", "")}, ":"};
  EXPECT_EQ(format(colons, split(colons, "b=2:a=1")), "b=2:a=1");  // in the order given
  EXPECT_EQ(format(sample(), split(sample(), "")), "");
  EXPECT_EQ(format(leading, split(leading, "/rec")), "/rec");
}

TEST(CoreOptions, BadDefaultsAreBugs) {
  const OptionSet bad{"thing", {integer("n", "").within(1, 3).or_default("9")}};
  EXPECT_THROW(parse(bad, ""), std::logic_error);
}

TEST(CoreOptions, HelpIsGeneratedFromTheDeclarations) {
  const std::string h = help(sample());
  // Columns line up on the longest left side, here colour's.
  EXPECT_NE(h.find("\n  objects=N              number of cubes; an integer in [1, 1000000]; default 500\n"),
            std::string::npos)
      << h;
  EXPECT_NE(h.find("\n  colour=red|green|blue  its colour; default green\n"), std::string::npos) << h;
  EXPECT_NE(h.find("hold=DURATION"), std::string::npos) << h;
  EXPECT_NE(h.find("motion=on|off"), std::string::npos) << h;
  const OptionSet lead{"driver 'replay'", {text("truth", "dir").must_be_given()}, ":,", "REC", "the recording"};
  EXPECT_EQ(help(lead, 4), "    REC         (first) the recording\n    truth=TEXT  dir; required\n");
  EXPECT_EQ(names(sample()).substr(0, 13), "path, colour,");
}

TEST(CoreOptions, SplitName) {
  EXPECT_EQ(split_name("scripted:rate=5").first, "scripted");
  EXPECT_EQ(split_name("scripted:rate=5").second, "rate=5");
  EXPECT_EQ(split_name("null").second, "");
}

}  // namespace
}  // namespace pictor::options
