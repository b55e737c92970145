#pragma once
// Integer codes for the values of a categorical column (a text feature such as abalone's sex, or
// the class label). Values are collected first and ordered at the end, so codes do not depend on
// the order of the records: in numeric order when every value is a number (abalone's rings 1 < 2
// < 10, chess ranks), otherwise in byte-wise lexicographic order, which is the order NumPy's
// np.unique gives the papers' loader (car's buying: high, low, med, vhigh → 0, 1, 2, 3).

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace rfscope {

class CategoryCoder {
 public:
  // The value's code in order of first appearance (provisional: see order()).
  int provisionalCode(std::string_view value);

  int size() const { return static_cast<int>(firstAppearance_.size()); }

  struct Order {
    std::vector<std::string> names;  // names[code]: the value with final code `code`
    std::vector<int> finalCode;      // finalCode[provisional code]
  };
  // The final codes 0..size()-1 of the values collected so far.
  Order order() const;

 private:
  std::map<std::string, int, std::less<>> codes_;  // value → provisional code
  std::vector<std::map<std::string, int>::const_iterator> firstAppearance_;
};

}  // namespace rfscope
