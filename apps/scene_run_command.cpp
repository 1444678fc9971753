// `nsdyn run` of a model with a <scene>, on one process or N MPI ranks: one run loop over a
// SceneEngine (doc/design.md, "One scene engine"). The parts meet through io::SceneParts
// (frames gathered for the writers, checkpoints, faults agreed, figures summed); rank 0
// records the model's outputs and writes every file.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include <nsdyn/nsd_solvers.h>
#include <nsdyn/Error.hpp>
#include <nsdyn/PeridynamicBody.hpp>
#include <nsdyn/PeridynamicSceneSystem.hpp>
#include <nsdyn/SceneEngine.hpp>
#include <nsdyn/io/PeridynamicHdf5Writer.hpp>
#include <nsdyn/io/PeridynamicVtkWriter.hpp>
#include <nsdyn/io/SceneCheckpoint.hpp>
#include <nsdyn/io/SceneEngineFromModel.hpp>
#include <nsdyn/io/SceneFrameView.hpp>
#include <nsdyn/io/SceneHdf5Writer.hpp>
#include <nsdyn/io/SceneVtkWriter.hpp>
#include <nsdyn/io/WriteFault.hpp>
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

// Run @p f on every part; a failure on any part stops every part with @p status, or with
// kExitIo when a part failed to write a file (io::WriteError: full disk, ...).
template <class F>
void together(io::SceneParts& parts, int status, F&& f) {
  std::string fault;
  double writeFailed = 0.0;
  try {
    f();
  } catch (const io::WriteError& e) {
    fault = e.what();
    writeFailed = 1.0;
  } catch (const std::exception& e) {
    fault = e.what();
    if (fault.empty()) fault = "failed";
  }
  try {
    parts.agree(fault);
  } catch (const std::exception& e) {
    parts.max(&writeFailed, 1);  // collective: every part is here
    throw Stop{writeFailed > 0.0 ? kExitIo : status, e.what()};
  }
}

class SceneRun {
 public:
  SceneRun(const RunArgs& a, io::LoadedModel& model, io::SceneParts& parts)
      : a_(a), model_(model), parts_(parts), writer_(parts.writer()) {}

  int run(std::shared_ptr<SceneExchange> exchange);
  // A run stopped on an error: no scene HDF5 under its final name.
  void discardFiles() {
    if (hdf5_) hdf5_->discard();
    if (pdHdf5_) pdHdf5_->discard();
  }

 private:
  void start(std::shared_ptr<SceneExchange> exchange);
  void figures();
  void frame();
  void record(long k);
  void summary(double wall) const;
  io::SceneRunRecord runRecord() const;
  void resume(const io::SceneRunRecord& r);

  const RunArgs& a_;
  io::LoadedModel& model_;
  io::SceneParts& parts_;
  const bool writer_;
  std::shared_ptr<SceneEngine> engine_;
  std::unique_ptr<io::Recorder> recorder_;
  std::unique_ptr<io::SceneVtkWriter> vtk_;
  std::unique_ptr<io::SceneHdf5Writer> hdf5_;
  // the scene's peridynamic bodies: a VTK series each, one HDF5 file for all
  std::vector<std::unique_ptr<io::PeridynamicVtkWriter>> pdVtk_;
  std::unique_ptr<io::PeridynamicHdf5Writer> pdHdf5_;
  std::shared_ptr<io::SceneFigures> figures_ = std::make_shared<io::SceneFigures>();
  io::RunTotals totals_;
  long first_ = 0, every_ = 1, framed_ = -1, failedCount_ = 0, failedStep_ = 0;
  double startEnergy_ = 0.0, work_ = 0.0, maxContacts_ = 0.0;
  double phases_[5] = {0.0, 0.0, 0.0, 0.0, 0.0};  // detect, assemble, solve, update, step (s)
  std::string failedMessage_;
  io::SceneRunRecord restored_;  // a restart: the checkpoint's run record (format 2)
  bool hasRestored_ = false;
};

// The run loop's accumulators in a checkpoint's run record, in this order.
constexpr std::size_t kRunValues = 21;

