// The results of `nsdyn run` (one process): the output folder checked before the first
// step, the tables (CSV or HDF5), their plots and the VTK frames of <vtk> bodies.
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>

#include <nsdyn/Error.hpp>
#include <nsdyn/GenericMechanical.hpp>
#include <nsdyn/RollingFrictionContact.hpp>
#include <nsdyn/io/Writers.hpp>

#include "exit_status.hpp"
#include "run_support.hpp"

namespace nsdyn::cli {

namespace {
// The result files: HDF5 or CSV tables, plots, VTK frames.
int writeResultFiles(const RunArgs& a, const io::LoadedModel& run, const io::Recorder& recorder) {
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
                    table.rowCount());
      if (a.plot) {
        const std::string png = io::joinPath(a.outputDir, table.name + ".png");
        const bool ok = io::plotPng(spec.outputs[o], csvPath, png);
        std::printf("  plot:                    %s\n",
                    ok ? png.c_str() : "not drawn (is gnuplot installed?)");
      }
      if (!csv) std::remove(csvPath.c_str());
    }
    // a scene on the scene engine writes its VTK (bodies with shapes, contacts) during the
    // run; a scene with joints in one GenericMechanical problem runs on the Kernel's
    // TimeStepping: its <vtk> bodies' frames are written here, as for a model without a scene
    const bool sceneEngine = run.scene &&
                             !std::dynamic_pointer_cast<GenericMechanical>(
                                 run.simulation ? run.simulation->oneStepNSProblem() : nullptr) &&
                             !std::dynamic_pointer_cast<RollingFrictionContact>(
                                 run.simulation ? run.simulation->oneStepNSProblem() : nullptr);
    if (a.vtk && sceneEngine) {
      // written during the run
    } else if (a.vtk && run.scene && spec.vtk.bodies.empty()) {
      std::printf(
          "  vtk:                     nothing written (a <scene> with joints: list its bodies "
          "in <vtk>)\n");
    } else if (a.vtkNoBodies || (a.vtk && spec.vtk.bodies.empty())) {
      std::printf("  vtk:                     nothing written (no bodies in the model)\n");
    } else if (a.vtk) {
      const std::string pvd = io::writeVtk(recorder.frames(), spec.vtk, a.outputDir, run.name,
                                           recorder.frameSpoolPath(), recorder.spooledFrames());
      std::printf("  vtk:                     %s (%zu frames, %zu bodies)\n", pvd.c_str(),
                  recorder.frameCount(), spec.vtk.bodies.size());
    }
  } catch (const nsdyn::Error& e) {
    std::fprintf(stderr, "nsdyn run: %s\n", e.what());
    return kExitIo;
  }
  return kExitOk;
}

}  // namespace

// Write the results: HDF5 or CSV tables, plots, VTK frames (each from its spool file
// and the rows in memory), then remove the spool files: the run is over.
int writeResults(const RunArgs& a, const io::LoadedModel& run, io::Recorder& recorder,
                 bool removeSpool) {
  const int status = writeResultFiles(a, run, recorder);
  // results that could not be written: a checkpoint names the spool files, they stay for
  // a restart from it
  const bool checkpoints = a.checkpointEvery > 0 || !a.restart.empty();
  if (removeSpool && (status == kExitOk || !checkpoints)) recorder.removeSpool();
  return status;
}

// The output folder: created, a folder, and writable, checked before the first step
// (a results folder that is a file must not cost a whole run).
bool checkOutputDir(const std::string& dir) {
  try {
    io::makeDirectories(dir);
  } catch (const nsdyn::Error& e) {
    std::fprintf(stderr, "nsdyn run: --output %s: %s\n", dir.c_str(), e.what());
    return false;
  }
  struct stat st {};
  if (::stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
    std::fprintf(stderr, "nsdyn run: --output %s: expected a folder, found %s\n", dir.c_str(),
                 ::stat(dir.c_str(), &st) != 0 ? std::strerror(errno) : "a file");
    return false;
  }
  if (::access(dir.c_str(), W_OK | X_OK) != 0) {
    std::fprintf(stderr, "nsdyn run: --output %s: expected a writable folder, found %s\n",
                 dir.c_str(), std::strerror(errno));
    return false;
  }
  return true;
}

}  // namespace nsdyn::cli
