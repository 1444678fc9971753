// `mpirun -np N nsdyn run MODEL.xml`: the model file's <scene> stepped over the ranks of
// MPI_COMM_WORLD by nsdyn::parallel::DistributedScene (doc/parallel.md, "nsdyn run under
// mpirun"). Built only with NSDYN_MPI; the single-process `nsdyn run` is run_command.cpp.
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <nsdyn/Error.hpp>
#include <nsdyn/FrictionContact.hpp>
#include <nsdyn/OneStepIntegrator.hpp>
#include <nsdyn/Simulation.hpp>
#include <nsdyn/TimeStepping.hpp>
#include <nsdyn/io/PartFile.hpp>
#include <nsdyn/io/Writers.hpp>
#include <nsdyn/io/XmlLoader.hpp>
#include <nsdyn/parallel/Collective.hpp>
#include <nsdyn/parallel/DistributedScene.hpp>
#include <nsdyn/parallel/DistributedSceneFiles.hpp>
#include <nsdyn/parallel/SceneSpecFromKernel.hpp>

#include "commands.hpp"
#include "exit_status.hpp"
#include "run_support.hpp"

namespace nsdyn::cli {

namespace {

using parallel::DistributedScene;

// One failure class per exit status, decided the same on every rank.
struct RunError : nsdyn::Error {
  RunError(int status, const std::string& what) : nsdyn::Error(what), exitStatus(status) {}
  int exitStatus;
};

// Columns of NAME.csv (rank 0): the run's global figures per step.
const char* const kColumns[] = {"t",          "kinetic",    "potential", "contact_work", "energy",
                                "contacts",   "active",     "iterations", "residual",    "top",
                                "migrated",   "kB_sent",    "imbalance",  "step_seconds"};

class CsvRows {
 public:
  // Opens NAME.csv.part on rank 0 (nsdyn::Error when it cannot).
  void open(const std::string& path) {
    file_ = std::make_unique<io::PartFile>(path, "nsdyn run");
    std::string header;
    for (const char* c : kColumns) header += (header.empty() ? "" : ",") + std::string(c);
    std::fprintf(file_->get(), "%s\n", header.c_str());
  }
  void row(const DistributedScene::StepReport& r, double work) {
    if (!file_) return;
    std::fprintf(file_->get(), "%.17g,%.17g,%.17g,%.17g,%.17g,%llu,%llu,%d,%.17g,%.17g,%llu,%.6g,%.6g,%.6g\n", r.time,
                 r.kineticEnergy, r.potentialEnergy, work, r.kineticEnergy + r.potentialEnergy,
                 static_cast<unsigned long long>(r.contacts), static_cast<unsigned long long>(r.active),
                 r.solver.iterations, r.solver.residual, r.maxZ, static_cast<unsigned long long>(r.migrated),
                 1e-3 * static_cast<double>(r.bytesSent), r.imbalance, r.totalSeconds);
  }
  // Closes and renames; false (the message on stderr) when that failed.
  bool finish() {
    if (!file_) return false;
    try {
      file_->commit();
      return true;
    } catch (const nsdyn::Error& e) {
      std::fprintf(stderr, "nsdyn run: %s\n", e.what());
      return false;
    }
  }