std::string exact(double x) {
  char s[40];
  std::snprintf(s, sizeof s, "%.17g", x);
  return s;
}

// The engine (a restart: the checkpoint's state), the outputs, the scene files.
void SceneRun::start(std::shared_ptr<SceneExchange> exchange) {
  // a scene checkpoint holds the store, not a peridynamic body's bonds and damage
  if (!model_.scene->peridynamicBodies.empty() && (a_.checkpointEvery > 0 || !a_.restart.empty()))
    throw Stop{kExitUsage, a_.model +
                               ": --checkpoint-every and --restart are for scenes without "
                               "<PeridynamicBody> (a scene checkpoint does not hold a "
                               "peridynamic body's bonds); found '" +
                               model_.scene->peridynamicBodies.front().body->name() + "'"};
  together(parts_, kExitBadInput, [&] {
    engine_ = io::makeSceneEngine(model_);
    if (exchange) engine_->setExchange(std::move(exchange));
    if (!a_.dumpSteps.empty()) engine_->setProblemDump(a_.outputDir, a_.dumpSteps);
  });
  if (!a_.restart.empty()) {
    try {
      hasRestored_ = io::loadSceneCheckpoint(*engine_, a_.restart, parts_, &restored_);
    } catch (const std::exception& e) {  // collective: the same error on every part
      throw Stop{kExitBadInput, e.what()};
    }
    // the same file on every part: the same verdict everywhere
    if (engine_->steps() > model_.steps)
      throw Stop{kExitBadInput, "scene checkpoint " + a_.restart +
                                    ": expected a step count within [0, " +
                                    std::to_string(model_.steps) + "] (the steps of this run), " +
                                    "found " + std::to_string(engine_->steps())};
  }
  together(parts_, kExitBadInput, [&] { engine_->initialize(); });
  first_ = engine_->steps();
  if (writer_ && !a_.restart.empty())
    std::printf("restarting %s from %s at step %ld (t = %g)\n", model_.name.c_str(),
                a_.restart.c_str(), first_, engine_->time());
  // the engine's warnings (overlaps at t0) were printed by its rank 0 at initialize()
  model_.scene->figures = figures_;
  every_ = model_.scene->files.every;
  together(parts_, kExitIo, [&] {
    if (!writer_) return;
    io::OutputsSpec& spec = model_.outputs;
    if (!a_.format.empty()) spec.format = a_.format;
    recorder_ = std::make_unique<io::Recorder>(spec);
    // no VTK frames in the recorder: a scene's frames are written as the run goes
    // (SceneVtkWriter); recorded, they only filled a spool never read (issue 23, row 9)
    recorder_->streamTo(a_.outputDir, model_.name, static_cast<std::size_t>(a_.outputWindow));
    // a checkpoint names the spool files: they stay until the results are written
    recorder_->keepSpool(a_.checkpointEvery > 0 || !a_.restart.empty());
    if (model_.scene->files.vtk || a_.vtk)
      vtk_ = std::make_unique<io::SceneVtkWriter>(a_.outputDir, model_.name);
    if (model_.scene->files.hdf5)
      hdf5_ = std::make_unique<io::SceneHdf5Writer>(
          io::joinPath(a_.outputDir, model_.name + ".hdf5"), model_.h);
    // NAME_pd_BODY_NNNNNN.vtp, NAME_pd_BODY.pvd; NAME_peridynamics.hdf5
    const auto& pd = model_.scene->peridynamicBodies;
    if (vtk_)
      for (const io::LoadedPeridynamicBody& b : pd)
        pdVtk_.push_back(std::make_unique<io::PeridynamicVtkWriter>(
            a_.outputDir, model_.name + "_pd_" + b.body->name()));
    if (hdf5_ && !pd.empty())
      pdHdf5_ = std::make_unique<io::PeridynamicHdf5Writer>(
          io::joinPath(a_.outputDir, model_.name + "_peridynamics.hdf5"));
  });
  figures();
  startEnergy_ = figures_->kineticEnergy + figures_->potentialEnergy;
  if (hasRestored_) {
    // the rows, sums and totals up to the checkpoint: the run goes on as if never stopped
    together(parts_, kExitBadInput, [&] { resume(restored_); });
  } else {
    if (!a_.restart.empty() && writer_)
      std::fprintf(stderr,
                   "nsdyn run: warning: %s has no run record (scene checkpoint format 1): the "
                   "output rows before step %ld are not in this run's tables and its sums "
                   "start from 0\n",
                   a_.restart.c_str(), first_);
    together(parts_, kExitIo, [&] {
      if (recorder_) recorder_->recordInitial(engine_->time());
    });
  }
  frame();
}

