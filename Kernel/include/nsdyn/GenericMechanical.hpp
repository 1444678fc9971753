/// @file GenericMechanical.hpp
/// @brief Joints, unilateral rows, friction contacts, motors and detected contacts
///        in one nonsmooth problem (Siconos's GenericMechanical), solved by the
///        Numerics GMP solvers.
#ifndef NSDYN_KERNEL_GENERICMECHANICAL_HPP
#define NSDYN_KERNEL_GENERICMECHANICAL_HPP

#include <memory>
#include <string>
#include <vector>

#include "nsdyn/KernelExport.hpp"
#include "nsdyn/OneStepNSProblem.hpp"
#include "nsdyn/nsd_gmp.h"

namespace nsdyn {

/// One W and one q over, in this order:
///  - the active unitary relations of the Interactions, in index-set order, one GMP
///    block each (the consecutive rows of one EqualityConditionNSL interaction form one
///    equality block, so that NSGS solves a joint exactly): EqualityConditionNSL →
///    equality rows; NewtonImpactNSL and ComplementarityConditionNSL → LCP rows;
///    NewtonImpactFrictionNSL(dim 2 or 3) → a FC2D/FC3D cone; RelayNSL → relay rows with
///    the law's bounds (impulses), and a motor (JointAxisR::motor) → a relay row with the
///    bounds ±maxForce·h and q = H v_free − target(t_{k+1});
///  - the active contacts of a ContactManager (FC3D cones, q = J v_free + e u_n,k + bias,
///    as FrictionContact(3)),
/// with every coupling block through a shared body (H_a W⁻¹ H_bᵀ, H_a W⁻¹ J_cᵀ, J_c W⁻¹ J_dᵀ).
/// W is sparse-block (dense with setMatrixStorage(Dense), which fills lastMatrix()).
/// Solvers: Numerics' GMP table, "newton" (default: global semismooth Newton), "nsgs"
/// (Gauss–Seidel over the blocks) or "admm" (ADMM, the equality rows free); options as the other
/// problems (tolerance 1e-8 on the Siconos GMP error). λ goes back to each Interaction (level 1)
/// and to the contacts' impulses. With only equality/LCP rows the answer is the MLCP's; with only
/// contacts, FrictionContact(3)'s (both to the solvers' tolerance).
class NSDYN_KERNEL_API GenericMechanical : public OneStepNSProblem {
 public:
  explicit GenericMechanical(std::string solverName = "newton");
  std::string className() const override { return "GenericMechanical"; }
  NsdProblemKind numericsKind() const override { return NSD_KIND_GMP; }
  /// Equality, Newton impact, complementarity, friction (dim 2, 3) and relay laws;
  /// nsdyn::Error naming the interaction otherwise.
  void checkRelation(const UnitaryRelation& ur) const override;
  StepStatistics compute(const Topology& topology, const IndexSet& active, double tk1,
                         ContactSet* contacts = nullptr) override;
  /// Time step h of the last compute() (0 before).
  double timeStep() const { return h_; }
  /// The reaction of @p inter over the last step, λ/h: per row a force (N) or a torque
  /// (N·m) — a joint's reaction in its rows, a motor's torque (force) on its axis; Hᵀλ/h
  /// as a wrench per body is inter.contactForce(t) / h. nsdyn::Error before a step.
  SiconosVector reaction(const Interaction& inter) const;

 protected:
  NsdStatus solve(NsdMatrixPtr M, const SiconosVector& q, const IndexSet& active, SiconosVector& z,
                  SiconosVector& w, NsdReport& report) override;

 private:
  std::vector<NsdGmpBlock> blocks_;    // the GMP blocks of the last assembly
  std::vector<double> lower_, upper_;  // bounds of its relay rows
  double h_ = 0.0;
};

namespace SP {
using GenericMechanical = std::shared_ptr<nsdyn::GenericMechanical>;
}

}  // namespace nsdyn

#endif
