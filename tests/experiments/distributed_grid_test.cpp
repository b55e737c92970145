// An experiment's grid shared by the processes of a job (RowDistribution): rank 0's table and
// warnings equal one process's bit for bit, for every experiment (those whose grids are not
// distributable run whole on every rank). The ranks are played in one process, one after the
// other: the other ranks run first and record what they send; rank 0 then receives it.

#include <gtest/gtest.h>

#include <map>
#include <stdexcept>
#include <utility>

#include "core/experiments/experiment_registry.h"
#include "core/io/table_csv.h"
#include "tests/experiments/registry_printers.h"

namespace rfscope {
namespace {

class Rank final : public RunContext, public RowDistribution {
 public:
  Rank(int rank, int size, std::map<std::size_t, std::pair<int, ChunkRows>>& mail)
      : rank_(rank), size_(size), mail_(mail) {}
  bool cancelled() const override { return false; }
  void reportProgress(double fraction) override { progress.push_back(fraction); }
  void publishPartial(const Table& table) override { partialRows.push_back(table.rowCount()); }
  RowDistribution* rowDistribution() const override { return const_cast<Rank*>(this); }
  int rank() const override { return rank_; }
  int size() const override { return size_; }
  void sendRows(std::size_t chunk, const ChunkRows& rows) override {
    EXPECT_NE(rank_, 0);
    EXPECT_EQ(chunk % static_cast<std::size_t>(size_), static_cast<std::size_t>(rank_));
    mail_[chunk] = {rank_, rows};
  }
  ChunkRows receiveRows(std::size_t chunk, int owner) override {
    const auto found = mail_.find(chunk);
    if (found == mail_.end() || found->second.first != owner)
      throw std::runtime_error("no rows of that chunk from that rank");
    return found->second.second;
  }
  std::vector<double> progress;
  std::vector<std::size_t> partialRows;

 private:
  int rank_, size_;
  std::map<std::size_t, std::pair<int, ChunkRows>>& mail_;
};

// Returns how many chunks the other ranks computed.
std::size_t expectSameAsOneProcess(const Experiment* experiment, const ParameterSet& params,
                                   int size) {
  SilentRunContext alone;
  const RunResult expected = experiment->run(params, alone);
  std::map<std::size_t, std::pair<int, ChunkRows>> mail;
  for (int rank = size - 1; rank >= 1; --rank) {
    Rank other(rank, size, mail);
    experiment->run(params, other);
    if (!mail.empty()) {
      EXPECT_TRUE(other.progress.empty()) << "only rank 0 reports progress";
    }
  }
  Rank root(0, size, mail);
  const RunResult shared = experiment->run(params, root);
  EXPECT_EQ(shared.status, RunStatus::Completed);
  EXPECT_EQ(tableToCsv(shared.table, {}), tableToCsv(expected.table, {}));
  EXPECT_EQ(shared.warnings, expected.warnings);
  return mail.size();
}

ParameterSet withValues(const Experiment* experiment,
                        const std::vector<std::pair<std::string, std::string>>& values) {
  ParameterSet params = ParameterSet::defaults(experiment->parameters());
  for (const auto& [key, text] : values)
    for (const ParameterSpec& spec : experiment->parameters())
      if (spec.key == key) params.set(key, parseParameterValue(spec, text));
  return params;
}

void expectSharedGridEqualsOneProcess(
    const std::string& id, const std::vector<std::pair<std::string, std::string>>& values,
    int size) {
  const Experiment* experiment = findExperiment(id);
  ASSERT_NE(experiment, nullptr);
  EXPECT_GT(expectSameAsOneProcess(experiment, withValues(experiment, values), size), 1u)
      << "the other ranks computed chunks";
}

class EveryExperiment : public ::testing::TestWithParam<const Experiment*> {};

TEST_P(EveryExperiment, SameResultWhenThreeProcessesShareTheRun) {
  expectSameAsOneProcess(GetParam(), GetParam()->testParameters(TestLoad::Light), 3);
}

INSTANTIATE_TEST_SUITE_P(AllExperiments, EveryExperiment, ::testing::ValuesIn(allExperiments()),
                         [](const auto& info) {
                           std::string name = info.param->info().id;
                           for (char& c : name)
                             if (c == '-') c = '_';
                           return name;
                         });

TEST(DistributedGrid, VarianceVsSigmaWithMonteCarloCellsEqualsOneProcess) {
  // Monte Carlo cells at σ up to 1 show heavy tails: the warnings come from every rank's tallies.
  expectSharedGridEqualsOneProcess(
      "variance-vs-sigma",
      {{"method", "both"}, {"sigma-steps", "9"}, {"pairs", "6"}, {"trials", "300"}, {"d", "8"}}, 3);
}

TEST(DistributedGrid, GramFrobeniusEqualsOneProcess) {
  expectSharedGridEqualsOneProcess(
      "gram-frobenius",
      {{"features-steps", "5"}, {"repetitions", "4"}, {"points", "16"}, {"d", "8"}}, 2);
}

}  // namespace
}  // namespace rfscope
