/// @file FrictionContact.hpp
/// @brief Frictional contact problem (2D or 3D) over the active contacts.
#ifndef NSDYN_KERNEL_FRICTIONCONTACT_HPP
#define NSDYN_KERNEL_FRICTIONCONTACT_HPP

#include <memory>
#include <string>
#include <vector>

#include "nsdyn/KernelExport.hpp"
#include "nsdyn/OneStepNSProblem.hpp"

namespace nsdyn {

/// Local friction-contact problem u = M λ + q with Coulomb's law per
/// contact (NewtonImpactFrictionNSL relations of dimension dim, normal row
/// first, μ from the law). Default solver "nsgs" for dim = 2 (FC2D NSGS,
/// tolerance 1e-4, 1000 iterations, as Siconos) and "auto" for dim = 3 (Numerics
/// picks by size and tolerance — newton_ac below 3,000 contacts or at tight
/// tolerances, nsgs above — and falls back on failure; StepStatistics::solver
/// then reads "auto:NAME"); any name of Numerics' fc2d/fc3d table is accepted.
///
/// Detected contacts (a ContactManager's ContactSet, dimension 3 only): the
/// problem over the active contacts is u = J M⁻¹ Jᵀ λ + q with q = J v_free
/// (+ e u_n,k on the normal rows), J the contacts' 3×6 blocks per body and M⁻¹
/// the inverse iteration matrix of each body (6×6, from its integrator). With
/// "apgd" the operator is handed to Numerics factored (nsd_delassus_factored,
/// nsd_fc3d_apgd_operator: W is never assembled); the other solvers get W
/// assembled sparse-block (one 3×3 block per pair of contacts sharing a body).
/// The friction error reported is the Siconos FC3D error in both cases.
class NSDYN_KERNEL_API FrictionContact : public OneStepNSProblem {
 public:
  /// @param dim 2 or 3 (nsdyn::Error otherwise)
  /// @param solverName empty: the default for @p dim
  explicit FrictionContact(int dim, std::string solverName = "");
  std::string className() const override { return "FrictionContact"; }
  NsdProblemKind numericsKind() const override { return dim_ == 2 ? NSD_KIND_FC2D : NSD_KIND_FC3D; }
  void checkRelation(const UnitaryRelation& ur) const override;
  int dim() const { return dim_; }

  /// FCLIB dump: the problem of each step in @p steps (step numbers k + 1, as
  /// StepStatistics::step) is written, before it is solved, to
  /// `directory/problem_NNNNNN.hdf5` (FCLIB local problem, W assembled; with
  /// Newton iterations, the last iteration's). `nsdyn solve FILE` replays it.
  /// nsdyn::Error naming the file if it cannot be written.
  void setProblemDump(std::string directory, std::vector<long> steps);
  /// Files written by the dump so far.
  const std::vector<std::string>& dumpedFiles() const { return dumped_; }

 protected:
  NsdStatus solve(NsdMatrixPtr M, const SiconosVector& q, const IndexSet& active, SiconosVector& z,
                  SiconosVector& w, NsdReport& report) override;
  StepStatistics computeContacts(ContactSet& contacts, double tk1) override;

 private:
  /// Writes @p problem when the current step is to be dumped.
  void dumpIfAsked(const NsdProblem& problem);
  int dim_;
  std::string dumpDirectory_;
  std::vector<long> dumpSteps_;
  std::vector<std::string> dumped_;
};

namespace SP {
using FrictionContact = std::shared_ptr<nsdyn::FrictionContact>;
}

}  // namespace nsdyn

#endif
