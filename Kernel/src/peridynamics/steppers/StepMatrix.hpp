// The step matrix of a peridynamic body, H = c M + K(x) over its free points (K = −∂f/∂x from
// the material's tangent), assembled as the lower triangle of a symmetric CSC matrix and
// factored by CHOLMOD (the Numerics factor API): Newton's matrix (NewtonCholmod) and, with
// c = 1/(h²θ²), the body's response to contact impulses in a scene
// (PeridynamicSceneSystem: A = M + h²θ² K = h²θ² H).
#ifndef NSDYN_PERIDYNAMICS_STEPMATRIX_HPP
#define NSDYN_PERIDYNAMICS_STEPMATRIX_HPP

#include <cstddef>
#include <cstdint>
#include <vector>

struct NsdFactor;

namespace nsdyn {

class PeridynamicBody;

namespace peridynamics {

class StepMatrix {
 public:
  StepMatrix() = default;
  ~StepMatrix();
  StepMatrix(const StepMatrix&) = delete;
  StepMatrix& operator=(const StepMatrix&) = delete;

  /// Assembles H = c M + K(x) and factors it. The pattern holds every bond, broken ones
  /// included (as zeros), so the symbolic analysis is made once per body, bond list and
  /// prescribed set. A matrix that is not positive definite is shifted by a growing multiple
  /// of its diagonal until it factors; the shift is kept (one tenth of it tried first) for the
  /// next factor until resetShift(). @p threads: CHOLMOD's and the assembly's threads.
  /// Returns false when no factor was made (a failure of CHOLMOD other than indefiniteness).
  bool factor(const PeridynamicBody& body, const double* x, double c, int threads);
  /// The pattern of @p body made (or kept when its bonds and prescribed set are unchanged).
  void ensurePattern(const PeridynamicBody& body);
  /// b (3 per point of the body) ← H⁻¹ b on the free points; 0 at the prescribed points.
  bool solve(double* b);
  /// The free dofs (3 per free point) of the pattern made; 0: every point prescribed.
  int freeDofs() const { return colStart_.empty() ? 0 : static_cast<int>(colStart_.size()) - 1; }
  /// Directed bonds whose tangent the last factor evaluated.
  std::size_t bondUpdates() const { return bondUpdates_; }
  int analyses() const { return analyses_; }
  void resetShift() { shift_ = 0.0; }

 private:
  void buildPattern(const PeridynamicBody& body);
  const PeridynamicBody* patternBody_ = nullptr;
  std::size_t patternPoints_ = 0, patternBonds_ = 0;
  std::vector<std::uint8_t> patternFixed_;
  std::vector<int> freeIndex_, colStart_, rowIndex_, diagPos_;
  std::vector<double> values_, base_, K_, diag_, rhs_;
  NsdFactor* factor_ = nullptr;
  double shift_ = 0.0;
  int analyses_ = 0;
  std::size_t bondUpdates_ = 0;
};

}  // namespace peridynamics
}  // namespace nsdyn

#endif
