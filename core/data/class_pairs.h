#pragma once
// Pairs restricted by label: two different images of the same class, or of different classes
// (e.g. the same digit twice vs two different digits), drawn uniformly and deterministically per
// (seed, pairIndex) like row_draw.h.

#include <cstdint>
#include <string>
#include <vector>

#include "core/data/row_draw.h"

namespace rfscope {

enum class PairRule { Any, SameClass, DifferentClasses };

class ClassPairs {
 public:
  // labels[i] is the class of item i (at most 256 classes, as in IDX unsigned-byte labels).
  explicit ClassPairs(const std::vector<std::uint8_t>& labels);

  // Why pairs under `rule` cannot be drawn ("" when they can): SameClass needs a class with two
  // items, DifferentClasses two non-empty classes, Any two items.
  std::string ruleError(PairRule rule) const;

  // Pair pairIndex under rule (which must have passed ruleError). SameClass: x uniform over items
  // whose class has another item, y uniform over the other items of its class. DifferentClasses:
  // x uniform over all items, y uniform over the items of other classes.
  RowPair draw(std::uint64_t seed, std::uint64_t pairIndex, PairRule rule) const;

  std::uint8_t label(std::uint64_t item) const { return labels_[item]; }

 private:
  std::vector<std::uint8_t> labels_;
  std::vector<std::vector<std::uint32_t>> members_;  // items of each class, ascending
  std::vector<std::uint32_t> position_;              // index of each item within its class
  std::vector<std::uint32_t> paired_;                // items whose class has another item
};

}  // namespace rfscope
