// `nsdyn run` of a model with a <scene>, on one process or N MPI ranks: one run loop over a
// SceneEngine (doc/design.md, "One scene engine"). The parts meet through io::SceneParts
// (frames gathered for the writers, checkpoints, faults agreed, figures summed); rank 0
// records the model's outputs and writes every file.
#include <algorithm>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include <nsdyn/Error.hpp>
#include <nsdyn/SceneEngine.hpp>
#include <nsdyn/io/SceneCheckpoint.hpp>
#include <nsdyn/io/SceneEngineFromModel.hpp>
#include <nsdyn/io/SceneFrameView.hpp>
#include <nsdyn/io/SceneHdf5Writer.hpp>
#include <nsdyn/io/SceneVtkWriter.hpp>
#include <nsdyn/io/Writers.hpp>

#include "exit_status.hpp"
#include "run_support.hpp"

namespace nsdyn::cli {

namespace {

// A fault every part agreed on, with the exit status of its kind.
struct Stop {
  int status;
  std::string message;
};

// Run @p f on every part; a failure on any part stops every part with @p status.
template <class F>
void together(io::SceneParts& parts, int status, F&& f) {
  std::string fault;
  try {
    f();
  } catch (const std::exception& e) {
    fault = e.what();
    if (fault.empty()) fault = "failed";
  }
  try {
    parts.agree(fault);
  } catch (const std::exception& e) {
    throw Stop{status, e.what()};
  }
}

class SceneRun {
 public:
  SceneRun(const RunArgs& a, io::LoadedModel& model, io::SceneParts& parts)
      : a_(a), model_(model), parts_(parts), writer_(parts.writer()) {}

  int run(std::shared_ptr<SceneExchange> exchange);

 private:
  void start(std::shared_ptr<SceneExchange> exchange);
  void figures();
  void frame();
  void record(long k);
  void summary(double wall) const;

