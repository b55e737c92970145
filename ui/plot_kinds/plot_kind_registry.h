#pragma once
// Which class draws each PlotKind. Adding a kind = its files under ui/plot_kinds/, a PlotKind value
// (core/experiments/table.h) and a line in plot_kind_registry.cpp's list (or, for a kind defined
// elsewhere, e.g. in a test, registerPlotKind).

#include <functional>
#include <memory>

#include "ui/plot_kinds/plot_kind.h"

namespace rfscope::ui {

// A new renderer for a table of the kind (a kind may pick a variant by the table's shape).
using PlotKindFactory = std::function<std::unique_ptr<PlotKindRenderer>(const Table&)>;

// Draws tables of `kind` with the factory's renderers (replacing an earlier registration). Call it
// before the kind is drawn, e.g. at static initialisation.
void registerPlotKind(PlotKind kind, PlotKindFactory factory);

// The renderer for the table's kind; a table without series, or of a kind nobody registered, is
// drawn as (empty) curves.
std::unique_ptr<PlotKindRenderer> makePlotRenderer(const Table& table);

}  // namespace rfscope::ui
