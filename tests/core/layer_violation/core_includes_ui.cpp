// Not compiled: core reaching up into ui/, which the layer check of every module rejects.

#include "ui/plot_view.h"
