// Driver specs: names, option parsing, key lists, and one clear error for each bad part.
#include <gtest/gtest.h>

#include "core/error.h"
#include "drivers/driver.h"
#include "drivers/scripted_driver.h"

namespace pictor::drivers {
namespace {

std::string error_of(const std::string& spec) {
  try {
    make_driver(spec);
  } catch (const UsageError& e) {
    return e.what();
  }
  return "";
}

TEST(DriverSpec, DefaultsWhenNoOptions) {
  auto d = make_driver("scripted");
  EXPECT_EQ(d->spec(), "scripted:rate=5,keys=space|Left|Right,seed=1,hold=50ms");
  EXPECT_FALSE(d->wants_image());
  ASSERT_EQ(d->vocabulary().size(), 3u);
  EXPECT_EQ(d->vocabulary()[0], (InputCode{false, 0x20}));  // XK_space
}

TEST(DriverSpec, OptionsWithEitherSeparatorAndKeyLists) {
  auto a = make_driver("scripted:rate=20,keys=a|button1+Return,seed=7");
  EXPECT_EQ(a->spec(), "scripted:rate=20,keys=a|button1|Return,seed=7,hold=12.5ms");
  auto b = make_driver("scripted:rate=20:keys=a|button1|Return:seed=7");
  EXPECT_EQ(a->spec(), b->spec());
  const auto v = a->vocabulary();
  ASSERT_EQ(v.size(), 3u);
  EXPECT_EQ(v[1], (InputCode{true, 1}));
  EXPECT_EQ(make_driver("scripted:hold=10ms")->spec(),
            "scripted:rate=5,keys=space|Left|Right,seed=1,hold=10ms");
}

TEST(DriverSpec, ErrorsNameTheCause) {
  EXPECT_NE(error_of("replayx").find("unknown driver 'replayx'"), std::string::npos);
  EXPECT_EQ(error_of("scripted:speed=3"),
            "driver 'scripted' has no option 'speed' (options: rate, keys, seed, hold)");
  EXPECT_EQ(error_of("scripted:rate=fast"),
            "driver 'scripted': rate=fast is not a number in [0.001, 1000] (taps a second, on average)");
  EXPECT_NE(error_of("scripted:rate=0").find("rate=0 is not a number in [0.001, 1000]"), std::string::npos);
  EXPECT_NE(error_of("scripted:rate=5000").find("rate=5000 is not a number in [0.001, 1000]"), std::string::npos);
  // The tap period in ns overflowed int64 (undefined behaviour; fuzz/corpus/specs/tiny_rate).
  EXPECT_NE(error_of("scripted:rate=1e-300,keys=a").find("rate=1e-300 is not a number in [0.001, 1000]"),
            std::string::npos);
  EXPECT_NO_THROW(make_driver("scripted:rate=0.001"));
  EXPECT_NE(error_of("scripted:keys=space|NoSuchKey").find("unknown key 'NoSuchKey'"),
            std::string::npos);
  EXPECT_NE(error_of("scripted:keys=space||a").find("empty entry"), std::string::npos);
  EXPECT_NE(error_of("scripted:keys=button0").find("button1..button9"), std::string::npos);
  EXPECT_NE(error_of("scripted:seed=-1").find("seed=-1 is not a non-negative integer"), std::string::npos);
  EXPECT_EQ(error_of("scripted:rate"), "driver 'scripted': 'rate' is not NAME=VALUE");
  EXPECT_EQ(error_of("scripted:rate=5,rate=6"), "driver 'scripted': option 'rate' given twice");
  EXPECT_NE(error_of("scripted:rate=10,hold=60ms").find("below 50ms"), std::string::npos);
}

TEST(InputNames, KindsAndCodesRoundTrip) {
  for (auto k : {InputKind::key_press, InputKind::key_release, InputKind::button_press,
                 InputKind::button_release}) {
    EXPECT_EQ(parse_input_kind(input_kind_name(k)), k);
  }
  EXPECT_FALSE(parse_input_kind("motion"));
  EXPECT_EQ(input_code_name(false, parse_input_code("Left").code), "Left");
  EXPECT_EQ(input_code_name(true, 3), "button3");
  EXPECT_EQ(release_of(InputKind::button_press), InputKind::button_release);
}

}  // namespace
}  // namespace pictor::drivers