// What a checkpoint keeps of this run besides the engine (rank 0's outputs; every part's
// accumulators, the same on every part).
io::SceneRunRecord SceneRun::runRecord() const {
  io::SceneRunRecord r;
  if (recorder_) {
    auto& rec = *recorder_;
    for (std::size_t o = 0; o < rec.tables().size(); ++o) {
      const io::Table& t = rec.tables()[o];
      io::SceneRunRecord::Output out;
      out.name = t.name;
      out.columns = t.columns.size();
      out.spool = t.spool;
      out.spooled = t.spooledRows;
      out.rows = t.rows;
      out.sums = const_cast<io::Recorder&>(rec).sumsMutable()[o];
      out.pendingNext = const_cast<io::Recorder&>(rec).pendingNextMutable()[o] != 0;
      r.outputs.push_back(std::move(out));
    }
  }
  const io::RunTotals& t = totals_;
  r.values = {double(t.steps),
              double(t.activeSteps),
              double(t.activations),
              double(t.solverCalls),
              double(t.failedSolves),
              double(t.fallbackSolves),
              double(t.totalIterations),
              double(t.maxIterations),
              t.maxResidual,
              double(t.lastActive),
              t.solverSeconds,
              work_,
              maxContacts_,
              startEnergy_,
              double(failedCount_),
              double(failedStep_),
              phases_[0],
              phases_[1],
              phases_[2],
              phases_[3],
              phases_[4]};
  r.message = failedMessage_;
  return r;
}

