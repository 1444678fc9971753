/// @file NonSmoothLaw.hpp
/// @brief Base class of nonsmooth laws (the relation between y and λ).
#ifndef NSDYN_KERNEL_NONSMOOTHLAW_HPP
#define NSDYN_KERNEL_NONSMOOTHLAW_HPP

#include <cstddef>
#include <memory>
#include <string>

#include "nsdyn/KernelExport.hpp"

namespace nsdyn {

/// Kind of a nonsmooth law (decides which OneStepNSProblem accepts it).
enum class NonSmoothLawKind {
  NewtonImpact,          ///< unilateral contact + Newton restitution (LCP)
  NewtonImpactFriction,  ///< contact + Coulomb friction + restitution (FrictionContact)
  Complementarity,       ///< 0 ≤ y ⊥ λ ≥ 0 (LCP, MLCP)
  Equality,              ///< y = 0, λ free (MLCP)
  MixedComplementarity,  ///< n_eq equalities then n_comp complementarities (MLCP)
  Relay                  ///< −y ∈ N_[lb,ub](λ) (Relay)
};

/// A nonsmooth law of a given size (number of rows of y and λ).
class NSDYN_KERNEL_API NonSmoothLaw {
 public:
  virtual ~NonSmoothLaw() = default;
  virtual NonSmoothLawKind kind() const = 0;
  /// Class name, e.g. "NewtonImpactNSL".
  virtual std::string className() const = 0;
  /// Number of rows of y and λ.
  std::size_t size() const { return size_; }
  /// Rows of one UnitaryRelation: the smallest block the law can be cut into
  /// (1 for row-wise laws, the contact dimension for friction).
  virtual std::size_t unitaryBlockSize() const { return 1; }
  /// True for the impact laws, whose rows become active by the predicted gap
  /// (y + h/2 ẏ ≤ 0 on the normal row) in time-stepping.
  virtual bool isImpactLaw() const { return false; }
  /// For the velocity-level problem: restitution coefficient of row @p row
  /// of a unitary block (0 for laws without restitution).
  virtual double restitution(std::size_t /*row*/) const { return 0.0; }

 protected:
  explicit NonSmoothLaw(std::size_t size) : size_(size) {}

 private:
  std::size_t size_;
};

namespace SP {
using NonSmoothLaw = std::shared_ptr<nsdyn::NonSmoothLaw>;
}

}  // namespace nsdyn

#endif
