#include "core/data/class_pairs.h"

namespace rfscope {

ClassPairs::ClassPairs(const std::vector<std::uint8_t>& labels)
    : labels_(labels), members_(256), position_(labels.size()) {
  for (std::size_t i = 0; i < labels.size(); ++i) {
    auto& members = members_[labels[i]];
    position_[i] = static_cast<std::uint32_t>(members.size());
    members.push_back(static_cast<std::uint32_t>(i));
  }
  for (std::size_t i = 0; i < labels.size(); ++i)
    if (members_[labels[i]].size() >= 2) paired_.push_back(static_cast<std::uint32_t>(i));
}

std::string ClassPairs::ruleError(PairRule rule) const {
  switch (rule) {
    case PairRule::Any:
      return labels_.size() < 2 ? "there are fewer than two images" : "";
    case PairRule::SameClass:
      return paired_.empty() ? "no digit (label) has two images" : "";
    case PairRule::DifferentClasses: {
      int classes = 0;
      for (const auto& members : members_)
        classes += !members.empty();
      return classes < 2 ? "all images have the same digit (label)" : "";
    }
  }
  return {};
}

RowPair ClassPairs::draw(std::uint64_t seed, std::uint64_t pairIndex, PairRule rule) const {
  if (rule == PairRule::Any) return drawDistinctRows(seed, pairIndex, labels_.size());
  PhiloxStream stream(seed, kPairStreamBase + pairIndex);
  RowPair rows;
  if (rule == PairRule::SameClass) {
    rows.x = paired_[detail::uniformIndex(stream, paired_.size())];
    const auto& members = members_[labels_[rows.x]];
    std::uint64_t k = detail::uniformIndex(stream, members.size() - 1);
    if (k >= position_[rows.x]) ++k;
    rows.y = members[k];
    return rows;
  }
  rows.x = detail::uniformIndex(stream, labels_.size());
  const std::uint8_t own = labels_[rows.x];
  std::uint64_t k = detail::uniformIndex(stream, labels_.size() - members_[own].size());
  for (std::size_t c = 0; c < members_.size(); ++c) {
    if (c == own) continue;
    if (k < members_[c].size()) {
      rows.y = members_[c][k];
      break;
    }
    k -= members_[c].size();
  }
  return rows;
}

}  // namespace rfscope
