/// @file NewtonEuler1DR.hpp
/// @brief User point contact between one or two rigid bodies, normal row only.
#ifndef NSDYN_KERNEL_NEWTONEULER1DR_HPP
#define NSDYN_KERNEL_NEWTONEULER1DR_HPP

#include <array>
#include <functional>
#include <memory>

#include "nsdyn/KernelExport.hpp"
#include "nsdyn/NewtonEulerR.hpp"

namespace nsdyn {

/// Point contact whose geometry the user computes (MECHANICS.md §0.6): y = (gap).
///
/// Give the geometry either by deriving and overriding computeGap() or by
/// passing a GapFunction of the same signature. The function returns the gap
/// and sets, in the world frame, the normal N (normalised here; zero refused),
/// the contact point Pc1 and, for two bodies, Pc2 (nsdyn::Error naming the
/// relation if one is missing). computeh() calls it and stores the geometry;
/// the Jacobians use the geometry of the last computeh() (computed at q first
/// if there is none yet) and the current centres of mass G_i from q:
/// * H (velocity): body i (s_1 = +1, s_2 = −1) translational block s_i·Rc,
///   rotational block s_i·Rc·skew(G_i − Pc1)·R(q_i), Rc = the first rows of the
///   local frame [N; t1; t2] (localFrameOf); both bodies use Pc1.
/// * jachq (position; only row 0 non-zero): translational s_i·N, quaternion part
///   with GP = (0, P_i − G_i) (P_1 = Pc1, P_2 = Pc2), Q = q_i[3:7]:
///   column q0 s_i·N·vec(GP⊗Q + Q*⊗GP − 2q0·GP), column q_j
///   s_i·N·vec(e_j⊗Q*⊗GP − GP⊗Q⊗e_j − 2q_j·GP). This is the exact derivative of
///   N·P for a point P fixed on the body when the rotation is taken as R(q)/|q|²,
///   at unit quaternions.
/// Law size 1; 7 or 14 position coordinates.
class NSDYN_KERNEL_API NewtonEuler1DR : public NewtonEulerR {
 public:
  /// Contact geometry in the world frame (3 entries each; Pc2 for two bodies only).
  struct Geometry {
    SiconosVector N;
    SiconosVector Pc1;
    SiconosVector Pc2;
  };
  /// gap(q, t, g): returns the gap, sets g.N, g.Pc1 (and g.Pc2). @p g holds the
  /// values of the previous call (empty vectors at the first call).
  using GapFunction = std::function<double(const SiconosVector& q, double t, Geometry& g)>;

  /// Contact of the geometry @p gap; nsdyn::Error if it is empty.
  explicit NewtonEuler1DR(GapFunction gap);

  std::string className() const override { return "NewtonEuler1DR"; }
  void checkSizes(std::size_t interactionSize, std::size_t dof,
                  const std::string& owner) const override;

  /// y = (gap) (NewtonEuler3DR: (gap, 0, 0)); stores the geometry.
  SiconosVector computeh(const SiconosVector& q, double t) const override;
  SimpleMatrix computeJacobianQ(const SiconosVector& q, double t) const override;
  /// H from the stored geometry (the arguments @p jachq and @p T are not used).
  SimpleMatrix computeJacobianV(const SiconosVector& q, const SimpleMatrix& jachq,
                                const SimpleMatrix& T, double t) const override;

  /// The user geometry: the GapFunction given at construction (override it in a derived class).
  virtual double computeGap(const SiconosVector& q, double t, Geometry& g) const;

  // ---- last geometry (of the last computeh) ----------------------------------
  /// Whether computeh() has stored a geometry.
  bool hasGeometry() const { return hasGeometry_; }
  double gap() const { return gap_; }
  /// Unit normal N, contact points Pc1 and Pc2 (Pc2 empty for one body), world frame.
  SiconosVector normal() const;
  SiconosVector contactPoint1() const;
  SiconosVector contactPoint2() const;
  /// Local frame: rows N, t1, t2 (3×3) of the last normal.
  SimpleMatrix localFrame() const;
  /// Rows (N; t1; t2) of the orthonormal frame of the unit normal @p N (Siconos
  /// orthoBaseFromVector): s = sign(nz) (+1 for 0), a = −1/(s + nz), b = nx·ny·a,
  /// t1 = (1 + s·nx²·a, s·b, −s·nx), t2 = (b, s + ny²·a, −ny). @p N is normalised first.
  static SimpleMatrix localFrameOf(const SiconosVector& N);

 protected:
  /// For derived classes overriding computeGap().
  NewtonEuler1DR() = default;
  /// Rows of y and H: 1 (normal) or 3 (normal and two tangents).
  NewtonEuler1DR(GapFunction gap, std::size_t rows);
  std::size_t rows() const { return rows_; }
  void setRows(std::size_t rows) { rows_ = rows; }

 private:
  void refreshGeometry(const SiconosVector& q, double t) const;

  GapFunction gapFunction_;
  std::size_t rows_ = 1;
  mutable bool hasGeometry_ = false;
  mutable bool hasPc2_ = false;
  mutable double gap_ = 0.0;
  mutable std::array<double, 3> N_{}, Pc1_{}, Pc2_{};
};

namespace SP {
using NewtonEuler1DR = std::shared_ptr<nsdyn::NewtonEuler1DR>;
}

}  // namespace nsdyn

#endif
