#pragma once
// One colour per mechanism/coupling id, the same in every experiment and export.

#include <QColor>
#include <string>
#include <vector>

namespace rfscope::ui {

// keysInPlot: the colour keys of every series of the plot. A key that neither a registry nor the
// reference curves own gets a hue of its own among the plot's other such keys (evenly spread in
// their order of appearance), so that no two series of one plot share a colour; without the
// plot's keys, a stable hue from the key's hash.
QColor seriesColor(const std::string& colorKey, const std::vector<std::string>& keysInPlot = {});

}  // namespace rfscope::ui
