// `mpirun -np N nsdyn run MODEL.xml`: the model file's <scene> stepped over the ranks of
// MPI_COMM_WORLD by the one scene run loop (scene_run_command.cpp) with the MPI
// implementation of the scene engine's seam (parallel::MpiSceneExchange) and of its parts
// (parallel::MpiSceneParts); doc/parallel.md, "nsdyn run under mpirun". Built only with
// NSDYN_MPI; without mpirun the same loop runs on one process.
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <memory>
#include <streambuf>
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

// Drops what is written to it: the warnings of the ranks other than 0 (rank 0 prints them
// once, instead of one copy per rank, interleaved).
class Discard : public std::streambuf {
 protected:
  int overflow(int c) override { return traits_type::not_eof(c); }
  std::streamsize xsputn(const char*, std::streamsize n) override { return n; }
};

// std::cerr silenced on the ranks other than 0 while it lives (errors are agreed and printed
// by rank 0: parallel::reportError).
class QuietRank {
 public:
  explicit QuietRank(int rank) : saved_(rank != 0 ? std::cerr.rdbuf(&discard_) : nullptr) {}
  ~QuietRank() {
    if (saved_) std::cerr.rdbuf(saved_);
  }
  QuietRank(const QuietRank&) = delete;
  QuietRank& operator=(const QuietRank&) = delete;

 private:
  Discard discard_;
  std::streambuf* saved_;
};

int run(RunArgs a, MPI_Comm comm, int rank, int size) {
  // 1. every rank loads the model file (generators are deterministic: the same bodies on
  //    every rank); the engine keeps each rank's part at its first step
  std::string fault;
  int faultStatus = kExitBadInput;
  std::unique_ptr<io::LoadedModel> model;
  try {
    {
      QuietRank quiet(rank);  // the model's warnings (overlaps at t0, ...) once, by rank 0
      io::XmlLoader loader;
      loader.setParameterOverrides(a.overrides);
      model = loader.loadFile(a.model);
    }
    const io::LoadedModel& m = *model;
    if (!m.scene) {
      fault = a.model +
              ": no <scene>; mpirun runs a model's <scene> over the ranks (run other models "
              "without mpirun)";
    } else if (!a.dumpSteps.empty() || a.forceRestart ||
               a.checkpointFormat != io::ArchiveFormat::Binary) {
      fault = "--dump-problems, --force-restart and --checkpoint-format are single-process options";
      faultStatus = kExitUsage;
    } else if (const long dynamic = static_cast<long>(std::count_if(
                   m.scene->contacts->bodies().begin(), m.scene->contacts->bodies().end(),
                   [](const BodyShapes& b) { return !b.isStatic(); }));
               dynamic < size) {
      // every rank owns at least one dynamic body: a rank count for this model, a usage error
      fault = a.model + ": " + std::to_string(dynamic) + " dynamic bodies for " +
              std::to_string(size) + " ranks (fewer bodies than ranks: every rank must own at " +
              "least one; run with mpirun -np " + std::to_string(std::max(1L, dynamic)) +
              " or fewer)";
      faultStatus = kExitUsage;
    } else if (m.steps > a.maxSteps) {
      fault = a.model + ": " + std::to_string(m.steps) + " time steps: expected at most " +
              std::to_string(a.maxSteps) + "; --max-steps N raises the cap";
    }
  } catch (const io::UnknownParameterError& e) {
    fault = std::string("--set: ") + e.what();  // a usage error, as without mpirun
    faultStatus = kExitUsage;
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
  if (rank == 0) printOverrides(m);

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
