// `nsdyn run`: load an XML model file, simulate it with a progress bar,
// print a summary and write the results (CSV or HDF5, a gnuplot PNG, VTK
// frames), with optional checkpoints and restart.
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include <nsdyn/Kernel.hpp>
#include <nsdyn/io/Checkpoint.hpp>
#include <nsdyn/io/Writers.hpp>
#include <nsdyn/io/XmlLoader.hpp>

#include "commands.hpp"

namespace nsdyn::cli {
namespace {

constexpr int kExitOk = 0;
constexpr int kExitFailed = 1;
constexpr int kExitUsage = 2;
constexpr int kExitBadInput = 3;

struct RunArgs {
  std::string model;
  std::string outputDir = ".";
  std::string format;  // empty: the model file's
  bool vtk = false;
  bool plot = true;
  bool quiet = false;
  long checkpointEvery = 0;
  io::ArchiveFormat checkpointFormat = io::ArchiveFormat::Binary;
  std::string restart;
  long stopAfter = 0;
};

bool parseLong(const char* text, long minimum, long* out) {
  char* end = nullptr;
  errno = 0;
  const long v = std::strtol(text, &end, 10);
  if (errno || end == text || *end || v < minimum) return false;
  *out = v;
  return true;
}

bool parseArgs(int argc, char** argv, RunArgs* a) {
  for (int i = 0; i < argc; ++i) {
    const std::string opt = argv[i];
    auto value = [&](const char** out) {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "nsdyn run: %s needs a value\n", opt.c_str());
        return false;
      }
      *out = argv[++i];
      return true;
    };
    const char* v = nullptr;
    if (opt == "--output") {
      if (!value(&v)) return false;
      a->outputDir = v;
    } else if (opt == "--format") {
      if (!value(&v)) return false;
      a->format = v;
      if (a->format != "csv" && a->format != "hdf5") {
        std::fprintf(stderr, "nsdyn run: --format %s: expected csv or hdf5\n", v);
        return false;
      }
    } else if (opt == "--vtk") {
      a->vtk = true;
    } else if (opt == "--no-plot") {
      a->plot = false;
    } else if (opt == "--quiet") {
      a->quiet = true;
    } else if (opt == "--checkpoint-every") {
      if (!value(&v)) return false;
      if (!parseLong(v, 1, &a->checkpointEvery)) {
        std::fprintf(stderr, "nsdyn run: --checkpoint-every %s: expected a number of steps >= 1\n",
                     v);
        return false;
      }
    } else if (opt == "--checkpoint-format") {
      if (!value(&v)) return false;
      if (!std::strcmp(v, "binary"))
        a->checkpointFormat = io::ArchiveFormat::Binary;
      else if (!std::strcmp(v, "xml"))
        a->checkpointFormat = io::ArchiveFormat::Xml;
      else {
        std::fprintf(stderr, "nsdyn run: --checkpoint-format %s: expected binary or xml\n", v);
        return false;
      }
    } else if (opt == "--restart") {
      if (!value(&v)) return false;
      a->restart = v;
    } else if (opt == "--stop-after") {
      if (!value(&v)) return false;
      if (!parseLong(v, 1, &a->stopAfter)) {
        std::fprintf(stderr, "nsdyn run: --stop-after %s: expected a step number >= 1\n", v);
        return false;
      }
    } else if (!opt.empty() && opt[0] == '-') {
      std::fprintf(stderr, "nsdyn run: unknown option %s\n%s", opt.c_str(), runUsage());
      return false;
    } else if (a->model.empty()) {
      a->model = opt;
    } else {
      std::fprintf(stderr, "nsdyn run: more than one MODEL (%s, %s)\n", a->model.c_str(),
                   opt.c_str());
      return false;
    }
  }
  if (a->model.empty()) {
    std::fprintf(stderr, "nsdyn run: no MODEL.xml given\n%s", runUsage());
    return false;
  }
  return true;
}

// "1.2 s", "3 min 04 s", "1 h 02 min".
std::string duration(double seconds) {
  char buf[48];
  if (!std::isfinite(seconds) || seconds < 0) return "?";
  if (seconds < 60)
    std::snprintf(buf, sizeof buf, "%.1f s", seconds);
  else if (seconds < 3600)
    std::snprintf(buf, sizeof buf, "%d min %02d s", static_cast<int>(seconds) / 60,
                  static_cast<int>(seconds) % 60);
  else
    std::snprintf(buf, sizeof buf, "%d h %02d min", static_cast<int>(seconds) / 3600,
                  (static_cast<int>(seconds) / 60) % 60);
  return buf;
}