  const RunArgs& a_;
  io::LoadedModel& model_;
  io::SceneParts& parts_;
  const bool writer_;
  std::shared_ptr<SceneEngine> engine_;
  std::unique_ptr<io::Recorder> recorder_;
  std::unique_ptr<io::SceneVtkWriter> vtk_;
  std::unique_ptr<io::SceneHdf5Writer> hdf5_;
  std::shared_ptr<io::SceneFigures> figures_ = std::make_shared<io::SceneFigures>();
  io::RunTotals totals_;
  long first_ = 0, every_ = 1, framed_ = -1, failedCount_ = 0, failedStep_ = 0;
  double startEnergy_ = 0.0, work_ = 0.0, maxContacts_ = 0.0;
  double phases_[5] = {0.0, 0.0, 0.0, 0.0, 0.0};  // detect, assemble, solve, update, step (s)
  std::string failedMessage_;
};

// The engine (a restart: the checkpoint's state), the outputs, the scene files.
void SceneRun::start(std::shared_ptr<SceneExchange> exchange) {
  together(parts_, kExitBadInput, [&] {
    engine_ = io::makeSceneEngine(model_);
    if (exchange) engine_->setExchange(std::move(exchange));
    if (!a_.dumpSteps.empty()) engine_->setProblemDump(a_.outputDir, a_.dumpSteps);
  });
  if (!a_.restart.empty()) {
    try {
      io::loadSceneCheckpoint(*engine_, a_.restart, parts_);  // collective
    } catch (const std::exception& e) {
      throw Stop{kExitBadInput, e.what()};
    }
  }
  together(parts_, kExitBadInput, [&] { engine_->initialize(); });
  first_ = engine_->steps();
  if (writer_ && !a_.restart.empty())
    std::printf("restarting %s from %s at step %ld (t = %g)\n", model_.name.c_str(),
                a_.restart.c_str(), first_, engine_->time());
  for (const std::string& w : engine_->warnings())
    if (writer_) std::fprintf(stderr, "nsdyn run: warning: %s\n", w.c_str());
  model_.scene->figures = figures_;
  every_ = model_.scene->files.every;
  together(parts_, kExitIo, [&] {
    if (!writer_) return;
    io::OutputsSpec& spec = model_.outputs;
    if (!a_.format.empty()) spec.format = a_.format;
    recorder_ = std::make_unique<io::Recorder>(spec);
    recorder_->enableVtk(a_.vtk && !spec.vtk.bodies.empty());
    recorder_->streamTo(a_.outputDir, model_.name, static_cast<std::size_t>(a_.outputWindow));
    if (model_.scene->files.vtk || a_.vtk)
      vtk_ = std::make_unique<io::SceneVtkWriter>(a_.outputDir, model_.name);
    if (model_.scene->files.hdf5)
      hdf5_ = std::make_unique<io::SceneHdf5Writer>(
          io::joinPath(a_.outputDir, model_.name + ".hdf5"), model_.h);
  });
  figures();
  startEnergy_ = figures_->kineticEnergy + figures_->potentialEnergy;
  together(parts_, kExitIo, [&] {
    if (recorder_) recorder_->recordInitial(engine_->time());
  });
  frame();
}

// The figures output columns read (the same on every part), and the output bodies' state.
void SceneRun::figures() {
  io::fillSceneFigures(model_, *engine_, first_, parts_);
}

// A frame of the scene files (gathered on rank 0).
void SceneRun::frame() {
  if (!(model_.scene->files.vtk || a_.vtk || model_.scene->files.hdf5)) return;
  together(parts_, kExitIo, [&] {
    const io::SceneFrameView* whole = parts_.gather(engine_->bodies(), engine_->contacts());
    if (!whole) return;
    const double t = engine_->time();
    if (vtk_) vtk_->writeFrame(t, model_.h, *whole);
    if (hdf5_) {
      const io::SceneFigures& f = *figures_;
      hdf5_->writeStep(t, *whole);
      hdf5_->writeSolver(t, f.step.iterations, f.step.residual);
      hdf5_->writeEnergy(t, f.kineticEnergy, f.potentialEnergy, work_,  // work: summed
                         f.kineticEnergy + f.potentialEnergy);
    }
  });
  framed_ = engine_->steps();
}

// The figures, the outputs' row and the frame of step k.
void SceneRun::record(long k) {
  figures();
  const StepStatistics& s = figures_->step;
  totals_.add(s);
  work_ += figures_->contactWork;
  maxContacts_ = std::max(maxContacts_, figures_->contacts);
  const SceneEngine::StepReport& r = engine_->lastReport();
  double phases[5] = {r.detectSeconds, r.contactSeconds + r.freeSeconds, r.solveSeconds,
                      r.updateSeconds, r.totalSeconds};
  parts_.max(phases, 5);  // the slowest part's
  for (int i = 0; i < 5; ++i) phases_[i] += phases[i];
  if (s.solved && s.status != NSD_OK && failedCount_++ == 0) {
    failedStep_ = k;
    failedMessage_ =
        std::string(nsd_status_name(s.status)) + (s.message.empty() ? "" : ": " + s.message);
  }
  together(parts_, kExitIo, [&] {
    if (recorder_) recorder_->recordStep(k, engine_->time());
  });
  if (k % every_ == 0 || k == model_.steps) frame();
}

void SceneRun::summary(double wall) const {
  const auto& all = model_.scene->contacts->bodies();
  const std::size_t statics = static_cast<std::size_t>(
      std::count_if(all.begin(), all.end(), [](const BodyShapes& b) { return b.isStatic(); }));
  const io::SceneFigures& f = *figures_;
  std::printf("%s summary (TimeStepping on the scene engine, %d part%s, h = %g, t = %g ... %g)\n",
              model_.name.c_str(), parts_.size(), parts_.size() > 1 ? "s" : "", model_.h, model_.t0,
              engine_->time());
  std::printf("  steps:                   %ld\n", totals_.steps);
  std::printf("  steps with contacts:     %ld\n", totals_.activeSteps);
  std::printf("  solver calls:            %ld (%ld failed)\n", totals_.solverCalls,
              totals_.failedSolves);
  if (totals_.fallbackSolves > 0)
    std::printf("  fallback solves:         %ld (the first solver stopped short; see fallback=)\n",
                totals_.fallbackSolves);
  std::printf("  solver iterations:       %ld total, %d max\n", totals_.totalIterations,
              totals_.maxIterations);
  std::printf("  max solver residual:     %.3g\n", totals_.maxResidual);
  std::printf(
      "  scene:                   %zu bodies (%zu static), contacts at most %.0f, last step %.0f\n",
      all.size(), statics, maxContacts_, f.contacts);
  std::printf("  contact detection:       %.3f s\n", phases_[0]);
  const double n = totals_.steps > 0 ? 1e3 / static_cast<double>(totals_.steps) : 0.0;
  std::printf(
      "  per step (slowest rank): detect %.3g ms, assemble %.3g ms, solve %.3g ms, update %.3g "
      "ms, total %.3g ms\n",
      n * phases_[0], n * phases_[1], n * phases_[2], n * phases_[3], n * phases_[4]);
  std::printf(
      "  energy (J):              %.6g at t0, %.6g at the end (kinetic %.6g, potential %.6g), "
      "contact work %.6g\n",
      startEnergy_, f.kineticEnergy + f.potentialEnergy, f.kineticEnergy, f.potentialEnergy, work_);
  std::printf("  wall time:               %.3f s (solver %.3f s)\n", wall, totals_.solverSeconds);
  if (vtk_)
    std::printf("  vtk:                     %s, %s (%zu frames)\n", vtk_->bodiesPvdPath().c_str(),
                vtk_->contactsPvdPath().c_str(), vtk_->frameCount());
  if (hdf5_) std::printf("  scene hdf5:              %s\n", hdf5_->path().c_str());
  const std::vector<std::string>& dumped = engine_->dumpedFiles();
  if (!a_.dumpSteps.empty()) {
    std::printf("  problems (FCLIB):        %zu of %zu steps asked written\n", dumped.size(),
                a_.dumpSteps.size());
    for (const std::string& d : dumped) std::printf("    %s\n", d.c_str());
    std::string missing;
    for (long k : a_.dumpSteps) {
      char name[64];
      std::snprintf(name, sizeof name, "problem_%06ld.hdf5", k);
      if (std::find(dumped.begin(), dumped.end(), io::joinPath(a_.outputDir, name)) == dumped.end())
        missing += (missing.empty() ? "" : ",") + std::to_string(k);
    }
    if (!missing.empty())
      std::printf("    no problem at steps %s (no active contact, or beyond the run)\n",
                  missing.c_str());
  }
}

int SceneRun::run(std::shared_ptr<SceneExchange> exchange) {
  start(std::move(exchange));
  const std::string checkpoint = io::joinPath(a_.outputDir, model_.name + ".checkpoint");
  ProgressBar progress(first_, model_.steps, a_.quiet || !writer_);
  bool stopped = false;
  for (long k = first_ + 1; k <= model_.steps; ++k) {
    together(parts_, kExitFailed, [&] { engine_->step(); });
    record(k);
    progress.update(k, engine_->time());
    if (failedStep_ == k && a_.stopOnFailure) {
      stopped = true;
      break;
    }
    if (a_.checkpointEvery && k % a_.checkpointEvery == 0 && k < model_.steps) try {
        io::saveSceneCheckpoint(*engine_, checkpoint,
                                parts_);  // collective: the same error everywhere
      } catch (const std::exception& e) {
        throw Stop{kExitIo, e.what()};
      }
    if (a_.stopAfter && k == a_.stopAfter) {
      progress.finish();
      if (writer_)
        std::printf("%s: stopped after step %ld (--stop-after); no results written\n",
                    model_.name.c_str(), k);
      return failedCount_ > 0 ? kExitFailed : kExitOk;
    }
    double full = recorder_ && recorder_->full() ? 1.0 : 0.0;
    parts_.max(&full, 1);
    if (full > 0.0) break;
  }
  progress.finish();
  if (framed_ != engine_->steps()) frame();  // a run stopped early gets its last frame
  int status = kExitOk;
  together(parts_, kExitIo, [&] {
    if (vtk_) vtk_->finish();
    if (hdf5_) hdf5_->close();
  });
  if (writer_) {
    if (recorder_->full())
      std::printf("%s: stopped at t = %g: output %s has its max-rows\n", model_.name.c_str(),
                  engine_->time(), recorder_->fullOutput().c_str());
    if (stopped)
      std::printf("%s: stopped at t = %g after a failed step (--on-failure stop)\n",
                  model_.name.c_str(), engine_->time());
    summary(progress.seconds());
    status = writeResults(a_, model_, *recorder_);
    if (failedCount_ > 0)
      std::fprintf(
          stderr,
          "nsdyn run: %s: %ld failed step%s (solver status not ok); the first at step %ld: %s "
          "%s%s\n",
          a_.model.c_str(), failedCount_, failedCount_ > 1 ? "s" : "", failedStep_,
          model_.simulation->oneStepNSProblem()->solverName().c_str(), failedMessage_.c_str(),
          stopped ? "; stopped there (--on-failure continue runs to the end)" : "");
  }
  double worst = status;
  parts_.max(&worst, 1);
  if (worst != kExitOk) return static_cast<int>(worst);
  return failedCount_ > 0 ? kExitFailed : kExitOk;
}

}  // namespace

int runScene(const RunArgs& a, io::LoadedModel& run, io::SceneParts& parts,
             std::shared_ptr<SceneExchange> exchange) {
  try {
    return SceneRun(a, run, parts).run(std::move(exchange));
  } catch (const Stop& s) {
    if (parts.writer()) std::fprintf(stderr, "nsdyn run: %s\n", s.message.c_str());
    return s.status;
  }
}

}  // namespace nsdyn::cli
