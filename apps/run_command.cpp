// `nsdyn run`: load an XML model file, simulate it with a progress bar,
// print a summary and write the results (CSV or HDF5, a gnuplot PNG, VTK
// frames), with optional checkpoints and restart.
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include <nsdyn/FrictionContact.hpp>
#include <nsdyn/Kernel.hpp>
#include <nsdyn/io/Checkpoint.hpp>
#include <nsdyn/io/SceneHdf5Writer.hpp>
#include <nsdyn/io/SceneVtkWriter.hpp>
#include <nsdyn/io/WriteFault.hpp>
#include <nsdyn/io/Writers.hpp>
#include <nsdyn/io/XmlLoader.hpp>

#include "commands.hpp"
#include "exit_status.hpp"
#include "run_support.hpp"

namespace nsdyn::cli {
namespace {

void printSummary(const io::LoadedModel& run, const io::RunTotals& totals, double wall) {
  std::printf("%s summary (%s, h = %g, t = %g ... %g)\n", run.name.c_str(),
              run.simulationType.c_str(), run.h, run.t0, run.simulation->startingTime());
  std::printf("  steps:                   %ld\n", totals.steps);
  std::printf("  steps with contacts:     %ld\n", totals.activeSteps);
  std::printf("  impacts (activations):   %ld\n", totals.activations);
  std::printf("  solver calls:            %ld (%ld failed)\n", totals.solverCalls,
              totals.failedSolves);
  if (totals.fallbackSolves > 0)
    std::printf("  fallback solves:         %ld (the first solver stopped short; see fallback=)\n",
                totals.fallbackSolves);
  std::printf("  solver iterations:       %ld total, %d max\n", totals.totalIterations,
              totals.maxIterations);
  std::printf("  max solver residual:     %.3g\n", totals.maxResidual);
  if (const auto& problem = run.simulation->oneStepNSProblem()) {
    // budget mode: the steps accepted above the tolerance (tolerance mode: among the failed)
    const bool budget = problem->solveMode() == SolveMode::Budget;
    if (budget || totals.aboveTolerance > 0)
      std::printf("  above tolerance:         %ld solve%s (%s, tolerance %.3g)\n",
                  totals.aboveTolerance, totals.aboveTolerance == 1 ? "" : "s",
                  budget ? "budget mode: accepted" : "stopped at the budget: failed",
                  problem->options().tolerance);
  }
  if (totals.newtonSteps > 0)
    std::printf("  Newton iterations:       %ld total, %d max per step (%ld steps unconverged)\n",
                totals.newtonIterations, totals.maxNewtonIterations, totals.newtonFailures);
  if (run.simulationType == "TimeSteppingDirectProjection")
    std::printf("  position projections:    %ld total, %d max per step\n", totals.projections,
                totals.maxProjections);
  std::printf("  wall time:               %.3f s (solver %.3f s)\n", wall, totals.solverSeconds);
  printOverrides(run);
}

// Failed steps of a TimeStepping run: a nonsmooth problem solved with a status other
// than NSD_OK. The first one is reported with its step, time and solver message.
struct FailedSteps {
  long count = 0;
  long firstStep = 0;
  double firstTime = 0.0;
  std::string firstSolver, firstMessage;
  NsdStatus firstStatus = NSD_OK;