// A restart: @p r (the checkpoint's run record) checked against this run's outputs, then
// restored (the rows and sums on rank 0, the accumulators on every part).
void SceneRun::resume(const io::SceneRunRecord& r) {
  const std::string where = "scene checkpoint " + a_.restart;
  if (r.values.size() != kRunValues)
    throw Error(where, std::to_string(kRunValues) + " run values",
                std::to_string(r.values.size()) + " (a corrupted file)");
  const std::vector<double>& v = r.values;  // finite (the file's checks)
  const double steps = static_cast<double>(first_);
  if (v[0] != steps)
    throw Error(where,
                "the steps done in the run record equal to the checkpoint's (" +
                    std::to_string(first_) + ")",
                exact(v[0]) + " (a corrupted file)");
  for (std::size_t k = 0; k < kRunValues; ++k) {
    if (k != 11 && k != 13 && !(v[k] >= 0.0))  // all but the work and the energy
      throw Error(where, "run value " + std::to_string(k) + " >= 0",
                  exact(v[k]) + " (a corrupted file)");
    const bool stepCount = k == 1 || k == 3 || k == 4 || k == 5 || k == 14 || k == 15;
    const bool integer = k <= 7 || k == 9 || k == 14 || k == 15;
    if ((stepCount && v[k] > steps) || (integer && (v[k] != std::floor(v[k]) || v[k] > 1e15)))
      throw Error(where,
                  "run value " + std::to_string(k) + (stepCount ? " a step count" : " a count") +
                      " (an integer" + (stepCount ? " <= " + std::to_string(first_) : "") + ")",
                  exact(v[k]) + " (a corrupted file)");
  }
  if (recorder_) {
    io::Recorder& rec = *recorder_;
    if (r.outputs.size() != rec.tables().size())
      throw Error(where, std::to_string(rec.tables().size()) + " outputs (the model file's)",
                  std::to_string(r.outputs.size()));
    for (std::size_t o = 0; o < r.outputs.size(); ++o) {
      const io::Table& t = rec.tables()[o];
      const io::SceneRunRecord::Output& out = r.outputs[o];
      if (out.name != t.name || out.columns != t.columns.size())
        throw Error(where,
                    "output '" + t.name + "' of " + std::to_string(t.columns.size()) +
                        " columns (the model file's)",
                    "output '" + out.name + "' of " + std::to_string(out.columns));
      io::checkSpool(out.spool, t.columns.size(), static_cast<std::size_t>(out.spooled),
                     "output '" + t.name + "' of " + where);
    }
    for (std::size_t o = 0; o < r.outputs.size(); ++o) {
      const io::SceneRunRecord::Output& out = r.outputs[o];
      rec.tablesMutable()[o].rows = out.rows;
      rec.resumeRows(o, out.spool, static_cast<std::size_t>(out.spooled));
      rec.sumsMutable()[o] = out.sums;
      rec.pendingNextMutable()[o] = out.pendingNext ? 1 : 0;
    }
  }
  io::RunTotals& t = totals_;
  t.steps = long(v[0]);
  t.activeSteps = long(v[1]);
  t.activations = long(v[2]);
  t.solverCalls = long(v[3]);
  t.failedSolves = long(v[4]);
  t.fallbackSolves = long(v[5]);
  t.totalIterations = long(v[6]);
  t.maxIterations = int(std::min(v[7], 2e9));
  t.maxResidual = v[8];
  t.lastActive = long(v[9]);
  t.solverSeconds = v[10];
  work_ = v[11];
  maxContacts_ = v[12];
  startEnergy_ = v[13];
  failedCount_ = long(v[14]);
  failedStep_ = long(v[15]);
  for (int i = 0; i < 5; ++i) phases_[i] = v[16 + static_cast<std::size_t>(i)];
  failedMessage_ = r.message;
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
    const auto& pd = model_.scene->peridynamicBodies;
    for (std::size_t k = 0; k < pdVtk_.size(); ++k) pdVtk_[k]->writeFrame(t, *pd[k].body);
    if (pdHdf5_) {
      std::vector<const PeridynamicBody*> bodies;
      for (const io::LoadedPeridynamicBody& b : pd) bodies.push_back(b.body.get());
      pdHdf5_->writeStep(t, bodies);
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
  {
    // which solver ran the steps: auto says what it chose (SceneEngineOptions::solver)
    const SceneEngineOptions& o = engine_->options();
    const int anderson = o.solverOptions.nsgs.anderson;
    std::string how;
    if (o.solver == "auto")
      how = " (NSGS on body velocities, Anderson acceleration over " +
            std::to_string(anderson > 0 ? anderson : NSD_AUTO_ANDERSON) + " differences)";
    else if (o.solver == "nsgs" && anderson > 0)
      how = " (Anderson acceleration over " + std::to_string(anderson) + " differences)";
    std::printf("  solver:                  %s%s, tolerance %g, at most %d iterations\n",
                o.solver.c_str(), how.c_str(), o.solverOptions.tolerance,
                o.solverOptions.max_iterations);
  }
  if (totals_.fallbackSolves > 0)
    std::printf("  fallback solves:         %ld (the first solver stopped short; see fallback=)\n",
                totals_.fallbackSolves);
  std::printf("  solver iterations:       %ld total, %d max\n", totals_.totalIterations,
              totals_.maxIterations);
  std::printf("  max solver residual:     %.3g\n", totals_.maxResidual);
  if (const auto& problem = model_.simulation->oneStepNSProblem()) {
    // budget mode: the steps accepted above the tolerance (tolerance mode: among the failed)
    const bool budget = problem->solveMode() == SolveMode::Budget;
    if (budget || totals_.aboveTolerance > 0)
      std::printf("  above tolerance:         %ld solve%s (%s, tolerance %.3g)\n",
                  totals_.aboveTolerance, totals_.aboveTolerance == 1 ? "" : "s",
                  budget ? "budget mode: accepted" : "stopped at the budget: failed",
                  problem->options().tolerance);
  }
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
  for (const auto& system : engine_->systems()) {
    const auto* pd = dynamic_cast<const PeridynamicSceneSystem*>(system.get());
    if (!pd) continue;
    const PeridynamicBody& b = pd->body();
    std::printf(
        "  peridynamic body:        %s: %zu points, %zu bonds, %zu broken (%zu in the run), "
        "%ld stepper iterations\n",
        b.name().c_str(), b.size(), b.bondCount() / 2, b.brokenBonds() / 2,
        pd->totalBondsBroken() / 2, pd->totalIterations());
  }
  for (const auto& w : pdVtk_)
    std::printf("  peridynamic vtk:         %s (%zu frames)\n", w->pvdPath().c_str(),
                w->frameCount());
  if (pdHdf5_) std::printf("  peridynamic hdf5:        %s\n", pdHdf5_->path().c_str());
  const std::vector<std::string>& dumped = engine_->dumpedFiles();
  if (!a_.dumpSteps.empty()) {
    // each step's FC3D file, then its global form beside it (problem_NNNNNN_global.hdf5)
    std::printf(
        "  problems (FCLIB):        %zu of %zu steps asked written (each with its global "
        "form, _global.hdf5)\n",
        dumped.size() / 2, a_.dumpSteps.size());
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
  std::string stepFault;  // a step that threw: the rows before it are written, then exit 1
  for (long k = first_ + 1; k <= model_.steps; ++k) {
    try {
      together(parts_, kExitFailed, [&] { engine_->step(); });
    } catch (const Stop& s) {
      if (s.status != kExitFailed) throw;
      stepFault = "step " + std::to_string(k) + ": " + s.message;
      break;
    }
    record(k);
    progress.update(k, engine_->time());
    if (failedStep_ == k && a_.stopOnFailure) {
      stopped = true;
      break;
    }
    if (a_.checkpointEvery && k % a_.checkpointEvery == 0 && k < model_.steps) try {
        const io::SceneRunRecord record = runRecord();
        io::saveSceneCheckpoint(*engine_, checkpoint, parts_,
                                &record);  // collective: the same error everywhere
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
  // a run stopped early gets its last frame (not after a step that threw: its state is not
  // a step's)
  if (stepFault.empty() && framed_ != engine_->steps()) frame();
  int status = kExitOk;
  together(parts_, kExitIo, [&] {
    if (vtk_) vtk_->finish();
    if (hdf5_) hdf5_->close();
    for (auto& w : pdVtk_) w->finish();
    if (pdHdf5_) pdHdf5_->close();
  });
  if (writer_) {
    if (recorder_->full())
      std::printf("%s: stopped at t = %g: output %s has its max-rows\n", model_.name.c_str(),
                  engine_->time(), recorder_->fullOutput().c_str());
    if (stopped)
      std::printf("%s: stopped at t = %g after a failed step (--on-failure stop)\n",
                  model_.name.c_str(), engine_->time());
    summary(progress.seconds());
    if (!stepFault.empty())
      std::fprintf(stderr, "nsdyn run: %s\nnsdyn run: the results up to step %ld are written\n",
                   stepFault.c_str(), engine_->steps());
    // after a failed step the spool files stay for a restart from the last checkpoint
    status = writeResults(a_, model_, *recorder_,
                          stepFault.empty() || !(a_.checkpointEvery > 0 || !a_.restart.empty()));
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
  return failedCount_ > 0 || !stepFault.empty() ? kExitFailed : kExitOk;
}

}  // namespace

int runScene(const RunArgs& a, io::LoadedModel& run, io::SceneParts& parts,
             std::shared_ptr<SceneExchange> exchange) {
  SceneRun scene(a, run, parts);
  try {
    return scene.run(std::move(exchange));
  } catch (const Stop& s) {
    scene.discardFiles();
    if (parts.writer()) std::fprintf(stderr, "nsdyn run: %s\n", s.message.c_str());
    return s.status;
  }
}

}  // namespace nsdyn::cli
