#include "core/data/category_coder.h"

#include <algorithm>
#include <numeric>

#include "core/data/delimited_text.h"

namespace rfscope {

int CategoryCoder::provisionalCode(std::string_view value) {
  if (const auto found = codes_.find(value); found != codes_.end()) return found->second;
  const auto inserted = codes_.emplace(std::string(value), size()).first;
  firstAppearance_.push_back(inserted);
  return inserted->second;
}

CategoryCoder::Order CategoryCoder::order() const {
  const int count = size();
  std::vector<double> numbers(static_cast<std::size_t>(count));
  bool allNumbers = true;
  for (int c = 0; c < count && allNumbers; ++c)
    allNumbers = parseCellNumber(firstAppearance_[static_cast<std::size_t>(c)]->first,
                                 numbers[static_cast<std::size_t>(c)]) == CellNumber::Finite;
  std::vector<int> byRank(static_cast<std::size_t>(count));  // provisional codes in final order
  std::iota(byRank.begin(), byRank.end(), 0);
  const auto& name = [this](int c) -> const std::string& {
    return firstAppearance_[static_cast<std::size_t>(c)]->first;
  };
  std::sort(byRank.begin(), byRank.end(), [&](int a, int b) {
    if (allNumbers) {
      const double x = numbers[static_cast<std::size_t>(a)],
                   y = numbers[static_cast<std::size_t>(b)];
      if (x != y) return x < y;
    }
    return name(a) < name(b);  // distinct strings: a strict total order
  });
  Order result;
  result.names.resize(static_cast<std::size_t>(count));
  result.finalCode.resize(static_cast<std::size_t>(count));
  for (int rank = 0; rank < count; ++rank) {
    const int provisional = byRank[static_cast<std::size_t>(rank)];
    result.names[static_cast<std::size_t>(rank)] = name(provisional);
    result.finalCode[static_cast<std::size_t>(provisional)] = rank;
  }
  return result;
}

}  // namespace rfscope