  bool add(long k, const StepStatistics& s) {
    if (!s.solved || s.status == NSD_OK) return false;
    if (count++ == 0) {
      firstStep = k;
      firstTime = s.time;
      firstSolver = s.solver;
      firstMessage = s.message;
      firstStatus = s.status;
    }
    return true;
  }
  void report(const std::string& model, bool stopped) const {
    if (count == 0) return;
    std::fprintf(stderr,
                 "nsdyn run: %s: %ld failed step%s (solver status not ok); the first at step %ld, "
                 "t = %.9g: %s %s%s%s\n",
                 model.c_str(), count, count > 1 ? "s" : "", firstStep, firstTime,
                 firstSolver.empty() ? "solver" : firstSolver.c_str(), nsd_status_name(firstStatus),
                 firstMessage.empty() ? "" : ": ", firstMessage.c_str());
    if (stopped)
      std::fprintf(stderr,
                   "nsdyn run: stopped at the first failed step (--on-failure stop); results up "
                   "to that step are written; --on-failure continue (or on-failure=\"continue\" in "
                   "the model's <simulation>) runs to the end\n");
  }
};

// The FCLIB files written by --dump-problems, and the steps asked that had no problem.
void printDumps(const RunArgs& a, const FrictionContact& problem) {
  const std::vector<std::string>& files = problem.dumpedFiles();
  std::printf("  problems (FCLIB):        %zu of %zu steps asked written\n", files.size(),
              a.dumpSteps.size());
  for (const std::string& f : files) std::printf("    %s\n", f.c_str());
  std::string missing;
  std::size_t count = 0;
  for (long k : a.dumpSteps) {
    char name[64];
    std::snprintf(name, sizeof name, "problem_%06ld.hdf5", k);
    if (std::find(files.begin(), files.end(), io::joinPath(a.outputDir, name)) != files.end())
      continue;
    if (++count <= 20) missing += (missing.empty() ? "" : ",") + std::to_string(k);
  }
  if (count > 0)
    std::printf("    no problem at step%s %s%s (no active contact, or beyond the run)\n",
                count > 1 ? "s" : "", missing.c_str(), count > 20 ? ", ..." : "");
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
  } catch (const io::WriteError& e) {
    // a spool file that cannot be written: the results cannot be either
    progress.finish();
    std::fprintf(stderr, "nsdyn run: event %ld: outputs: %s\n", events + 1, e.what());
    return kExitIo;
  } catch (const nsdyn::Error& e) {
    progress.finish();
    std::fprintf(stderr, "nsdyn run: event %ld: %s\n", events + 1, e.what());
    return kExitFailed;
  }
  progress.finish();
  // totals over every event (the statistics of the last event only are kept: memory does not
  // grow with the events)
  const EventTotals& totals = sim.eventTotals();
  const long impactSolves = totals.solverCalls, iterations = totals.iterations;
  const int maxIterations = totals.maxIterations;
  const double maxResidual = totals.maxResidual;
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
  printOverrides(run);
  const int written = writeResults(a, run, recorder);
  if (full.empty() && sim.status() != EventDriven::RunStatus::Finished) {
    std::fprintf(stderr, "nsdyn run: the run stopped early: %s\n", sim.statusMessage().c_str());
    return kExitFailed;
  }
  const long failed = totals.failedSolves;
  if (failed > 0) {
    std::fprintf(stderr, "nsdyn run: %s: %ld failed solve%s at events (solver status not ok)\n",
                 a.model.c_str(), failed, failed > 1 ? "s" : "");
    return written != kExitOk ? written : kExitFailed;
  }
  return written;
}
}  // namespace

const char* runUsage() {
  return "nsdyn run MODEL.xml [options]\n"
         "  --output DIR              results folder (created; default: current directory)\n"
         "  --set NAME=VALUE          replace the value of the model's <parameter name=NAME>\n"
         "                            (a number or an expression of earlier parameters;\n"
         "                            repeatable; shown in the run summary)\n"
         "  --format csv|hdf5         results format (default: the model file's, else csv)\n"
         "  --vtk                     also write VTK frames (.vtp + .pvd) of the bodies:\n"
         "                            position, orientation quaternion, velocities\n"
         "                            (a <scene>: its bodies with shapes and contacts)\n"
         "  --no-plot                 do not draw the gnuplot PNG\n"
         "  --quiet                   no progress bar\n"
         "  --checkpoint-every N      write DIR/NAME.checkpoint every N steps\n"
         "  --checkpoint-format F     binary (default) or xml archive\n"
         "  --restart FILE            continue the run saved in the checkpoint FILE\n"
         "                            (refused when the model file differs from the one that\n"
         "                            wrote it: time grid, parameters, systems, solver, ...)\n"
         "  --force-restart           with --restart: restart even from another model file\n"
         "  --stop-after N            stop after step N without writing results, as if\n"
         "                            interrupted (checkpoints written until then stay)\n"
         "  --dump-problems STEPS     write the FrictionContact problem of these steps as FCLIB\n"
         "                            files DIR/problem_NNNNNN.hdf5 (steps and ranges: 1,5,10-20;\n"
         "                            replay one with nsdyn solve FILE)\n"
         "  --on-failure stop|continue  at a failed step (solver status not ok): stop there\n"
         "                            (default) or run to the end; either way the exit status is "
         "1\n"
         "  --max-steps N             refuse runs of more than N steps (default 100000000)\n"
         "a model with a <scene> runs on the scene engine: its checkpoints are scene checkpoints\n"
         "  (restart bit-identical, or on another rank count; output tables from the restart on)\n"
         "under mpirun -np N (a build with NSDYN_MPI): the model's <scene> over N ranks, the same\n"
         "  run loop and files as one process, written by rank 0 (doc/parallel.md); not with\n"
         "  --dump-problems, --force-restart, --checkpoint-format or a fallback solver\n"
         "  --rebalance-every N       repartition the bodies every N steps (default: when the\n"
         "                            largest rank holds 1.25 x the mean)\n"
         "exit status: 0 done, 1 failed steps or the simulation failed, 2 usage error,\n"
         "  3 bad model or checkpoint file, 4 results could not be written, 5 internal error\n";
}