// Progress on stderr: a bar rewritten in place on a terminal (at most ten
// times a second), plain lines every 10 % otherwise.
class ProgressBar {
 public:
  ProgressBar(long first, long total, bool quiet)
      : first_(first),
        total_(total),
        quiet_(quiet),
        terminal_(isatty(STDERR_FILENO) != 0),
        start_(std::chrono::steady_clock::now()) {}

  void update(long done, double t) {
    if (quiet_ || total_ <= 0) return;
    const double elapsed = seconds();
    const double rate = elapsed > 0 ? static_cast<double>(done - first_) / elapsed : 0.0;
    const double remaining = rate > 0 ? static_cast<double>(total_ - done) / rate : 0.0;
    const int percent = static_cast<int>(100 * done / total_);
    if (terminal_) {
      if (done != total_ && elapsed - lastDraw_ < kRedrawSeconds) return;
      lastDraw_ = elapsed;
      constexpr int kWidth = 30;
      const int filled = static_cast<int>(kWidth * done / total_);
      std::string bar(static_cast<std::size_t>(filled), '#');
      bar.resize(kWidth, '.');
      std::fprintf(stderr, "\r  [%s] %3d%%  step %ld/%ld  t = %-10.6g  %.3g steps/s  %s left   ",
                   bar.c_str(), percent, done, total_, t, rate, duration(remaining).c_str());
    } else {
      if (percent / 10 == lastDecile_) return;
      lastDecile_ = percent / 10;
      std::fprintf(stderr, "  progress %3d%%  step %ld/%ld  t = %.6g  %.3g steps/s  %s left\n",
                   percent, done, total_, t, rate, duration(remaining).c_str());
    }
    std::fflush(stderr);
  }
  void finish() {
    if (!quiet_ && terminal_) std::fprintf(stderr, "\n");
  }
  double seconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  }

 private:
  static constexpr double kRedrawSeconds = 0.1;
  long first_, total_;
  bool quiet_, terminal_;
  std::chrono::steady_clock::time_point start_;
  double lastDraw_ = -1.0;
  int lastDecile_ = -1;
};

void printSummary(const io::LoadedModel& run, const io::RunTotals& totals, double wall) {
  std::printf("%s summary (%s, h = %g, t = %g ... %g)\n", run.name.c_str(),
              run.simulationType.c_str(), run.h, run.t0, run.simulation->startingTime());
  std::printf("  steps:                   %ld\n", totals.steps);
  std::printf("  steps with contacts:     %ld\n", totals.activeSteps);
  std::printf("  impacts (activations):   %ld\n", totals.activations);
  std::printf("  solver calls:            %ld (%ld failed)\n", totals.solverCalls,
              totals.failedSolves);
  std::printf("  solver iterations:       %ld total, %d max\n", totals.totalIterations,
              totals.maxIterations);
  std::printf("  max solver residual:     %.3g\n", totals.maxResidual);
  if (totals.newtonSteps > 0)
    std::printf("  Newton iterations:       %ld total, %d max per step (%ld steps unconverged)\n",
                totals.newtonIterations, totals.maxNewtonIterations, totals.newtonFailures);
  if (run.simulationType == "TimeSteppingDirectProjection")
    std::printf("  position projections:    %ld total, %d max per step\n", totals.projections,
                totals.maxProjections);
  std::printf("  wall time:               %.3f s (solver %.3f s)\n", wall, totals.solverSeconds);
}

