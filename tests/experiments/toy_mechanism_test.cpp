// A mechanism defined in this file alone reaches every place that lists mechanisms: the registry,
// the catalogue `rfscope-cli list` prints, the GUI's check list of an experiment's mechanisms, and
// the experiment contract test (experiment_contract_test.cpp runs the MechanismContract suite over
// allMechanisms(), so the toy is checked there too).

#include <gtest/gtest.h>

#include <QApplication>
#include <QCheckBox>
#include <algorithm>

#include "core/experiments/experiment_registry.h"
#include "core/io/json_export.h"
#include "core/mechanisms/mechanism_registry.h"
#include "ui/parameter_panel.h"

namespace rfscope {
namespace {

// TrigRF under another name and colour: a complete mechanism in a few lines.
class ToyMechanism final : public Mechanism {
 public:
  const MechanismInfo& info() const override {
    static const MechanismInfo info{
        "toy", "Toy RF", "TrigRF under another name", "this test", false, true, Rgb{200, 30, 150}};
    return info;
  }
  VarianceResult logVariance(const PairInput& pair, const ParameterSet& params) const override {
    return trig().logVariance(pair, params);
  }
  Outcome<TrialModel> trialModel(Coupling coupling, const Eigen::VectorXd& x,
                                 const Eigen::VectorXd& y,
                                 const ParameterSet& resolved) const override {
    return trig().trialModel(coupling, x, y, resolved);
  }
  Outcome<std::unique_ptr<FeatureMap>> drawFeatureMap(const FeatureMapSpec& spec,
                                                      TrialStream& stream) const override {
    return trig().drawFeatureMap(spec, stream);
  }

 private:
  static const Mechanism& trig() { return *findMechanism("trig"); }
};

const ToyMechanism toy;
// Registered before main(), as a plug-in would be: before any test reads the registry.
const bool registered = (registerMechanism(toy), true);

TEST(ToyMechanism, IsInTheRegistry) {
  ASSERT_TRUE(registered);
  EXPECT_EQ(findMechanism("toy"), &toy);
  EXPECT_EQ(allMechanisms().back(), &toy);
}

TEST(ToyMechanism, IsInTheCatalogueTheCliLists) {
  const nlohmann::json catalogue = catalogToJson();
  bool listed = false;
  for (const auto& mechanism : catalogue["mechanisms"])
    listed = listed || mechanism["id"] == "toy";
  EXPECT_TRUE(listed);
  // And among the choices of every experiment that offers all mechanisms.
  bool offered = false;
  for (const auto& experiment : catalogue["experiments"])
    for (const auto& parameter : experiment["parameters"])
      if (parameter["key"] == "mechanisms")
        for (const auto& choice : parameter["choices"])
          offered = offered || choice["id"] == "toy";
  EXPECT_TRUE(offered);
}

TEST(ToyMechanism, IsInTheGuiCheckList) {
  int argc = 1;
  char name[] = "toy_mechanism_test";
  char* argv[] = {name, nullptr};
  QApplication app(argc, argv);
  const Experiment& experiment = *findExperiment("variance-vs-sigma");
  ui::ParameterPanel panel;
  panel.setSpecs(experiment.parameters(), ParameterSet::defaults(experiment.parameters()));
  QCheckBox* box = nullptr;
  for (QCheckBox* candidate : panel.editor("mechanisms")->findChildren<QCheckBox*>())
    if (candidate->property("choiceId").toString() == "toy") box = candidate;
  ASSERT_NE(box, nullptr);
  EXPECT_EQ(box->text(), "Toy RF");
  box->setChecked(true);
  const auto chosen = panel.parameters().choices("mechanisms");
  EXPECT_NE(std::find(chosen.begin(), chosen.end(), "toy"), chosen.end());
}

}  // namespace
}  // namespace rfscope
