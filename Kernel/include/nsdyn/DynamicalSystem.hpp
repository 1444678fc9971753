/// @file DynamicalSystem.hpp
/// @brief Base class of every dynamical system.
#ifndef NSDYN_KERNEL_DYNAMICALSYSTEM_HPP
#define NSDYN_KERNEL_DYNAMICALSYSTEM_HPP

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "nsdyn/KernelExport.hpp"
#include "nsdyn/SiconosVector.hpp"
#include "nsdyn/SimpleMatrix.hpp"

namespace nsdyn {

/// Kind of a dynamical system (which integrators and relations fit it).
/// Used in messages and by EventDriven (Lagrangian systems only); integrators
/// and relations use the virtual operations below instead.
enum class DynamicalSystemKind {
  Lagrangian,  ///< second order, state (q, v), q̇ = v: LagrangianDS and derived
  NewtonEuler,  ///< rigid body, q ∈ ℝ⁷ (position, quaternion), twist v ∈ ℝ⁶: NewtonEulerDS
  FirstOrder  ///< first order, state x: FirstOrderLinearDS and derived
};

/// A dynamical system: a state, its value at the start of the current step
/// (the memory) and the nonsmooth input from the interactions.
///
/// Each system gets a number, unique in the process, in creation order
/// (used in messages and as a stable order in the Topology).
class NSDYN_KERNEL_API DynamicalSystem {
 public:
  virtual ~DynamicalSystem() = default;
  DynamicalSystem(const DynamicalSystem&) = delete;
  DynamicalSystem& operator=(const DynamicalSystem&) = delete;

  /// Unique number (creation order, from 0).
  int number() const { return number_; }
  /// Kind (Lagrangian or first order).
  virtual DynamicalSystemKind kind() const = 0;
  /// Class name, e.g. "LagrangianLinearTIDS".
  virtual std::string className() const = 0;
  /// "LagrangianLinearTIDS #0", or "NewtonEulerDS 'arm'" once setName("arm") gave it a name
  /// (the model file's), used by every message about the system.
  std::string name() const;
  /// The name of the system in messages (empty: its class and number).
  void setName(const std::string& name) { name_ = name; }

  /// Number of degrees of freedom: size of v (columns of relation Jacobians,
  /// rows of W) for mechanical systems (6 for a rigid body), of x for first order.
  virtual std::size_t dimension() const = 0;
  /// Size of the vector relations read (q: 7 for a rigid body; x for first order).
  virtual std::size_t positionSize() const { return dimension(); }
  /// The vector relations read: q (mechanical systems) or x (first order).
  virtual const SiconosVector& relationState() const = 0;
  /// Velocities read by mechanical relations (nsdyn::Error for systems without).
  virtual const SiconosVector& relationVelocity() const;
  /// Velocities at the start of the step (nsdyn::Error for systems without).
  virtual const SiconosVector& relationVelocityMemory() const;
  /// Add @p part (dimension() entries) to the nonsmooth input (p or r).
  virtual void addNonSmoothInput(const SiconosVector& part) = 0;
  /// Kinematic map T(q) at the current state (positionSize() × dimension()),
  /// q̇ = T(q) v; identity for q̇ = v.
  virtual SimpleMatrix kinematicMatrix() const { return SimpleMatrix::identity(dimension()); }
  /// Whether T(q) is the identity (relations then skip the product by T).
  virtual bool kinematicIsIdentity() const { return true; }
  /// The vectors a checkpoint saves and restores, in a fixed order.
  virtual std::vector<SiconosVector*> checkpointState() = 0;
  /// Siconos name for dimension().
  std::size_t getN() const { return dimension(); }

  /// Check the data (sizes of matrices and initial state); nsdyn::Error if inconsistent.
  virtual void checkConsistency() const = 0;
  /// Store the current state as the memory of the step start (called by nextStep()).
  virtual void swapInMemory() = 0;
  /// Set the nonsmooth input (p for Lagrangian, r for first order) to 0.
  virtual void resetNonSmoothInput() = 0;

  /// Whether the system's matrices (M, or A) are constant, so that an
  /// integrator may factorise its iteration matrix once.
  virtual bool isTimeInvariant() const = 0;

 protected:
  DynamicalSystem();

 private:
  int number_;
  std::string name_;
};

namespace SP {
using DynamicalSystem = std::shared_ptr<nsdyn::DynamicalSystem>;
}

}  // namespace nsdyn

#endif
