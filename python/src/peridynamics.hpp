// Shared declarations of the nsdyn.peridynamics bindings (peridynamics.cpp: materials, bodies
// and generators; peridynamics_run.cpp: free steps, PeridynamicSimulation, the scene system,
// the VTK and HDF5 writers).
#ifndef NSDYN_PYTHON_PERIDYNAMICS_HPP
#define NSDYN_PYTHON_PERIDYNAMICS_HPP

#include <memory>
#include <string>

#include <nsdyn/PeridynamicBody.hpp>
#include <nsdyn/PeridynamicStepper.hpp>

#include "bindings.hpp"

namespace nsdpy {

/// The body held by a Python nsdyn.peridynamics.Body (TypeError naming @p arg otherwise).
std::shared_ptr<nsdyn::PeridynamicBody> peridynamicBody(py::handle obj, const std::string& arg);

/// True or False (TypeError naming @p arg for anything else, 1 included).
bool toFlag(py::handle obj, const std::string& arg);

/// The step options of the keywords tolerance, iterations, line_search, accelerate, threads
/// (h, theta, gravity are set by the caller), each named in its refusal (@p who: the function).
nsdyn::PeridynamicStepOptions stepOptions(const std::string& who, py::handle tolerance,
                                          py::handle iterations, py::handle lineSearch,
                                          py::handle accelerate, py::handle threads);

/// A stepper's report as a dict (status, converged, iterations, residual, energy_start,
/// energy_end, monotone, seconds, bond_updates, stable_step).
py::dict stepReportDict(const nsdyn::PeridynamicStepReport& r);

/// peridynamics_run.cpp: free_step, stable_step, Simulation, SceneSystem (and the SceneEngine /
/// Scene methods that add one), VtkWriter, Hdf5Writer, read_hdf5. @p m is the top module (its
/// SceneEngine and Scene classes), @p pd the submodule nsdyn.peridynamics.
void initPeridynamicsRun(py::module_& m, py::module_& pd);

}  // namespace nsdpy

#endif
