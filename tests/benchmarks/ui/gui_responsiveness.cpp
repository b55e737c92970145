// GUI responsiveness while an experiment saturates all cores: a 2 ms timer measures how late the
// event loop serves it (the latency a user's click would see), then ten consecutive runs measure
// whether memory stays flat. Prints one JSON object.

#include <QApplication>
#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTimer>
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <thread>
#include <vector>

#include "ui/main_window.h"
#include "ui/parameter_panel.h"
#include "ui/run_controller.h"

namespace {

double residentMiB() {
  std::ifstream statm("/proc/self/statm");
  long pages = 0, resident = 0;
  statm >> pages >> resident;
  return static_cast<double>(resident) * 4096.0 / (1024.0 * 1024.0);
}

}  // namespace

int main(int argc, char** argv) {
  QApplication app(argc, argv);
  rfscope::ui::MainWindow window;
  window.show();
  QSignalSpy finished(&window, &rfscope::ui::MainWindow::runFinished);
  finished.wait(30000);

  // A heavy run: every core busy for several seconds.
  rfscope::ParameterSet heavy = window.parameterPanel()->parameters();
  heavy.set("d", std::int64_t{1024});
  heavy.set("pairs", std::int64_t{4000});
  heavy.set("sigma-steps", std::int64_t{2000});
  window.parameterPanel()->setParameters(heavy);
  window.runController()->start(window.currentExperiment(), heavy);

  std::vector<double> lateness;
  QElapsedTimer clock;
  clock.start();
  qint64 expected = clock.elapsed() + 2;
  QTimer probe;
  probe.setInterval(2);
  QObject::connect(&probe, &QTimer::timeout, [&]() {
    const qint64 now = clock.elapsed();
    lateness.push_back(static_cast<double>(std::max<qint64>(0, now - expected)));
    expected = now + 2;
  });
  probe.start();
  QEventLoop loop;
  QTimer::singleShot(4000, &loop, &QEventLoop::quit);
  loop.exec();
  probe.stop();
  window.runController()->cancel();

  std::sort(lateness.begin(), lateness.end());
  const double maxLatency = lateness.empty() ? -1 : lateness.back();
  const double p99 = lateness.empty() ? -1 : lateness[lateness.size() * 99 / 100];

  // Ten consecutive default-size runs: resident memory after each.
  rfscope::ParameterSet normal = window.parameterPanel()->parameters();
  normal.set("d", std::int64_t{256});
  normal.set("pairs", std::int64_t{2000});
  normal.set("sigma-steps", std::int64_t{200});
  std::vector<double> memory;
  for (int run = 0; run < 10; ++run) {
    normal.set("seed", std::int64_t{run + 1});
    window.parameterPanel()->setParameters(normal);
    window.runController()->start(window.currentExperiment(), normal);
    const int before = finished.count();
    while (finished.count() == before)
      finished.wait(60000);
    memory.push_back(residentMiB());
  }

  std::printf(
      "{\"threads\": %u, \"probe_samples\": %zu, \"event_loop_latency_ms\": {\"max\": %.1f, "
      "\"p99\": %.1f},"
      " \"resident_mib_after_each_run\": [",
      std::thread::hardware_concurrency(), lateness.size(), maxLatency, p99);
  for (std::size_t i = 0; i < memory.size(); ++i)
    std::printf("%s%.1f", i ? ", " : "", memory[i]);
  std::printf("]}\n");
  return 0;
}
