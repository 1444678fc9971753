// FrictionContact: Coulomb friction contacts, solved by a Numerics fc2d/fc3d solver.
#include "nsdyn/FrictionContact.hpp"

#include <algorithm>
#include <cstdio>
#include <vector>

#include "nsdyn/nsd_io.h"

#include "nsdyn/Error.hpp"
#include "nsdyn/NewtonImpactFrictionNSL.hpp"
#include "nsdyn/nsd_solvers.h"

namespace nsdyn {

namespace {
/// FC2D NSGS defaults of Siconos: tolerance 1e-4, 1000 iterations.
constexpr double kFc2dTolerance = 1e-4;
constexpr int kFc2dMaxIterations = 1000;

int checkedDim(int dim) {
  if (dim != 2 && dim != 3) throw Error("FrictionContact", "dimension 2 or 3", std::to_string(dim));
  return dim;
}
}  // namespace

FrictionContact::FrictionContact(int dim, std::string solverName)
    : OneStepNSProblem(solverName.empty() ? (checkedDim(dim) == 2 ? "nsgs" : "auto")
                                          : std::move(solverName)),
      dim_(checkedDim(dim)) {
  if (dim_ == 2) {
    options_.tolerance = kFc2dTolerance;
    options_.max_iterations = kFc2dMaxIterations;
  }
}

void FrictionContact::checkRelation(const UnitaryRelation& ur) const {
  const NonSmoothLaw& law = ur.interaction().nonSmoothLaw();
  if (law.kind() != NonSmoothLawKind::NewtonImpactFriction)
    throw Error("FrictionContact(" + std::to_string(dim_) + ")",
                "NewtonImpactFrictionNSL relations", ur.interaction().name());
  if (law.size() != static_cast<std::size_t>(dim_))
    throw Error("FrictionContact(" + std::to_string(dim_) + ")",
                "laws of dimension " + std::to_string(dim_),
                ur.interaction().name() + " of dimension " + std::to_string(law.size()));
}

void FrictionContact::setProblemDump(std::string directory, std::vector<long> steps) {
  for (long s : steps)
    if (s < 1)
      throw Error("FrictionContact::setProblemDump", "step numbers >= 1", std::to_string(s));
  std::sort(steps.begin(), steps.end());
  dumpDirectory_ = std::move(directory);
  dumpSteps_ = std::move(steps);
}

void FrictionContact::dumpIfAsked(const NsdProblem& problem) {
  if (dumpSteps_.empty() || !std::binary_search(dumpSteps_.begin(), dumpSteps_.end(), step_))
    return;
  char name[64];
  std::snprintf(name, sizeof name, "problem_%06ld.hdf5", step_);
  const std::string path = dumpDirectory_.empty() ? std::string(name) : dumpDirectory_ + "/" + name;
  char title[96];
  std::snprintf(title, sizeof title, "nsdyn FrictionContact(%d), step %ld", dim_, step_);
  NsdReport report{};
  if (nsd_write_fclib(path.c_str(), &problem, title,
                      "written by nsdyn (FrictionContact::setProblemDump)", &report) != NSD_OK)
    throw Error("FrictionContact problem dump", "a writable FCLIB file",
                path + ": " + report.message);
  if (std::find(dumped_.begin(), dumped_.end(), path) == dumped_.end()) dumped_.push_back(path);
}

NsdStatus FrictionContact::solve(NsdMatrixPtr M, const SiconosVector& q, const IndexSet& active,
                                 SiconosVector& z, SiconosVector& w, NsdReport& report) {
  std::vector<double> mu;
  for (const auto& ur : active)
    mu.push_back(
        static_cast<const NewtonImpactFrictionNSL&>(ur->interaction().nonSmoothLaw()).mu());
  NsdProblem problem{};
  problem.kind = dim_ == 2 ? NSD_KIND_FC2D : NSD_KIND_FC3D;
  problem.fc = nsd_fc_create(dim_, static_cast<int>(mu.size()), M.release(), q.data(), mu.data());
  if (!problem.fc)
    return nsd_report_fail(&report, NSD_FAILED, "friction problem of %zu contacts: out of memory",
                           mu.size());
  dumpIfAsked(problem);
  NsdSolverOptions options = options_;
  options.warm_start = passWarmStart() ? 1 : 0;
  const NsdStatus status = solveNumerics(problem, z.data(), w.data(), options, report);
  nsd_problem_clear(&problem);
  return status;
}

}  // namespace nsdyn