// Write the results: HDF5 or CSV tables, plots, VTK frames.
int writeResults(const RunArgs& a, const io::LoadedModel& run, const io::Recorder& recorder) {
  const io::OutputsSpec& spec = run.outputs;
  try {
    if (spec.format == "hdf5") {
      const std::string path = io::joinPath(a.outputDir, run.name + ".h5");
      io::writeHdf5(recorder.tables(), path);
      std::printf("  hdf5:                    %s (%zu datasets)\n", path.c_str(),
                  recorder.tables().size());
    }
    for (std::size_t o = 0; o < recorder.tables().size(); ++o) {
      const io::Table& table = recorder.tables()[o];
      // the plot reads a CSV: written for plotting even with --format hdf5
      const bool csv = spec.format == "csv";
      if (!csv && !a.plot) continue;
      const std::string csvPath = io::joinPath(a.outputDir, table.name + ".csv");
      io::writeCsv(table, csvPath);
      if (csv)
        std::printf("  csv:                     %s (%zu rows)\n", csvPath.c_str(),
                    table.rows.size());
      if (a.plot) {
        const std::string png = io::joinPath(a.outputDir, table.name + ".png");
        const bool ok = io::plotPng(spec.outputs[o], csvPath, png);
        std::printf("  plot:                    %s\n",
                    ok ? png.c_str() : "not drawn (is gnuplot installed?)");
      }
      if (!csv) std::remove(csvPath.c_str());
    }
    if (a.vtk && spec.vtk.bodies.empty()) {
      std::printf("  vtk:                     nothing written (no bodies in the model)\n");
    } else if (a.vtk) {
      const std::string pvd = io::writeVtk(recorder.frames(), spec.vtk, a.outputDir, run.name);
      std::printf("  vtk:                     %s (%zu frames, %zu bodies)\n", pvd.c_str(),
                  recorder.frames().size(), spec.vtk.bodies.size());
    }
  } catch (const nsdyn::Error& e) {
    std::fprintf(stderr, "nsdyn run: %s\n", e.what());
    return kExitFailed;
  }
  return kExitOk;
}

// EventDriven: one row per processed event (and before-rows at nonsmooth
// events), until T or until the run stops.
int runEventDriven(const RunArgs& a, io::LoadedModel& run, EventDriven& sim,
                   io::Recorder& recorder) {
  const long grid = static_cast<long>(std::floor((run.T - run.t0) / run.h + 0.5));
  ProgressBar progress(0, grid, a.quiet);
  long events = 0;
  try {
    while (sim.hasNextEvent() && !recorder.full()) {
      if (!sim.advanceToEvent()) break;
      sim.processEvents();
      ++events;
      recorder.recordEvent(events, sim.startingTime(),
                           sim.lastEventStatistics().type == EventType::NonSmooth);
      progress.update(std::min(grid, sim.eventsManager().processedTimeEvents()),
                      sim.startingTime());
    }
  } catch (const nsdyn::Error& e) {
    progress.finish();
    std::fprintf(stderr, "nsdyn run: event %ld: %s\n", events + 1, e.what());
    return kExitFailed;
  }
  progress.finish();
  long impactSolves = 0, iterations = 0;
  int maxIterations = 0;
  double maxResidual = 0.0;
  for (const EventStatistics& s : sim.eventStatistics())
    for (const StepStatistics* solve : {&s.impactSolve, &s.accelerationSolve}) {
      if (!solve->solved) continue;
      ++impactSolves;
      iterations += solve->iterations;
      maxIterations = std::max(maxIterations, solve->iterations);
      maxResidual = std::max(maxResidual, solve->residual);
    }
  std::printf("%s summary (EventDriven, output grid h = %g, t = %g ... %g)\n", run.name.c_str(),
              run.h, run.t0, sim.startingTime());
  std::printf("  events:                  %ld (%ld nonsmooth)\n", sim.numberOfEvents(),
              sim.eventsManager().processedNonSmoothEvents());
  std::printf("  impacts:                 %ld\n", sim.numberOfImpacts());
  std::printf("  solver calls:            %ld\n", impactSolves);
  std::printf("  solver iterations:       %ld total, %d max\n", iterations, maxIterations);
  std::printf("  max solver residual:     %.3g\n", maxResidual);
  std::printf("  integrator steps:        %ld (%ld right-hand sides)\n",
              sim.integrator().numberOfSteps(), sim.integrator().numberOfRhsEvaluations());
  const std::string full = recorder.fullOutput();
  if (full.empty())
    std::printf("  status:                  %s\n", sim.statusMessage().c_str());
  else
    std::printf("  status:                  stopped at t = %g: output %s has its max-rows\n",
                sim.startingTime(), full.c_str());
  std::printf("  wall time:               %.3f s\n", progress.seconds());
  const int written = writeResults(a, run, recorder);
  if (full.empty() && sim.status() != EventDriven::RunStatus::Finished) {
    std::fprintf(stderr, "nsdyn run: the run stopped early: %s\n", sim.statusMessage().c_str());
    return kExitFailed;
  }
  return written;
}
}  // namespace

