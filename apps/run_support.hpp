// What `nsdyn run` shares between its single-process and its MPI form: the command-line
// arguments, their parser, the progress bar.
#pragma once

#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include <nsdyn/SceneExchange.hpp>
#include <nsdyn/io/Checkpoint.hpp>
#include <nsdyn/io/Outputs.hpp>
#include <nsdyn/io/SceneParts.hpp>
#include <nsdyn/io/XmlLoader.hpp>

namespace nsdyn::cli {

/// Most steps a run does without --max-steps: 1e8 steps already keep 10 GB of
/// step statistics; more is usually a unit mistake (h = 1e-12).
constexpr long kDefaultMaxSteps = 100000000;

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
  bool forceRestart = false;  // --force-restart: restart although the model file differs
  long stopAfter = 0;
  std::vector<long> dumpSteps;  // --dump-problems, sorted, distinct
  bool vtkNoBodies = false;     // --vtk asked for a model without bodies: skipped, noted
  bool stopOnFailure = true;    // --on-failure stop|continue (else the model's on-failure)
  bool onFailureGiven = false;
  long maxSteps = kDefaultMaxSteps;  // --max-steps
  // rows per output kept in memory before they go to the output's spool file (hidden
  // --output-window N: the tests make it small to exercise the spool)
  long outputWindow = static_cast<long>(io::Recorder::kDefaultMemoryRows);
  // under mpirun: repartition the bodies every N steps (0: when the imbalance passes 1.25)
  long rebalanceEvery = 0;
  // --set NAME=VALUE (repeatable): the model's <parameter> values replaced before loading
  std::vector<io::ParameterOverride> overrides;
};

/// Parses the arguments after `run`; false (message on stderr) for a usage error.
bool parseRunArgs(int argc, char** argv, RunArgs* a);

/// The parameters --set replaced (one summary line, "parameters set (--set): ..."); nothing
/// when none.
void printOverrides(const io::LoadedModel& run);

/// The number of processes an MPI launcher (mpirun / mpiexec of Open MPI, MPICH, PMIx)
/// started this one among, from its environment; 0 when not started by one.
int mpiLauncherSize();
/// `nsdyn run` under mpirun (apps/mpi_run_command.cpp, built with NSDYN_MPI only): the
/// model's <scene> stepped over the ranks of MPI_COMM_WORLD.
int mpiRunCommand(const RunArgs& a);

/// The output folder: created, a folder, and writable, checked before the first step;
/// false (the message on stderr) otherwise.
bool checkOutputDir(const std::string& dir);
/// Write the results of @p run (apps/run_results.cpp): HDF5 or CSV tables, plots, VTK
/// frames of <vtk> bodies, then remove the recorder's spool files (unless @p removeSpool is
/// false: a run stopped by a failed step keeps them for a restart from its checkpoint).
/// An exit status: 0, or 4 when a file could not be written (the message on stderr).
int writeResults(const RunArgs& a, const io::LoadedModel& run, io::Recorder& recorder,
                 bool removeSpool = true);
/// `nsdyn run` of a model with a <scene> (apps/scene_run_command.cpp): the scene stepped by
/// a SceneEngine over @p parts (one process: io::SceneParts; N ranks: parallel::MpiSceneParts
/// with the engine's MpiSceneExchange @p exchange). Collective; the same exit status on every part.
int runScene(const RunArgs& a, io::LoadedModel& run, io::SceneParts& parts,
             std::shared_ptr<SceneExchange> exchange);

/// "1.2 s", "3 min 04 s", "1 h 02 min".
std::string duration(double seconds);

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

}  // namespace nsdyn::cli