int runCommand(int argc, char** argv) {
  RunArgs a;
  if (!parseRunArgs(argc, argv, &a)) return kExitUsage;
  // under mpirun: the model's <scene> over the ranks (doc/parallel.md)
  if (const int ranks = mpiLauncherSize()) {
#ifdef NSDYN_WITH_MPI
    (void)ranks;
    return mpiRunCommand(a);
#else
    if (ranks > 1) {
      std::fprintf(
          stderr,
          "nsdyn run: started by mpirun with %d processes, but this nsdyn was built without MPI "
          "(NSDYN_MPI off: MPI or Zoltan not found at configure time); each process would run "
          "the whole model. Install libopenmpi-dev and libtrilinos-zoltan-dev and reconfigure, "
          "or run without mpirun\n",
          ranks);
      return kExitUsage;
    }
#endif
  }
  if (a.rebalanceEvery) {
    std::fprintf(stderr,
                 "nsdyn run: --rebalance-every is for runs under mpirun (doc/parallel.md)\n");
    return kExitUsage;
  }
  if (a.forceRestart && a.restart.empty()) {
    std::fprintf(stderr, "nsdyn run: --force-restart needs --restart FILE\n");
    return kExitUsage;
  }

  // 1. load and check everything before any step
  std::unique_ptr<io::LoadedModel> run;
  try {
    io::XmlLoader loader;
    loader.setParameterOverrides(a.overrides);
    run = loader.loadFile(a.model);
  } catch (const io::UnknownParameterError& e) {
    // --set NAME=VALUE with a NAME the file has no <parameter> for: a usage error
    std::fprintf(stderr, "nsdyn run: --set: %s\n", e.what());
    return kExitUsage;
  } catch (const nsdyn::Error& e) {
    std::fprintf(stderr, "nsdyn run: %s\n", e.what());
    return kExitBadInput;
  }
  // the run sums its steps as they go (RunTotals): the simulation keeps the last step's
  // statistics only, so memory does not grow with the number of steps
  run->simulation->setStatisticsHistory(1);
  // --dump-problems needs a FrictionContact problem (FCLIB files hold friction problems)
  FrictionContact* dump = nullptr;
  if (!a.dumpSteps.empty()) {
    const SP::OneStepNSProblem& problem = run->simulation->oneStepNSProblem();
    dump = dynamic_cast<FrictionContact*>(problem.get());
    if (!dump) {
      std::fprintf(
          stderr,
          "nsdyn run: --dump-problems: %s has no FrictionContact problem (%s); FCLIB files "
          "hold friction-contact problems\n",
          a.model.c_str(),
          problem ? ("its problem is " + problem->className()).c_str()
                  : (run->simulationType + " without a single nonsmooth problem").c_str());
      return kExitUsage;
    }
  }
  // the failure policy: the command line's, else the model file's on-failure
  if (!a.onFailureGiven) a.stopOnFailure = run->stopOnFailure;
  // a step count beyond --max-steps is a unit mistake more often than a plan
  if (run->steps > a.maxSteps) {
    std::fprintf(stderr,
                 "nsdyn run: %s: %ld time steps (t0 = %g, T = %g, h = %g): expected at most %ld; "
                 "--max-steps N raises the cap\n",
                 a.model.c_str(), run->steps, run->t0, run->T, run->h, a.maxSteps);
    return kExitBadInput;
  }
  if (a.vtk && !run->scene && run->outputs.vtk.bodies.empty()) {
    std::fprintf(stderr,
                 "nsdyn run: note: --vtk: %s has no bodies to draw (no <vtk> bodies, no <scene>); "
                 "no VTK frames written\n",
                 a.model.c_str());
    a.vtk = false;
    a.vtkNoBodies = true;
  }
  // a <scene> with joints in one <GenericMechanical> problem: the Kernel's TimeStepping
  // (its ContactManager), not the scene engine
  // (or with rolling resistance in one <RollingFrictionContact> problem)
  const bool sceneEngine = run->scene &&
                           !std::dynamic_pointer_cast<GenericMechanical>(
                               run->simulation ? run->simulation->oneStepNSProblem() : nullptr) &&
                           !std::dynamic_pointer_cast<RollingFrictionContact>(
                               run->simulation ? run->simulation->oneStepNSProblem() : nullptr);
  if (run->scene && !sceneEngine && !run->scene->peridynamicBodies.empty()) {
    std::fprintf(stderr,
                 "nsdyn run: %s: <PeridynamicBody> (line %ld): expected a scene on the scene "
                 "engine (a <FrictionContact dim=\"3\"> problem), found a <%s> problem\n",
                 a.model.c_str(), run->scene->peridynamicBodies.front().line,
                 run->simulation->oneStepNSProblem()->className().c_str());
    return kExitBadInput;
  }
  if (sceneEngine) {
    // a <scene>: the scene engine (one run loop with mpirun -np N)
    if (a.forceRestart || a.checkpointFormat != io::ArchiveFormat::Binary) {
      std::fprintf(
          stderr,
          "nsdyn run: --force-restart and --checkpoint-format xml are for models without a "
          "<scene>; %s has one (its checkpoints are scene checkpoints: doc/robustness.md)\n",
          a.model.c_str());
      return kExitUsage;
    }
    if (!checkOutputDir(a.outputDir)) return kExitIo;
    printOverrides(*run);  // before the scene run's own summary
    io::SceneParts one;
    return runScene(a, *run, one, nullptr);
  }
  if (run->simulationType == "EventDriven" &&
      (a.checkpointEvery || !a.restart.empty() || a.stopAfter)) {
    std::fprintf(
        stderr,
        "nsdyn run: checkpoints, --restart and --stop-after are for TimeStepping runs; %s is %s\n",
        a.model.c_str(), run->simulationType.c_str());
    return kExitUsage;
  }

  // the output folder before the first step: a --output that is a file must not cost a run
  if (!checkOutputDir(a.outputDir)) return kExitIo;
  io::OutputsSpec& spec = run->outputs;
  if (!a.format.empty()) spec.format = a.format;
  io::Recorder recorder(spec);
  recorder.enableVtk(a.vtk);
  // rows beyond a window go to spool files in the output folder, so that memory does not
  // grow with the number of steps; a checkpoint refers to them, so they stay when the run
  // ends without results while checkpoints are on (and are removed once results are written)
  recorder.streamTo(a.outputDir, run->name, static_cast<std::size_t>(a.outputWindow));
  recorder.keepSpool(a.checkpointEvery > 0 || !a.restart.empty());
  io::RunTotals totals;
  long first = 0;
  // what the model is, as loaded: written in each checkpoint, compared at --restart
  const io::ModelFingerprint fingerprint = (a.checkpointEvery || !a.restart.empty())
                                               ? io::modelFingerprint(*run)
                                               : io::ModelFingerprint{};
  try {
    if (!a.restart.empty()) {
      std::vector<std::string> differences;
      io::RestartOptions restart;
      restart.fingerprint = &fingerprint;
      restart.force = a.forceRestart;
      restart.differences = &differences;
      first = io::loadCheckpoint(a.restart, *run, recorder, totals, restart);
      if (!differences.empty()) {
        std::string list;
        for (const std::string& d : differences) list += (list.empty() ? "" : ", ") + d;
        std::fprintf(stderr,
                     "nsdyn run: warning: --force-restart: %s differs from the model file that "
                     "wrote %s (%s)\n",
                     a.model.c_str(), a.restart.c_str(), list.c_str());
      }
      std::printf("restarting %s from %s at step %ld (t = %g)\n", run->name.c_str(),
                  a.restart.c_str(), first, run->simulation->startingTime());
    } else {
      recorder.recordInitial(run->t0);
    }
    if (dump) dump->setProblemDump(a.outputDir, a.dumpSteps);
  } catch (const nsdyn::Error& e) {
    std::fprintf(stderr, "nsdyn run: %s\n", e.what());
    return kExitBadInput;
  }

  // 2. simulate
  Simulation& sim = *run->simulation;
  if (auto* ed = dynamic_cast<EventDriven*>(&sim)) return runEventDriven(a, *run, *ed, recorder);
  const std::string checkpointPath = io::joinPath(a.outputDir, run->name + ".checkpoint");
  ProgressBar progress(first, run->steps, a.quiet);
  FailedSteps failed;
  bool stoppedAtFailure = false;
  std::string stepFault;  // a step that threw: the rows before it are written, then exit 1
  try {
    for (long k = first + 1; k <= run->steps; ++k) {
      sim.computeOneStep();
      totals.add(sim.lastStatistics());
      const bool stepFailed = failed.add(k, sim.lastStatistics());
      try {
        recorder.recordStep(k, sim.nextTime());
      } catch (const nsdyn::Error& e) {
        // a spool file that cannot be written: the results cannot be either
        progress.finish();
        std::fprintf(stderr, "nsdyn run: step %ld: outputs: %s\n", k, e.what());
        return kExitIo;
      }
      sim.nextStep();
      progress.update(k, sim.startingTime());
      if (stepFailed && a.stopOnFailure) {
        stoppedAtFailure = true;
        break;
      }
      if (a.checkpointEvery && k % a.checkpointEvery == 0 && k < run->steps) {
        try {
          io::saveCheckpoint(checkpointPath, a.checkpointFormat, *run, recorder, totals,
                             fingerprint);
        } catch (const nsdyn::Error& e) {
          progress.finish();
          std::fprintf(stderr, "nsdyn run: step %ld: checkpoint: %s\n", k, e.what());
          return kExitIo;
        }
      }
      if (a.stopAfter && k == a.stopAfter) {
        progress.finish();
        std::printf("%s: stopped after step %ld (--stop-after); no results written\n",
                    run->name.c_str(), k);
        failed.report(a.model, false);
        return failed.count > 0 ? kExitFailed : kExitOk;
      }
      if (recorder.full()) break;
    }
  } catch (const io::WriteError& e) {
    progress.finish();
    std::fprintf(stderr, "nsdyn run: step %ld: %s\n", sim.currentStep() + 1, e.what());
    return kExitIo;
  } catch (const nsdyn::Error& e) {
    stepFault = "step " + std::to_string(sim.currentStep() + 1) + ": " + e.what();
  }
  progress.finish();
  if (recorder.full())
    std::printf("%s: stopped at t = %g: output %s has its max-rows\n", run->name.c_str(),
                sim.startingTime(), recorder.fullOutput().c_str());
  if (stoppedAtFailure)
    std::printf("%s: stopped at t = %g after a failed step (--on-failure stop)\n",
                run->name.c_str(), sim.startingTime());
  printSummary(*run, totals, progress.seconds());
  if (dump) printDumps(a, *dump);
  if (!stepFault.empty())
    std::fprintf(stderr, "nsdyn run: %s\nnsdyn run: the results up to step %ld are written\n",
                 stepFault.c_str(), sim.currentStep());
  // after a step that threw, the spool files stay for a restart from the last checkpoint
  const int written = writeResults(a, *run, recorder,
                                   stepFault.empty() || !(a.checkpointEvery || !a.restart.empty()));
  failed.report(a.model, stoppedAtFailure);
  if (written != kExitOk) return written;
  return failed.count > 0 || !stepFault.empty() ? kExitFailed : kExitOk;
}

}  // namespace nsdyn::cli
