#include "core/data/category_coder.h"

#include <gtest/gtest.h>

namespace rfscope {
namespace {

std::vector<std::string> namesOf(const std::vector<std::string>& values) {
  CategoryCoder coder;
  for (const auto& v : values)
    coder.provisionalCode(v);
  return coder.order().names;
}

TEST(CategoryCoder, NumbersInNumericOrderTextInByteOrder) {
  EXPECT_EQ(namesOf({"15", "7", "9", "10", "7", "1"}),
            (std::vector<std::string>{"1", "7", "9", "10", "15"}));
  // As NumPy's np.unique sorts car's buying column.
  EXPECT_EQ(namesOf({"vhigh", "high", "med", "low", "high"}),
            (std::vector<std::string>{"high", "low", "med", "vhigh"}));
  // One non-number makes the whole column text: byte order.
  EXPECT_EQ(namesOf({"2", "10", "5more"}), (std::vector<std::string>{"10", "2", "5more"}));
  // Equal numbers written differently stay distinct categories.
  EXPECT_EQ(namesOf({"1.0", "1", "0.5"}), (std::vector<std::string>{"0.5", "1", "1.0"}));
}

TEST(CategoryCoder, FinalCodesDoNotDependOnRecordOrder) {
  CategoryCoder forward, backward;
  const std::vector<std::string> values = {"M", "F", "I", "M", "I"};
  for (const auto& v : values)
    forward.provisionalCode(v);
  for (auto it = values.rbegin(); it != values.rend(); ++it)
    backward.provisionalCode(*it);
  const auto f = forward.order(), b = backward.order();
  EXPECT_EQ(f.names, b.names);
  EXPECT_EQ(f.names, (std::vector<std::string>{"F", "I", "M"}));
  // "M" appeared first going forward, "I" going backward; both end as the same final codes.
  EXPECT_EQ(f.finalCode, (std::vector<int>{2, 0, 1}));
  EXPECT_EQ(b.finalCode, (std::vector<int>{1, 2, 0}));
  EXPECT_EQ(forward.provisionalCode("F"), 1);
  EXPECT_EQ(forward.size(), 3);
}

}  // namespace
}  // namespace rfscope
