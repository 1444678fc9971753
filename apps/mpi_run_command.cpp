// `mpirun -np N nsdyn run MODEL.xml`: the model file's <scene> stepped over the ranks of
// MPI_COMM_WORLD by the one scene run loop (scene_run_command.cpp) with the MPI
// implementation of the scene engine's seam (parallel::MpiSceneExchange) and of its parts
// (parallel::MpiSceneParts); doc/parallel.md, "nsdyn run under mpirun". Built only with
// NSDYN_MPI; without mpirun the same loop runs on one process.
#include <mpi.h>

#include <cstdio>
#include <memory>
#include <string>

#include <nsdyn/Error.hpp>
#include <nsdyn/io/Writers.hpp>
#include <nsdyn/io/XmlLoader.hpp>
#include <nsdyn/parallel/Collective.hpp>
#include <nsdyn/parallel/MpiSceneExchange.hpp>
#include <nsdyn/parallel/MpiSceneParts.hpp>

#include "commands.hpp"
#include "exit_status.hpp"
#include "run_support.hpp"

namespace nsdyn::cli {

namespace {

// One failure class per exit status, decided the same on every rank.
struct RunError : nsdyn::Error {
  RunError(int status, const std::string& what) : nsdyn::Error(what), exitStatus(status) {}
  int exitStatus;
};

// Every rank throws RunError(@p status) when @p fault is set on any rank.
void agree(MPI_Comm comm, const std::string& fault, int status) {
  try {
    parallel::throwIfAnyFault(comm, fault);
  } catch (const nsdyn::Error& e) {
    throw RunError(status, e.what());
  }
}

int run(RunArgs a, MPI_Comm comm, int rank) {
  // 1. every rank loads the model file (generators are deterministic: the same bodies on
  //    every rank); the engine keeps each rank's part at its first step
  std::string fault;
  int faultStatus = kExitBadInput;
  std::unique_ptr<io::LoadedModel> model;
  try {
    model = io::XmlLoader().loadFile(a.model);
    const io::LoadedModel& m = *model;
    if (!m.scene) {
      fault = a.model +
              ": no <scene>; mpirun runs a model's <scene> over the ranks (run other models "
              "without mpirun)";
    } else if (!a.dumpSteps.empty() || a.forceRestart ||
               a.checkpointFormat != io::ArchiveFormat::Binary) {
      fault = "--dump-problems, --force-restart and --checkpoint-format are single-process options";
      faultStatus = kExitUsage;
    } else if (m.steps > a.maxSteps) {
      fault = a.model + ": " + std::to_string(m.steps) + " time steps: expected at most " +
              std::to_string(a.maxSteps) + "; --max-steps N raises the cap";
    }
  } catch (const std::exception& e) {
    fault = e.what();
  }
  int mine = fault.empty() ? 0 : faultStatus, status = 0;
  MPI_Allreduce(&mine, &status, 1, MPI_INT, MPI_MAX, comm);
  agree(comm, fault, status);
  io::LoadedModel& m = *model;
  if (!a.onFailureGiven) a.stopOnFailure = m.stopOnFailure;

  // 2. output folder (rank 0 creates it; every rank learns the outcome)
  fault.clear();
  if (rank == 0 && !checkOutputDir(a.outputDir))
    fault = "--output " + a.outputDir + ": not a writable folder";
  agree(comm, fault, kExitIo);

  // 3. the one run loop over the ranks
  parallel::MpiSceneExchangeOptions options;
  options.rebalanceEvery = static_cast<int>(a.rebalanceEvery);
  std::shared_ptr<parallel::MpiSceneExchange> exchange;
  fault.clear();
  try {
    exchange = std::make_shared<parallel::MpiSceneExchange>(comm, options);
  } catch (const std::exception& e) {
    fault = e.what();
  }
  agree(comm, fault, kExitUsage);
  parallel::MpiSceneParts parts(*exchange);
  return runScene(a, m, parts, exchange);
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
    status = run(a, MPI_COMM_WORLD, rank);
    (void)size;
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