const char* runUsage() {
  return "nsdyn run MODEL.xml [options]\n"
         "  --output DIR              results folder (created; default: current directory)\n"
         "  --format csv|hdf5         results format (default: the model file's, else csv)\n"
         "  --vtk                     also write VTK frames (.vtp + .pvd) of the bodies:\n"
         "                            position, orientation quaternion, velocities\n"
         "  --no-plot                 do not draw the gnuplot PNG\n"
         "  --quiet                   no progress bar\n"
         "  --checkpoint-every N      write DIR/NAME.checkpoint every N steps\n"
         "  --checkpoint-format F     binary (default) or xml archive\n"
         "  --restart FILE            continue the run saved in the checkpoint FILE\n"
         "  --stop-after N            stop after step N without writing results, as if\n"
         "                            interrupted (checkpoints written until then stay)\n"
         "exit status: 0 done, 1 simulation or writing failed, 2 usage error, 3 bad model file\n";
}

int runCommand(int argc, char** argv) {
  RunArgs a;
  if (!parseArgs(argc, argv, &a)) return kExitUsage;

  // 1. load and check everything before any step
  std::unique_ptr<io::LoadedModel> run;
  try {
    run = io::XmlLoader().loadFile(a.model);
  } catch (const nsdyn::Error& e) {
    std::fprintf(stderr, "nsdyn run: %s\n", e.what());
    return kExitBadInput;
  }
  io::OutputsSpec& spec = run->outputs;
  if (!a.format.empty()) spec.format = a.format;
  io::Recorder recorder(spec);
  recorder.enableVtk(a.vtk);
  io::RunTotals totals;
  long first = 0;
  try {
    io::makeDirectories(a.outputDir);
    if (!a.restart.empty()) {
      first = io::loadCheckpoint(a.restart, *run, recorder, totals);
      std::printf("restarting %s from %s at step %ld (t = %g)\n", run->name.c_str(),
                  a.restart.c_str(), first, run->simulation->startingTime());
    } else {
      recorder.recordInitial(run->t0);
    }
  } catch (const nsdyn::Error& e) {
    std::fprintf(stderr, "nsdyn run: %s\n", e.what());
    return kExitBadInput;
  }

  if (run->simulationType == "EventDriven" &&
      (a.checkpointEvery || !a.restart.empty() || a.stopAfter)) {
    std::fprintf(
        stderr,
        "nsdyn run: checkpoints, --restart and --stop-after are for TimeStepping runs; %s is %s\n",
        a.model.c_str(), run->simulationType.c_str());
    return kExitUsage;
  }

  // 2. simulate
  Simulation& sim = *run->simulation;
  if (auto* ed = dynamic_cast<EventDriven*>(&sim)) return runEventDriven(a, *run, *ed, recorder);
  const std::string checkpointPath = io::joinPath(a.outputDir, run->name + ".checkpoint");
  ProgressBar progress(first, run->steps, a.quiet);
  try {
    for (long k = first + 1; k <= run->steps; ++k) {
      sim.computeOneStep();
      totals.add(sim.lastStatistics());
      recorder.recordStep(k, sim.nextTime());
      sim.nextStep();
      progress.update(k, sim.startingTime());
      if (a.checkpointEvery && k % a.checkpointEvery == 0 && k < run->steps)
        io::saveCheckpoint(checkpointPath, a.checkpointFormat, *run, recorder, totals);
      if (a.stopAfter && k == a.stopAfter) {
        progress.finish();
        std::printf("%s: stopped after step %ld (--stop-after); no results written\n",
                    run->name.c_str(), k);
        return kExitOk;
      }
      if (recorder.full()) break;
    }
  } catch (const nsdyn::Error& e) {
    progress.finish();
    std::fprintf(stderr, "nsdyn run: step %ld: %s\n", sim.currentStep() + 1, e.what());
    return kExitFailed;
  }
  progress.finish();
  if (recorder.full())
    std::printf("%s: stopped at t = %g: output %s has its max-rows\n", run->name.c_str(),
                sim.startingTime(), recorder.fullOutput().c_str());
  printSummary(*run, totals, progress.seconds());
  return writeResults(a, *run, recorder);
}

}  // namespace nsdyn::cli