 private:
  std::unique_ptr<io::PartFile> file_;
};

int run(const RunArgs& a, MPI_Comm comm, int rank, int size) {
  // 1. every rank loads the model file (generators are deterministic: the same bodies on
  //    every rank), keeps its slice of the bodies and drops the Kernel objects
  std::string fault;
  int faultStatus = kExitBadInput;
  std::unique_ptr<io::LoadedModel> model;
  try {
    model = io::XmlLoader().loadFile(a.model);
    const io::LoadedModel& m = *model;
    const auto* problem = dynamic_cast<const FrictionContact*>(m.simulation->oneStepNSProblem().get());
    if (!m.scene) {
      fault = a.model + ": no <scene>; mpirun runs a model's <scene> over the ranks (run other models "
                        "without mpirun)";
    } else if (m.simulationType != "TimeStepping") {
      fault = a.model + ": a " + m.simulationType + " simulation; distributed runs are TimeStepping";
    } else if (!problem || problem->dim() != 3) {
      fault = a.model + ": distributed runs solve a FrictionContact dim=\"3\" problem";
    } else if (problem->solverName() != "apgd" && problem->solverName() != "nsgs") {
      fault = a.model + ": solver '" + problem->solverName() +
              "': distributed runs solve with apgd or nsgs (<FrictionContact solver=\"apgd\">)";
    } else if (!a.format.empty() && a.format != "csv") {
      fault = "--format " + a.format + ": a distributed run writes CSV (and <sceneFiles hdf5=\"true\">)";
      faultStatus = kExitUsage;
    } else if (!a.dumpSteps.empty() || a.forceRestart || a.checkpointFormat != io::ArchiveFormat::Binary) {
      fault = "--dump-problems, --force-restart and --checkpoint-format are single-process options";
      faultStatus = kExitUsage;
    } else if (m.steps > a.maxSteps) {
      fault = a.model + ": " + std::to_string(m.steps) + " time steps: expected at most " +
              std::to_string(a.maxSteps) + "; --max-steps N raises the cap";
    }
  } catch (const std::exception& e) {
    fault = e.what();
  }
  {
    // the same status on every rank (the largest one among the faulty ranks)
    int mine = fault.empty() ? 0 : faultStatus, status = 0;
    MPI_Allreduce(&mine, &status, 1, MPI_INT, MPI_MAX, comm);
    try {
      parallel::throwIfAnyFault(comm, fault);
    } catch (const nsdyn::Error& e) {
      throw RunError(status, e.what());
    }
  }
  const io::LoadedModel& m = *model;
  const auto& problem = *m.simulation->oneStepNSProblem();
  parallel::DistributedSceneSpec spec;
  try {
    spec = parallel::sceneSpecFrom(*m.scene->contacts, m.scene->gravity, m.t0, m.h,
                                   m.simulation->integrators().front()->theta(), rank, size, a.model);
  } catch (const std::exception& e) {
    fault = e.what();
  }
  try {
    parallel::throwIfAnyFault(comm, fault);
  } catch (const nsdyn::Error& e) {
    throw RunError(kExitBadInput, e.what());
  }
  spec.solver = problem.solverName();
  spec.solverOptions = problem.options();
  spec.rebalanceEvery = a.rebalanceEvery;
  const std::uint64_t fingerprint = parallel::sceneFingerprint(comm, spec);

  // 2. output folder (rank 0 creates it; every rank learns the outcome)
  fault.clear();
  if (rank == 0) {
    try {
      io::makeDirectories(a.outputDir);
    } catch (const std::exception& e) {
      fault = "--output " + a.outputDir + ": " + e.what();
    }
  }
  try {
    parallel::throwIfAnyFault(comm, fault);
  } catch (const nsdyn::Error& e) {
    throw RunError(kExitIo, e.what());
  }

  // 3. the scene over the ranks (a restart: the checkpoint's bodies and contacts, any rank count)
  long first = 0;
  std::unique_ptr<DistributedScene> scene;
  if (!a.restart.empty()) {
    parallel::DistributedCheckpoint cp;
    try {
      cp = parallel::loadCheckpoint(comm, a.restart, fingerprint);
    } catch (const nsdyn::Error& e) {
      throw RunError(kExitBadInput, e.what());
    }
    spec.bodies = std::move(cp.bodies);
    scene = std::make_unique<DistributedScene>(comm, std::move(spec), cp.memory);
    scene->setClock(cp.time, cp.steps);
    first = cp.steps;
    if (rank == 0)
      std::printf("restarting %s from %s at step %ld (t = %g) on %d rank%s\n", m.name.c_str(), a.restart.c_str(),
                  first, cp.time, size, size > 1 ? "s" : "");
  } else {
    scene = std::make_unique<DistributedScene>(comm, std::move(spec));
  }
  const std::string csvPath = io::joinPath(a.outputDir, m.name + ".csv");
  const std::string checkpointPath = io::joinPath(a.outputDir, m.name + ".mpi-checkpoint");
  CsvRows csv;
  fault.clear();
  if (rank == 0) {
    try {
      csv.open(csvPath);
    } catch (const std::exception& e) {
      fault = e.what();
    }
  }
  try {
    parallel::throwIfAnyFault(comm, fault);
  } catch (const nsdyn::Error& e) {
    throw RunError(kExitIo, e.what());
  }
  std::unique_ptr<parallel::DistributedSceneVtk> vtk;
  std::unique_ptr<parallel::DistributedSceneHdf5> hdf5;
  const long every = m.scene->files.every;
  if (a.vtk || m.scene->files.vtk) vtk = std::make_unique<parallel::DistributedSceneVtk>(comm, a.outputDir, m.name);
  if (m.scene->files.hdf5)
    hdf5 = std::make_unique<parallel::DistributedSceneHdf5>(comm, io::joinPath(a.outputDir, m.name + ".hdf5"),
                                                            *scene);

  // the initial frame (a restart continues the frames of its own folder from there)
  if (vtk) vtk->writeFrame(*scene);
  if (hdf5) hdf5->writeStep(*scene);

  // 4. steps
  if (rank == 0)
    std::printf("%s: %ld steps of h = %g on %d MPI rank%s (%s, tolerance %g)\n", m.name.c_str(), m.steps - first,
                m.h, size, size > 1 ? "s" : "", scene->spec().solver.c_str(), scene->spec().solverOptions.tolerance);
  ProgressBar progress(first, m.steps, a.quiet || rank != 0);
  double work = 0.0, maxResidual = 0.0, phases[6] = {0, 0, 0, 0, 0, 0};
  long iterations = 0, failedStep = 0, done = 0;
  std::uint64_t bytes = 0, migrated = 0, maxContacts = 0, partitions = 0;
  for (long k = first + 1; k <= m.steps; ++k) {
    const DistributedScene::StepReport& r = scene->step();
    ++done;
    work += r.contactWork;
    iterations += r.solver.iterations;
    if (r.active > 0) maxResidual = std::max(maxResidual, r.solver.residual);
    bytes += r.bytesSent;
    migrated += r.migrated;
    maxContacts = std::max<std::uint64_t>(maxContacts, r.contacts);
    partitions += r.repartitioned ? 1 : 0;
    const double p[6] = {r.detectSeconds, r.assembleSeconds, r.solveSeconds, r.updateSeconds, r.migrateSeconds,
                         r.totalSeconds};
    for (int i = 0; i < 6; ++i) phases[i] += p[i];
    csv.row(r, work);
    if (vtk && (k % every == 0 || k == m.steps)) vtk->writeFrame(*scene);
    if (hdf5 && (k % every == 0 || k == m.steps)) hdf5->writeStep(*scene);
    progress.update(k, r.time);
    if (r.active > 0 && r.status != NSD_OK) {
      failedStep = k;
      if (a.stopOnFailure) break;
    }
    if (a.checkpointEvery && k % a.checkpointEvery == 0 && k < m.steps)
      parallel::saveCheckpoint(*scene, checkpointPath, fingerprint);
    if (a.stopAfter && k == a.stopAfter) {
      progress.finish();
      if (rank == 0) std::printf("%s: stopped after step %ld (--stop-after); no results written\n", m.name.c_str(), k);
      return failedStep ? kExitFailed : kExitOk;
    }
  }
  progress.finish();
  std::vector<std::string> files;
  if (vtk) files = vtk->finish();
  if (hdf5) hdf5->close();
  int csvOk = rank == 0 ? (csv.finish() ? 1 : 0) : 1;
  MPI_Bcast(&csvOk, 1, MPI_INT, 0, comm);

  // 5. summary (rank 0) and the exit status (the same on every rank)
  if (rank == 0) {
    const auto& last = scene->lastReport();
    const double n = done > 0 ? static_cast<double>(done) : 1.0;
    std::printf("%s summary (TimeStepping over %d MPI rank%s, h = %g, t = %g ... %g)\n", m.name.c_str(), size,
                size > 1 ? "s" : "", m.h, m.t0, scene->time());
    std::printf("  bodies:                  %lld dynamic spheres, %zu static bodies\n",
                static_cast<long long>(scene->decomposition().statistics().globalBodies),
                scene->spec().statics.size());
    std::printf("  steps:                   %ld\n", done);
    std::printf("  contacts:                %llu at the end (%llu active), at most %llu\n",
                static_cast<unsigned long long>(last.contacts), static_cast<unsigned long long>(last.active),
                static_cast<unsigned long long>(maxContacts));
    std::printf("  solver (%s):           %ld iterations in all, max error %.3g\n", scene->spec().solver.c_str(),
                iterations, maxResidual);
    std::printf("  per step (slowest rank): detect %.3g ms, assemble %.3g ms, solve %.3g ms, update %.3g ms, "
                "migrate %.3g ms, total %.3g ms\n",
                1e3 * phases[0] / n, 1e3 * phases[1] / n, 1e3 * phases[2] / n, 1e3 * phases[3] / n,
                1e3 * phases[4] / n, 1e3 * phases[5] / n);
    std::printf("  communication:           %.1f kB sent per step, %llu bodies migrated, %llu repartitions\n",
                1e-3 * static_cast<double>(bytes) / n, static_cast<unsigned long long>(migrated),
                static_cast<unsigned long long>(partitions));
    std::printf("  energy:                  kinetic %.6g J, potential %.6g J, contact work %.6g J\n",
                last.kineticEnergy, last.potentialEnergy, work);
    std::printf("  wall time:               %.3f s\n", progress.seconds());
    if (csvOk) {
      std::printf("  results:                 %s\n", csvPath.c_str());
      if (a.plot) {
        io::OutputSpec plot;
        plot.name = m.name;
        plot.plotTitle = m.name + " over " + std::to_string(size) + " MPI ranks";
        for (const char* c : kColumns) {
          plot.columns.emplace_back();
          plot.columns.back().name = c;
        }
        plot.curves = {{1, "kinetic (J)", "energy (J)"}, {5, "contacts", "contacts"}, {9, "top (m)", "height (m)"}};
        const std::string png = io::joinPath(a.outputDir, m.name + ".png");
        if (io::plotPng(plot, csvPath, png)) std::printf("  plot:                    %s\n", png.c_str());
      }
    }
    for (const std::string& f : files)
      if (f.size() > 4 && f.compare(f.size() - 4, 4, ".pvd") == 0) std::printf("  scene vtk:               %s\n", f.c_str());
    if (hdf5) std::printf("  scene hdf5:              %s\n", io::joinPath(a.outputDir, m.name + ".hdf5").c_str());
    if (failedStep)
      std::fprintf(stderr, "nsdyn run: %s: step %ld: the distributed %s solve failed (error %.3g above %g)%s\n",
                   a.model.c_str(), failedStep, scene->spec().solver.c_str(), maxResidual,
                   scene->spec().solverOptions.tolerance, a.stopOnFailure ? "; stopped there" : "");
  }
  if (!csvOk) return kExitIo;
  return failedStep ? kExitFailed : kExitOk;
}

}  // namespace

int mpiRunCommand(const RunArgs& a) {
  int provided = 0;
  int argc = 0;
  char** argv = nullptr;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int status = kExitOk;
  try {
    status = run(a, MPI_COMM_WORLD, rank, size);
  } catch (const RunError& e) {
    parallel::reportError(MPI_COMM_WORLD, e);
    status = e.exitStatus;
  } catch (const std::exception& e) {
    // collective errors (every rank throws the same): the run failed
    parallel::reportError(MPI_COMM_WORLD, e);
    status = kExitFailed;
  }
  MPI_Finalize();
  return status;
}

}  // namespace nsdyn::cli
