// Rigid-body relations (Kernel/src/mechanics): NewtonEulerR, the user point
// contacts NewtonEuler1DR / NewtonEuler3DR and the joints KneeJointR,
// PrismaticJointR, PivotJointR, FixedJointR (MECHANICS.md §0.6, §1, §3b, §4, §5).
#include <cppunit/extensions/HelperMacros.h>

#include <cmath>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include <nsdyn/EqualityConditionNSL.hpp>
#include <nsdyn/Error.hpp>
#include <nsdyn/FixedJointR.hpp>
#include <nsdyn/Interaction.hpp>
#include <nsdyn/KneeJointR.hpp>
#include <nsdyn/NewtonEuler1DR.hpp>
#include <nsdyn/NewtonEuler3DR.hpp>
#include <nsdyn/NewtonEulerDS.hpp>
#include <nsdyn/NewtonEulerR.hpp>
#include <nsdyn/NewtonImpactFrictionNSL.hpp>
#include <nsdyn/NewtonImpactNSL.hpp>
#include <nsdyn/PivotJointR.hpp>
#include <nsdyn/PrismaticJointR.hpp>
#include <nsdyn/Quaternion.hpp>

using namespace nsdyn;
namespace qn = nsdyn::quaternion;

namespace {

const double kPi = 3.14159265358979323846;

// ---- configurations -------------------------------------------------------------

std::mt19937& rng() {
  static std::mt19937 g(20240611u);
  return g;
}
double uniform(double a, double b) {
  return std::uniform_real_distribution<double>(a, b)(rng());
}

qn::Quat randomUnitQuat() {
  qn::Quat q{uniform(-1, 1), uniform(-1, 1), uniform(-1, 1), uniform(-1, 1)};
  return qn::normalized(q);
}

// A body's 7-vector with a random position and a random unit quaternion.
SiconosVector randomBodyQ() {
  const qn::Quat r = randomUnitQuat();
  return SiconosVector{uniform(-2, 2), uniform(-2, 2), uniform(-2, 2), r[0], r[1], r[2], r[3]};
}

// A random 7-vector whose quaternion is not normalised (|Q| in [0.8, 1.2]).
SiconosVector randomNonUnitQ() {
  SiconosVector q = randomBodyQ();
  const double s = uniform(0.8, 1.2);
  for (std::size_t i = 3; i < 7; ++i) q(i) *= s;
  return q;
}

SP::NewtonEulerDS body(const SiconosVector& q) {
  return std::make_shared<NewtonEulerDS>(q, SiconosVector(6), 1.0, SimpleMatrix::identity(3));
}

SiconosVector stateOf(const SP::NewtonEulerDS& b1, const SP::NewtonEulerDS& b2 = nullptr) {
  return b2 ? concatenate(b1->q(), b2->q()) : b1->q();
}

// q with body i moved by the rigid motion x ↦ R(rot)(x − O) + O + d: G ↦ R(G − O) + O + d, Q ↦ rot
// ⊗ Q.
void moveBody(SiconosVector& q, std::size_t i, const qn::Quat& rot, const qn::Vec3& O,
              const qn::Vec3& d) {
  const qn::Vec3 G = qn::vec3(q, 7 * i);
  const qn::Vec3 r = qn::rotate(rot, {G[0] - O[0], G[1] - O[1], G[2] - O[2]});
  const qn::Quat Q = qn::multiply(rot, qn::fromVector(q, 7 * i + 3));
  for (std::size_t k = 0; k < 3; ++k) q(7 * i + k) = r[k] + O[k] + d[k];
  for (std::size_t k = 0; k < 4; ++k) q(7 * i + 3 + k) = Q[k];
}

// ---- checks ----------------------------------------------------------------------

double maxAbs(const SiconosVector& v) {
  return v.size() ? v.normInf() : 0.0;
}

double maxDiff(const SimpleMatrix& a, const SimpleMatrix& b) {
  CPPUNIT_ASSERT_EQUAL(a.rows(), b.rows());
  CPPUNIT_ASSERT_EQUAL(a.cols(), b.cols());
  double d = 0.0;
  for (std::size_t i = 0; i < a.rows(); ++i)
    for (std::size_t j = 0; j < a.cols(); ++j) d = std::max(d, std::abs(a(i, j) - b(i, j)));
  return d;
}

// Central finite differences of h at q (step 1e-6).
SimpleMatrix finiteDifferenceJacobian(const LagrangianR& rel, const SiconosVector& q) {
  const double eps = 1e-6;
  const std::size_t ny = rel.computeh(q, 0.0).size();
  SimpleMatrix J(ny, q.size());
  for (std::size_t j = 0; j < q.size(); ++j) {
    SiconosVector qp = q, qm = q;
    qp(j) += eps;
    qm(j) -= eps;
    const SiconosVector d = (rel.computeh(qp, 0.0) - rel.computeh(qm, 0.0)) / (2.0 * eps);
    for (std::size_t i = 0; i < ny; ++i) J(i, j) = d(i);
  }
  return J;
}

// jachq at q (computed after h at q, as the Kernel does) against central finite differences.
void checkJacobianByFiniteDifferences(const LagrangianR& rel, const SiconosVector& q,
                                      const std::string& what) {
  rel.computeh(q, 0.0);
  const SimpleMatrix J = rel.computeJacobianQ(q, 0.0);
  const SimpleMatrix Jfd = finiteDifferenceJacobian(rel, q);
  const double d = maxDiff(J, Jfd);
  CPPUNIT_ASSERT_MESSAGE(what + ": |jachq - FD| = " + std::to_string(d), d < 1e-7);
}

// T = blockdiag(T(q1), T(q2)).
SimpleMatrix kinematics(const SiconosVector& q) {
  const std::size_t nb = q.size() / 7;
  SimpleMatrix T(7 * nb, 6 * nb);
  for (std::size_t i = 0; i < nb; ++i)
    T.setBlock(7 * i, 6 * i, NewtonEulerDS::kinematicMatrix(q.segment(7 * i, 7)));
  return T;
}

template <class F>
std::string errorMessage(F f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

bool contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

// Contact of points fixed on the bodies: P_i(q) = G_i + R(Q_i) p_i / |Q_i|² (p_i in the
// body frame), constant unit normal N, gap = N·(P_1 − P_2) − c (one body: N·P_1 − c).
// The formula of jachq (MECHANICS.md §0.6) is the exact derivative of this gap at unit Q.
struct FixedPointContact {
  qn::Vec3 N, p1, p2;
  double c;
  static qn::Vec3 point(const SiconosVector& q, std::size_t i, const qn::Vec3& p) {
    const qn::Quat Q = qn::fromVector(q, 7 * i + 3);
    const double n2 = Q[0] * Q[0] + Q[1] * Q[1] + Q[2] * Q[2] + Q[3] * Q[3];
    const qn::Vec3 r = qn::rotate(Q, p);
    const qn::Vec3 G = qn::vec3(q, 7 * i);
    return {G[0] + r[0] / n2, G[1] + r[1] / n2, G[2] + r[2] / n2};
  }
  double operator()(const SiconosVector& q, double, NewtonEuler1DR::Geometry& g) const {
    const qn::Vec3 P1 = point(q, 0, p1);
    g.N = SiconosVector{N[0], N[1], N[2]};
    g.Pc1 = SiconosVector{P1[0], P1[1], P1[2]};
    double gap = qn::dot(N, P1) - c;
    if (q.size() == 14) {
      const qn::Vec3 P2 = point(q, 1, p2);
      g.Pc2 = SiconosVector{P2[0], P2[1], P2[2]};
      gap -= qn::dot(N, P2);
    }
    return gap;
  }
};

// The ball of MECHANICS.md §1 as a derived class (computeGap overridden).
class BallOnPlaneX : public NewtonEuler3DR {
 public:
  explicit BallOnPlaneX(double radius) : radius_(radius) {}
  double computeGap(const SiconosVector& q, double, Geometry& g) const override {
    const double gap = std::abs(q(0)) - radius_;
    g.N = SiconosVector{1.0, 0.0, 0.0};
    g.Pc1 = SiconosVector{gap, q(1), q(2)};
    return gap;
  }

 private:
  double radius_;
};

}  // namespace

class RelationsTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(RelationsTest);
  CPPUNIT_TEST(newtonEulerRConstantFloor);
  CPPUNIT_TEST(newtonEulerRCallables);
  CPPUNIT_TEST(localFrameOfNormal);
  CPPUNIT_TEST(bouncingBallContactRows);
  CPPUNIT_TEST(contactJacobiansAgainstFiniteDifferences);
  CPPUNIT_TEST(contactVelocityJacobian);
  CPPUNIT_TEST(contactGeometryErrors);
  CPPUNIT_TEST(kneeZeroAtConstructionAndFormula);
  CPPUNIT_TEST(kneeJacobiansAgainstFiniteDifferences);
  CPPUNIT_TEST(prismaticExample4);
  CPPUNIT_TEST(prismaticTestExample5);
  CPPUNIT_TEST(prismaticTwoBodies);
  CPPUNIT_TEST(pivotJoint);
  CPPUNIT_TEST(fixedJoint);
  CPPUNIT_TEST(jointsInvariantUnderRigidMotion);
  CPPUNIT_TEST(jointErrors);
  CPPUNIT_TEST(interactionWithJointAndContact);
  CPPUNIT_TEST_SUITE_END();

 public:
  // ---- NewtonEulerR ----------------------------------------------------------------

  void newtonEulerRConstantFloor() {
    // the floor of MECHANICS.md §4: y = z3 + 2.3
    NewtonEulerR floor(SimpleMatrix{{0, 0, 1, 0, 0, 0, 0}}, SiconosVector{2.3});
    CPPUNIT_ASSERT(floor.isConstant());
    CPPUNIT_ASSERT(!floor.isLinear());
    CPPUNIT_ASSERT_EQUAL(std::string("NewtonEulerR"), floor.className());
    const SiconosVector q{
        0.0, 0.0, -std::sqrt(2.0) - 0.5, std::cos(kPi / 4), 0.0, std::sin(kPi / 4), 0.0};
    CPPUNIT_ASSERT_DOUBLES_EQUAL(-std::sqrt(2.0) - 0.5 + 2.3, floor.computeh(q, 0.0)(0), 0.0);
    const SimpleMatrix J = floor.computeJacobianQ(q, 0.0);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, maxDiff(J, SimpleMatrix{{0, 0, 1, 0, 0, 0, 0}}), 0.0);
    // H = C T(q): the z velocity of the centre of mass
    const SimpleMatrix H = floor.computeJacobianV(q, J, kinematics(q), 0.0);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, maxDiff(H, SimpleMatrix{{0, 0, 1, 0, 0, 0}}), 0.0);
    checkJacobianByFiniteDifferences(floor, q, "NewtonEulerR(C, e)");
    // sizes
    floor.checkSizes(1, 7, "floor");
    CPPUNIT_ASSERT_THROW(floor.checkSizes(1, 14, "floor"), Error);
    CPPUNIT_ASSERT_THROW(floor.checkSizes(2, 7, "floor"), Error);
    CPPUNIT_ASSERT_THROW(NewtonEulerR(SimpleMatrix{{0, 0, 1, 0, 0, 0, 0}}, SiconosVector{1.0, 2.0}),
                         Error);
    // C alone: e = 0
    NewtonEulerR noOffset(SimpleMatrix{{1, 0, 0, 0, 0, 0, 0}});
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, noOffset.computeh(q, 0.0)(0), 0.0);
  }

  void newtonEulerRCallables() {
    // distance² between the two centres minus 1
    NewtonEulerR rel(
        [](const SiconosVector& q, double t) {
          double s = 0.0;
          for (std::size_t k = 0; k < 3; ++k) s += (q(7 + k) - q(k)) * (q(7 + k) - q(k));
          return SiconosVector{s - 1.0 + t};
        },
        [](const SiconosVector& q, double) {
          SimpleMatrix J(1, 14);
          for (std::size_t k = 0; k < 3; ++k) {
            J(0, k) = -2.0 * (q(7 + k) - q(k));
            J(0, 7 + k) = 2.0 * (q(7 + k) - q(k));
          }
          return J;
        });
    CPPUNIT_ASSERT(!rel.isConstant());
    const SiconosVector q = concatenate(randomBodyQ(), randomBodyQ());
    checkJacobianByFiniteDifferences(rel, q, "NewtonEulerR(h, jachq)");
    const SimpleMatrix J = rel.computeJacobianQ(q, 0.0);
    const SimpleMatrix T = kinematics(q);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, maxDiff(rel.computeJacobianV(q, J, T, 0.0), J * T), 0.0);
    CPPUNIT_ASSERT_THROW(
        NewtonEulerR(NewtonEulerR::OutputFunction(), NewtonEulerR::JacobianFunction()), Error);
  }

  // ---- contacts ------------------------------------------------------------------

  void localFrameOfNormal() {
    // N = (1,0,0): t1 = (0,0,-1), t2 = (0,1,0) (MECHANICS.md §0.6)
    const SimpleMatrix F = NewtonEuler1DR::localFrameOf(SiconosVector{1.0, 0.0, 0.0});
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, maxDiff(F, SimpleMatrix{{1, 0, 0}, {0, 0, -1}, {0, 1, 0}}),
                                 0.0);
    // orthonormal and right-handed for random normals, both signs of nz (and nz = 0)
    for (int k = 0; k < 20; ++k) {
      SiconosVector N{uniform(-1, 1), uniform(-1, 1), k == 0 ? 0.0 : uniform(-1, 1)};
      const SimpleMatrix R = NewtonEuler1DR::localFrameOf(N);
      const SimpleMatrix RRt = R * R.transpose();
      CPPUNIT_ASSERT(maxDiff(RRt, SimpleMatrix::identity(3)) < 1e-14);
      const qn::Vec3 n{R(0, 0), R(0, 1), R(0, 2)}, t1{R(1, 0), R(1, 1), R(1, 2)},
          t2{R(2, 0), R(2, 1), R(2, 2)};
      const qn::Vec3 c = qn::cross(t1, t2);
      for (std::size_t i = 0; i < 3; ++i) CPPUNIT_ASSERT_DOUBLES_EQUAL(n[i], c[i], 1e-14);
      CPPUNIT_ASSERT_DOUBLES_EQUAL(N(0) / N.norm2(), n[0], 1e-15);
    }
    CPPUNIT_ASSERT_THROW(NewtonEuler1DR::localFrameOf(SiconosVector{0.0, 0.0, 0.0}), Error);
  }

  void bouncingBallContactRows() {
    // MECHANICS.md §1: ball of radius 0.1 above the plane x = 0
    const double R = 0.1;
    const auto gap = [R](const SiconosVector& q, double, NewtonEuler1DR::Geometry& g) {
      const double y0 = std::abs(q(0)) - R;
      g.N = SiconosVector{1.0, 0.0, 0.0};
      g.Pc1 = SiconosVector{y0, q(1), q(2)};
      return y0;
    };
    const SimpleMatrix Hexpected{{1, 0, 0, 0, 0, 0}, {0, 0, -1, 0, -R, 0}, {0, 1, 0, 0, 0, -R}};
    const SimpleMatrix Jexpected{
        {1, 0, 0, 0, 0, 0, 0}, {0, 0, 0, 0, 0, 0, 0}, {0, 0, 0, 0, 0, 0, 0}};
    NewtonEuler3DR lambda(gap);
    BallOnPlaneX derived(R);
    for (const SiconosVector& q :
         {SiconosVector{1, 0, 0, 1, 0, 0, 0}, SiconosVector{0.0907603, 0.3, -0.7, 1, 0, 0, 0}}) {
      for (const NewtonEuler3DR* rel : {static_cast<const NewtonEuler3DR*>(&lambda),
                                        static_cast<const NewtonEuler3DR*>(&derived)}) {
        const SiconosVector y = rel->computeh(q, 0.0);
        CPPUNIT_ASSERT_EQUAL(std::size_t(3), y.size());
        CPPUNIT_ASSERT_DOUBLES_EQUAL(std::abs(q(0)) - R, y(0), 0.0);
        CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, y(1), 0.0);
        CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, y(2), 0.0);
        const SimpleMatrix J = rel->computeJacobianQ(q, 0.0);
        CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, maxDiff(J, Jexpected), 0.0);
        // (the lever arm G − Pc1 = x − (|x| − R) is R up to round-off)
        const SimpleMatrix H = rel->computeJacobianV(q, J, kinematics(q), 0.0);
        CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, maxDiff(H, Hexpected), 1e-15);
        // stored geometry
        CPPUNIT_ASSERT(rel->hasGeometry());
        CPPUNIT_ASSERT_DOUBLES_EQUAL(y(0), rel->gap(), 0.0);
        CPPUNIT_ASSERT_DOUBLES_EQUAL(1.0, rel->normal()(0), 0.0);
        CPPUNIT_ASSERT_DOUBLES_EQUAL(y(0), rel->contactPoint1()(0), 0.0);
        CPPUNIT_ASSERT_DOUBLES_EQUAL(q(1), rel->contactPoint1()(1), 0.0);
        CPPUNIT_ASSERT_EQUAL(std::size_t(0), rel->contactPoint2().size());
        CPPUNIT_ASSERT_DOUBLES_EQUAL(
            0.0, maxDiff(rel->localFrame(), SimpleMatrix{{1, 0, 0}, {0, 0, -1}, {0, 1, 0}}), 0.0);
      }
    }
    CPPUNIT_ASSERT_EQUAL(std::string("NewtonEuler3DR"), lambda.className());
    // the same contact with the normal row only
    NewtonEuler1DR normalOnly(gap);
    CPPUNIT_ASSERT_EQUAL(std::string("NewtonEuler1DR"), normalOnly.className());
    const SiconosVector q{1, 0, 0, 1, 0, 0, 0};
    CPPUNIT_ASSERT_EQUAL(std::size_t(1), normalOnly.computeh(q, 0.0).size());
    const SimpleMatrix J1 = normalOnly.computeJacobianQ(q, 0.0);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, maxDiff(J1, SimpleMatrix{{1, 0, 0, 0, 0, 0, 0}}), 0.0);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0,
                                 maxDiff(normalOnly.computeJacobianV(q, J1, kinematics(q), 0.0),
                                         SimpleMatrix{{1, 0, 0, 0, 0, 0}}),
                                 0.0);
    // law sizes: 3 for NewtonEuler3DR, 1 for NewtonEuler1DR
    lambda.checkSizes(3, 7, "ball");
    lambda.checkSizes(3, 14, "ball");
    normalOnly.checkSizes(1, 7, "ball");
    CPPUNIT_ASSERT(
        contains(errorMessage([&] { lambda.checkSizes(1, 7, "ball contact"); }), "law size 3"));
    CPPUNIT_ASSERT(contains(errorMessage([&] { normalOnly.checkSizes(3, 7, "ball contact"); }),
                            "ball contact"));
    CPPUNIT_ASSERT_THROW(lambda.checkSizes(3, 6, "ball"), Error);
  }

  void contactJacobiansAgainstFiniteDifferences() {
    // one and two bodies, random unit quaternions: jachq row 0 = ∂gap/∂q, rows 1, 2 = 0
    for (int trial = 0; trial < 10; ++trial) {
      FixedPointContact geo{{0, 0, 0},
                            {uniform(-1, 1), uniform(-1, 1), uniform(-1, 1)},
                            {uniform(-1, 1), uniform(-1, 1), uniform(-1, 1)},
                            uniform(-1, 1)};
      const qn::Quat n =
          qn::normalized(qn::Quat{0.0, uniform(-1, 1), uniform(-1, 1), uniform(-1, 1)});
      geo.N = {n[1], n[2], n[3]};
      NewtonEuler1DR c1(geo);
      NewtonEuler3DR c3(geo);
      const SiconosVector q1 = randomBodyQ(), q2 = concatenate(randomBodyQ(), randomBodyQ());
      checkJacobianByFiniteDifferences(c1, q1, "NewtonEuler1DR one body");
      checkJacobianByFiniteDifferences(c1, q2, "NewtonEuler1DR two bodies");
      checkJacobianByFiniteDifferences(c3, q1, "NewtonEuler3DR one body");
      checkJacobianByFiniteDifferences(c3, q2, "NewtonEuler3DR two bodies");
      CPPUNIT_ASSERT_EQUAL(std::size_t(3), c3.computeJacobianQ(q2, 0.0).rows());
      CPPUNIT_ASSERT_EQUAL(std::size_t(14), c3.computeJacobianQ(q2, 0.0).cols());
    }
  }

  void contactVelocityJacobian() {
    for (int trial = 0; trial < 10; ++trial) {
      FixedPointContact geo{
          {0, 0, 1}, {uniform(-1, 1), uniform(-1, 1), uniform(-1, 1)}, {0, 0, 0}, 0.0};
      const qn::Quat n =
          qn::normalized(qn::Quat{0.0, uniform(-1, 1), uniform(-1, 1), uniform(-1, 1)});
      geo.N = {n[1], n[2], n[3]};
      NewtonEuler3DR rel(geo);
      SiconosVector q = concatenate(randomBodyQ(), randomBodyQ());
      SiconosVector v(12);
      for (std::size_t k = 0; k < 12; ++k) v(k) = uniform(-1, 1);
      rel.computeh(q, 0.0);
      const SimpleMatrix J = rel.computeJacobianQ(q, 0.0);
      const SimpleMatrix H = rel.computeJacobianV(q, J, kinematics(q), 0.0);
      CPPUNIT_ASSERT_EQUAL(std::size_t(3), H.rows());
      CPPUNIT_ASSERT_EQUAL(std::size_t(12), H.cols());
      // H v = Rc (v1 + ω1 × (Pc1 − G1) − v2 − ω2 × (Pc1 − G2)), ω_i = R(q_i) Ω_i (both bodies at
      // Pc1)
      const qn::Vec3 Pc1 = qn::vec3(rel.contactPoint1());
      qn::Vec3 u{0, 0, 0};
      for (std::size_t i = 0; i < 2; ++i) {
        const double s = i == 0 ? 1.0 : -1.0;
        const qn::Vec3 G = qn::vec3(q, 7 * i);
        const qn::Vec3 w = qn::rotate(qn::fromVector(q, 7 * i + 3), qn::vec3(v, 6 * i + 3));
        const qn::Vec3 vp = qn::cross(w, {Pc1[0] - G[0], Pc1[1] - G[1], Pc1[2] - G[2]});
        for (std::size_t k = 0; k < 3; ++k) u[k] += s * (v(6 * i + k) + vp[k]);
      }
      const SimpleMatrix Rc = rel.localFrame();
      const SiconosVector Hv = H * v;
      for (std::size_t r = 0; r < 3; ++r)
        CPPUNIT_ASSERT_DOUBLES_EQUAL(Rc(r, 0) * u[0] + Rc(r, 1) * u[1] + Rc(r, 2) * u[2], Hv(r),
                                     1e-13);
      // row 0 of H is row 0 of jachq·T when Pc2 = Pc1 (the same material point), at unit
      // quaternions
      geo.p2 = {uniform(-1, 1), uniform(-1, 1), uniform(-1, 1)};
      // place body 2 so that its point p2 is at Pc1: G2 = Pc1 − R(Q2) p2
      const qn::Vec3 r2 = qn::rotate(qn::fromVector(q, 10), geo.p2);
      for (std::size_t k = 0; k < 3; ++k) q(7 + k) = Pc1[k] - r2[k];
      NewtonEuler1DR rel1(geo);
      rel1.computeh(q, 0.0);
      CPPUNIT_ASSERT(maxDiff(SimpleMatrix{{rel1.contactPoint1()(0), rel1.contactPoint1()(1),
                                           rel1.contactPoint1()(2)}},
                             SimpleMatrix{{rel1.contactPoint2()(0), rel1.contactPoint2()(1),
                                           rel1.contactPoint2()(2)}}) < 1e-14);
      const SimpleMatrix J1 = rel1.computeJacobianQ(q, 0.0);
      const SimpleMatrix JT = J1 * kinematics(q);
      const SimpleMatrix H1 = rel1.computeJacobianV(q, J1, kinematics(q), 0.0);
      CPPUNIT_ASSERT(maxDiff(JT, H1) < 1e-13);
    }
  }

  void contactGeometryErrors() {
    // zero normal, missing contact point, missing Pc2 for two bodies, wrong q size
    NewtonEuler3DR zeroNormal([](const SiconosVector&, double, NewtonEuler1DR::Geometry& g) {
      g.N = SiconosVector{0.0, 0.0, 0.0};
      g.Pc1 = SiconosVector{0.0, 0.0, 0.0};
      return 1.0;
    });
    const SiconosVector q{0, 0, 0, 1, 0, 0, 0};
    CPPUNIT_ASSERT(contains(errorMessage([&] { zeroNormal.computeh(q, 0.0); }), "NewtonEuler3DR"));
    NewtonEuler1DR onePoint([](const SiconosVector&, double, NewtonEuler1DR::Geometry& g) {
      g.N = SiconosVector{0.0, 2.0, 0.0};  // normalised by the relation
      g.Pc1 = SiconosVector{0.0, 0.0, 0.0};
      return 1.0;
    });
    onePoint.computeh(q, 0.0);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(1.0, onePoint.normal()(1), 0.0);
    CPPUNIT_ASSERT(
        contains(errorMessage([&] { onePoint.computeh(concatenate(q, q), 0.0); }), "Pc2"));
    CPPUNIT_ASSERT_THROW(onePoint.computeh(SiconosVector(6), 0.0), Error);
    CPPUNIT_ASSERT_THROW(NewtonEuler1DR(NewtonEuler1DR::GapFunction()), Error);
    CPPUNIT_ASSERT_THROW(NewtonEuler3DR(NewtonEuler1DR::GapFunction()), Error);
  }

  // ---- joints ---------------------------------------------------------------------

  void kneeZeroAtConstructionAndFormula() {
    // MECHANICS.md §3b: KneeJointR((0,0,0), absolute, body) with the body of NE_1DS
    const double c = std::cos(kPi / 8), s = std::sin(kPi / 8);
    auto b = body(SiconosVector{0.5 / std::sqrt(2.0), 0.0, -0.5 / std::sqrt(2.0), c, 0.0, s, 0.0});
    KneeJointR knee(SiconosVector{0.0, 0.0, 0.0}, true, b);
    CPPUNIT_ASSERT_EQUAL(std::string("KneeJointR"), knee.className());
    CPPUNIT_ASSERT_EQUAL(std::size_t(1), knee.bodyCount());
    CPPUNIT_ASSERT(knee.absoluteRef());
    // the world origin is the body point (-0.5, 0, 0)
    CPPUNIT_ASSERT_DOUBLES_EQUAL(-0.5, knee.G1P0()(0), 1e-15);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, knee.G1P0()(1), 1e-15);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, knee.G1P0()(2), 1e-15);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, maxAbs(knee.G2P0()), 0.0);
    CPPUNIT_ASSERT(maxAbs(knee.computeh(b->q(), 0.0)) < 1e-15);
    knee.checkSizes(3, 7, "knee");
    // jachq = [I3, ∂(R(q)a)/∂q] with the formula of §0.6 written out, at a random q
    const SiconosVector q = randomNonUnitQ();
    const SimpleMatrix J = knee.computeJacobianQ(q, 0.0);
    const double q0 = q(3), q1 = q(4), q2 = q(5), q3 = q(6);
    const double ax = knee.G1P0()(0), ay = knee.G1P0()(1), az = knee.G1P0()(2);
    const SimpleMatrix expected{
        {1, 0, 0, 2 * (q0 * ax - q3 * ay + q2 * az), 2 * (q1 * ax + q2 * ay + q3 * az),
         2 * (-q2 * ax + q1 * ay + q0 * az), 2 * (-q3 * ax - q0 * ay + q1 * az)},
        {0, 1, 0, 2 * (q3 * ax + q0 * ay - q1 * az), 2 * (q2 * ax - q1 * ay - q0 * az),
         2 * (q1 * ax + q2 * ay + q3 * az), 2 * (q0 * ax - q3 * ay + q2 * az)},
        {0, 0, 1, 2 * (-q2 * ax + q1 * ay + q0 * az), 2 * (q3 * ax + q0 * ay - q1 * az),
         2 * (-q0 * ax + q3 * ay - q2 * az), 2 * (q1 * ax + q2 * ay + q3 * az)}};
    CPPUNIT_ASSERT(maxDiff(J, expected) < 1e-15);
    // h at q: G + R(q) G1P0 − 0
    const SiconosVector h = knee.computeh(q, 0.0);
    const qn::Vec3 Ra = qn::rotate(qn::fromVector(q), {ax, ay, az});
    for (std::size_t i = 0; i < 3; ++i) CPPUNIT_ASSERT_DOUBLES_EQUAL(q(i) + Ra[i], h(i), 1e-15);

    // MECHANICS.md §4: knee2 at (0.5,0,0) of beam1 joins beam1 and beam2, h = 0 at construction
    const double r2 = std::sqrt(2.0);
    auto beam1 =
        body(SiconosVector{0.5 / r2, 0, -0.5 / r2, std::cos(kPi / 8), 0, std::sin(kPi / 8), 0});
    auto beam2 = body(SiconosVector{1 / r2 - 0.5 / r2, 0, -1 / r2 - 0.5 / r2, std::cos(-kPi / 8), 0,
                                    std::sin(-kPi / 8), 0});
    auto beam3 = body(SiconosVector{0, 0, -r2 - 0.5, std::cos(kPi / 4), 0, std::sin(kPi / 4), 0});
    KneeJointR knee2(SiconosVector{0.5, 0, 0}, false, beam1, beam2);
    KneeJointR knee3(SiconosVector{-0.5, 0, 0}, false, beam2, beam3);
    CPPUNIT_ASSERT_EQUAL(std::size_t(2), knee2.bodyCount());
    CPPUNIT_ASSERT(maxAbs(knee2.computeh(stateOf(beam1, beam2), 0.0)) < 1e-15);
    CPPUNIT_ASSERT(maxAbs(knee3.computeh(stateOf(beam2, beam3), 0.0)) < 1e-15);
    // the joint point of knee2 is the tip (1/√2, 0, −1/√2) of beam1, and beam2's point (0.5, 0, 0)
    CPPUNIT_ASSERT_DOUBLES_EQUAL(1 / r2, knee2.absolutePoint()(0), 1e-15);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(-1 / r2, knee2.absolutePoint()(2), 1e-15);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.5, knee2.G2P0()(0), 1e-15);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, knee2.G2P0()(2), 1e-15);
    // two-body jachq: [I, D1, −I, −D2]
    const SimpleMatrix J2 = knee2.computeJacobianQ(stateOf(beam1, beam2), 0.0);
    CPPUNIT_ASSERT_EQUAL(std::size_t(14), J2.cols());
    for (std::size_t i = 0; i < 3; ++i) {
      CPPUNIT_ASSERT_DOUBLES_EQUAL(1.0, J2(i, i), 0.0);
      CPPUNIT_ASSERT_DOUBLES_EQUAL(-1.0, J2(i, 7 + i), 0.0);
    }
    const SimpleMatrix D2 =
        qn::rotationDerivative(qn::fromVector(beam2->q()), qn::vec3(knee2.G2P0()));
    for (std::size_t i = 0; i < 3; ++i)
      for (std::size_t k = 0; k < 4; ++k)
        CPPUNIT_ASSERT_DOUBLES_EQUAL(-D2(i, k), J2(i, 10 + k), 0.0);
  }

  void kneeJacobiansAgainstFiniteDifferences() {
    for (int trial = 0; trial < 5; ++trial) {
      for (bool absolute : {true, false}) {
        auto b1 = body(randomBodyQ());
        auto b2 = body(randomBodyQ());
        const SiconosVector P{uniform(-1, 1), uniform(-1, 1), uniform(-1, 1)};
        KneeJointR one(P, absolute, b1);
        KneeJointR two(P, absolute, b1, b2);
        CPPUNIT_ASSERT(maxAbs(one.computeh(stateOf(b1), 0.0)) < 1e-14);
        CPPUNIT_ASSERT(maxAbs(two.computeh(stateOf(b1, b2), 0.0)) < 1e-14);
        checkJacobianByFiniteDifferences(one, randomNonUnitQ(), "KneeJointR one body");
        checkJacobianByFiniteDifferences(two, concatenate(randomNonUnitQ(), randomNonUnitQ()),
                                         "KneeJointR two bodies");
        checkJacobianByFiniteDifferences(two, concatenate(randomBodyQ(), randomBodyQ()),
                                         "KneeJointR two bodies");
      }
    }
  }

  void prismaticExample4() {
    // MECHANICS.md §4: PrismaticJointR(axis (1,0,0), body frame, beam3)
    const double r2 = std::sqrt(2.0);
    auto beam3 = body(SiconosVector{0, 0, -r2 - 0.5, std::cos(kPi / 4), 0, std::sin(kPi / 4), 0});
    PrismaticJointR prism(SiconosVector{1, 0, 0}, false, beam3);
    CPPUNIT_ASSERT_EQUAL(std::string("PrismaticJointR"), prism.className());
    const SiconosVector V1 = prism.V1(), V2 = prism.V2();
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, V1(0), 0.0);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(-1.0, V1(1), 0.0);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, V1(2), 0.0);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, V2(0), 0.0);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, V2(1), 0.0);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(-1.0, V2(2), 0.0);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(1.0, prism.axis()(0), 0.0);
    const SiconosVector q = beam3->q();
    CPPUNIT_ASSERT_EQUAL(std::size_t(5), prism.computeh(q, 0.0).size());
    CPPUNIT_ASSERT(maxAbs(prism.computeh(q, 0.0)) < 1e-15);
    prism.checkSizes(5, 7, "prismatic");
    // rows 2..4 of jachq: [−c1, c0, −c3, c2], [−c2, c3, c0, −c1], [−c3, −c2, c1, c0] (c = initial
    // quaternion)
    const SiconosVector qr = randomNonUnitQ();
    const SimpleMatrix J = prism.computeJacobianQ(qr, 0.0);
    const double c0 = q(3), c1 = q(4), c2 = q(5), c3 = q(6);
    const SimpleMatrix rot{{-c1, c0, -c3, c2}, {-c2, c3, c0, -c1}, {-c3, -c2, c1, c0}};
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, maxDiff(J.block(2, 3, 3, 4), rot), 0.0);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, J.block(2, 0, 3, 3).normInf(), 0.0);
    // rows 0/1: −R(q)V on the position
    const qn::Vec3 RV1 = qn::rotate(qn::fromVector(qr), qn::vec3(V1));
    for (std::size_t k = 0; k < 3; ++k) CPPUNIT_ASSERT_DOUBLES_EQUAL(-RV1[k], J(0, k), 0.0);
    checkJacobianByFiniteDifferences(prism, qr, "PrismaticJointR one body");
    checkJacobianByFiniteDifferences(prism, randomBodyQ(), "PrismaticJointR one body");
    // sliding along the axis keeps h = 0; a sideways move or a rotation does not
    const qn::Vec3 worldAxis = qn::rotate(qn::fromVector(q), {1, 0, 0});
    SiconosVector qs = q;
    for (std::size_t k = 0; k < 3; ++k) qs(k) += 0.37 * worldAxis[k];
    CPPUNIT_ASSERT(maxAbs(prism.computeh(qs, 0.0)) < 1e-15);
    SiconosVector qy = q;
    qy(1) += 0.1;
    CPPUNIT_ASSERT(maxAbs(prism.computeh(qy, 0.0)) > 0.09);
    SiconosVector qrot = q;
    moveBody(qrot, 0, qn::fromAxisAngle({1, 0, 0}, 0.1), qn::vec3(q), {0, 0, 0});
    CPPUNIT_ASSERT(maxAbs(prism.computeh(qrot, 0.0)) > 0.01);
  }

  void prismaticTestExample5() {
    // MECHANICS.md §5: axis (0,0,1) in the world, q0 = (1,1,1, cos(π/5), V sin(π/5)), V =
    // (3,2,1)/√14
    const double s = std::sin(kPi / 5) / std::sqrt(14.0);
    auto b = body(SiconosVector{1, 1, 1, std::cos(kPi / 5), 3 * s, 2 * s, 1 * s});
    PrismaticJointR prism(SiconosVector{0, 0, 1}, true, b);
    CPPUNIT_ASSERT(prism.absoluteRef());
    const SiconosVector q = b->q();
    // the axis in the body frame is R(q)ᵀ ez; V1, V2 ⊥ axis, unit, V2 = axis × V1
    const qn::Vec3 a = qn::vec3(prism.axis()), v1 = qn::vec3(prism.V1()), v2 = qn::vec3(prism.V2());
    const qn::Vec3 expected = qn::rotateTranspose(qn::fromVector(q), {0, 0, 1});
    for (std::size_t k = 0; k < 3; ++k) CPPUNIT_ASSERT_DOUBLES_EQUAL(expected[k], a[k], 1e-15);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, qn::dot(a, v1), 1e-15);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, qn::dot(a, v2), 1e-15);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(1.0, qn::dot(v1, v1), 1e-15);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(1.0, qn::dot(v2, v2), 1e-15);
    CPPUNIT_ASSERT(maxAbs(prism.computeh(q, 0.0)) < 1e-15);
    // the body slides down along z: h stays 0
    SiconosVector qz = q;
    qz(2) -= 1.7;
    CPPUNIT_ASSERT(maxAbs(prism.computeh(qz, 0.0)) < 1e-14);
    SiconosVector qx = q;
    qx(0) += 0.2;
    CPPUNIT_ASSERT(maxAbs(prism.computeh(qx, 0.0)) > 0.1);
    checkJacobianByFiniteDifferences(prism, randomNonUnitQ(), "PrismaticJointR absolute axis");
    // the V1 rule of §0.6 on the signed components, and the fallback where it degenerates
    for (const SiconosVector& axis :
         {SiconosVector{0, 0, -1}, SiconosVector{-1, 0, 0}, SiconosVector{0, -1, 0},
          SiconosVector{0, 1, 0}, SiconosVector{1, 1, 1}, SiconosVector{-1, -1, -1}}) {
      PrismaticJointR p(axis, false, b);
      const qn::Vec3 A = qn::vec3(p.axis()), W1 = qn::vec3(p.V1()), W2 = qn::vec3(p.V2());
      CPPUNIT_ASSERT_DOUBLES_EQUAL(1.0, qn::dot(W1, W1), 1e-15);
      CPPUNIT_ASSERT_DOUBLES_EQUAL(1.0, qn::dot(W2, W2), 1e-15);
      CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, qn::dot(A, W1), 1e-15);
      CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, qn::dot(A, W2), 1e-15);
    }
    PrismaticJointR pz(SiconosVector{0, 0, 1}, false,
                       b);  // a_x ≤ a_y, a_z > a_y: V1 = (0, −a_z, a_y)
    CPPUNIT_ASSERT_DOUBLES_EQUAL(-1.0, pz.V1()(1), 0.0);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(1.0, pz.V2()(0), 0.0);
  }

  void prismaticTwoBodies() {
    for (int trial = 0; trial < 5; ++trial) {
      for (bool absolute : {true, false}) {
        auto b1 = body(randomBodyQ());
        auto b2 = body(randomBodyQ());
        const SiconosVector axis{uniform(-1, 1), uniform(-1, 1), uniform(-1, 1)};
        PrismaticJointR prism(axis, absolute, b1, b2);
        CPPUNIT_ASSERT_EQUAL(std::size_t(2), prism.bodyCount());
        const SiconosVector q = stateOf(b1, b2);
        CPPUNIT_ASSERT(maxAbs(prism.computeh(q, 0.0)) < 1e-14);
        prism.checkSizes(5, 14, "prismatic");
        checkJacobianByFiniteDifferences(prism, concatenate(randomNonUnitQ(), randomNonUnitQ()),
                                         "PrismaticJointR two bodies");
        // body 2 sliding along the axis (world direction R(q1)·axis) keeps h = 0 ...
        const qn::Vec3 w = qn::rotate(qn::fromVector(q), qn::vec3(prism.axis()));
        SiconosVector qs = q;
        for (std::size_t k = 0; k < 3; ++k) qs(7 + k) += 0.8 * w[k];
        CPPUNIT_ASSERT(maxAbs(prism.computeh(qs, 0.0)) < 1e-14);
        // ... rotating body 2 does not
        SiconosVector qr = q;
        moveBody(qr, 1, qn::fromAxisAngle({0.3, -0.2, 1.0}, 0.2), qn::vec3(q, 7), {0, 0, 0});
        CPPUNIT_ASSERT(maxAbs(prism.computeh(qr, 0.0)) > 0.01);
        // the absolute axis given is the world axis at construction
        if (absolute) {
          const double n = axis.norm2();
          for (std::size_t k = 0; k < 3; ++k)
            CPPUNIT_ASSERT_DOUBLES_EQUAL(axis(k) / n, w[k], 1e-14);
        }
      }
    }
  }

  void pivotJoint() {
    for (int trial = 0; trial < 5; ++trial) {
      for (bool absolute : {true, false}) {
        auto b1 = body(randomBodyQ());
        auto b2 = body(randomBodyQ());
        const SiconosVector P{uniform(-1, 1), uniform(-1, 1), uniform(-1, 1)};
        const SiconosVector A{uniform(-1, 1), uniform(-1, 1), uniform(-1, 1)};
        PivotJointR one(P, A, absolute, b1);
        PivotJointR two(P, A, absolute, b1, b2);
        CPPUNIT_ASSERT_EQUAL(std::string("PivotJointR"), one.className());
        const SiconosVector q1 = stateOf(b1), q12 = stateOf(b1, b2);
        CPPUNIT_ASSERT_EQUAL(std::size_t(5), one.computeh(q1, 0.0).size());
        CPPUNIT_ASSERT(maxAbs(one.computeh(q1, 0.0)) < 1e-14);
        CPPUNIT_ASSERT(maxAbs(two.computeh(q12, 0.0)) < 1e-14);
        checkJacobianByFiniteDifferences(one, randomNonUnitQ(), "PivotJointR one body");
        checkJacobianByFiniteDifferences(two, concatenate(randomNonUnitQ(), randomNonUnitQ()),
                                         "PivotJointR two bodies");
        // the ball-joint rows are KneeJointR's
        KneeJointR knee(P, absolute, b1, b2);
        const SiconosVector qr = concatenate(randomBodyQ(), randomBodyQ());
        const SiconosVector hp = two.computeh(qr, 0.0), hk = knee.computeh(qr, 0.0);
        for (std::size_t i = 0; i < 3; ++i) CPPUNIT_ASSERT_DOUBLES_EQUAL(hk(i), hp(i), 0.0);
        // one body: rotating about the hinge (world axis through the world point) keeps h = 0
        const qn::Vec3 Pw = qn::vec3(one.absolutePoint());
        const SiconosVector wa = one.worldAxis(q1);
        if (absolute) {
          const double n = A.norm2();
          for (std::size_t k = 0; k < 3; ++k) CPPUNIT_ASSERT_DOUBLES_EQUAL(A(k) / n, wa(k), 1e-14);
        }
        SiconosVector qh = q1;
        moveBody(qh, 0, qn::fromAxisAngle(qn::vec3(wa), 1.3), Pw, {0, 0, 0});
        CPPUNIT_ASSERT(maxAbs(one.computeh(qh, 0.0)) < 1e-14);
        // ... about another axis through the point, not
        SiconosVector qo = q1;
        const qn::Vec3 other = qn::cross(qn::vec3(wa), {0.3, 0.5, -0.8});
        moveBody(qo, 0, qn::fromAxisAngle(other, 0.3), Pw, {0, 0, 0});
        const SiconosVector ho = one.computeh(qo, 0.0);
        CPPUNIT_ASSERT(maxAbs(ho.segment(0, 3)) < 1e-14);
        CPPUNIT_ASSERT(maxAbs(ho.segment(3, 2)) > 0.01);
        // two bodies: body 1 rotating about the hinge relative to body 2 keeps h = 0
        SiconosVector qh2 = q12;
        moveBody(qh2, 0, qn::fromAxisAngle(qn::vec3(two.worldAxis(q12)), -0.9),
                 qn::vec3(two.absolutePoint()), {0, 0, 0});
        CPPUNIT_ASSERT(maxAbs(two.computeh(qh2, 0.0)) < 1e-14);
      }
    }
    // hinge about z at the origin of a body at rest
    auto b = body(SiconosVector{1, 0, 0, 1, 0, 0, 0});
    PivotJointR hinge(SiconosVector{0, 0, 0}, SiconosVector{0, 0, 2}, true, b);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(-1.0, hinge.G1P0()(0), 0.0);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(1.0, hinge.axis()(2), 0.0);
    hinge.checkSizes(5, 7, "hinge");
    CPPUNIT_ASSERT_THROW(hinge.checkSizes(3, 7, "hinge"), Error);
  }

  void fixedJoint() {
    for (int trial = 0; trial < 5; ++trial) {
      auto b1 = body(randomBodyQ());
      auto b2 = body(randomBodyQ());
      FixedJointR one(b1);
      FixedJointR two(b1, b2);
      CPPUNIT_ASSERT_EQUAL(std::string("FixedJointR"), one.className());
      CPPUNIT_ASSERT_EQUAL(std::size_t(6), one.computeh(stateOf(b1), 0.0).size());
      CPPUNIT_ASSERT(maxAbs(one.computeh(stateOf(b1), 0.0)) < 1e-14);
      CPPUNIT_ASSERT(maxAbs(two.computeh(stateOf(b1, b2), 0.0)) < 1e-14);
      one.checkSizes(6, 7, "weld");
      two.checkSizes(6, 14, "weld");
      checkJacobianByFiniteDifferences(one, randomNonUnitQ(), "FixedJointR one body");
      checkJacobianByFiniteDifferences(two, concatenate(randomNonUnitQ(), randomNonUnitQ()),
                                       "FixedJointR two bodies");
      // any motion of a welded body violates it
      SiconosVector qm = stateOf(b1);
      moveBody(qm, 0, qn::fromAxisAngle({1, 2, 3}, 0.1), qn::vec3(qm), {0, 0, 0});
      CPPUNIT_ASSERT(maxAbs(one.computeh(qm, 0.0).segment(3, 3)) > 0.01);
      CPPUNIT_ASSERT(maxAbs(one.computeh(qm, 0.0).segment(0, 3)) < 1e-14);
      // rotation rows equal those of a prismatic joint of the same bodies
      PrismaticJointR prism(SiconosVector{1, 0, 0}, false, b1, b2);
      const SiconosVector qr = concatenate(randomNonUnitQ(), randomNonUnitQ());
      const SiconosVector hf = two.computeh(qr, 0.0), hp = prism.computeh(qr, 0.0);
      for (std::size_t i = 0; i < 3; ++i) CPPUNIT_ASSERT_DOUBLES_EQUAL(hp(2 + i), hf(3 + i), 0.0);
    }
  }

  void jointsInvariantUnderRigidMotion() {
    // two-body joints see only relative motion: moving both bodies rigidly keeps h = 0,
    // and H v = 0 for a common rigid velocity
    for (int trial = 0; trial < 5; ++trial) {
      auto b1 = body(randomBodyQ());
      auto b2 = body(randomBodyQ());
      const SiconosVector P{uniform(-1, 1), uniform(-1, 1), uniform(-1, 1)};
      const SiconosVector A{uniform(-1, 1), uniform(-1, 1), uniform(-1, 1)};
      KneeJointR knee(P, true, b1, b2);
      PrismaticJointR prism(A, true, b1, b2);
      PivotJointR pivot(P, A, false, b1, b2);
      FixedJointR fixed(b1, b2);
      SiconosVector q = stateOf(b1, b2);
      const qn::Quat rot = randomUnitQuat();
      const qn::Vec3 O{uniform(-1, 1), uniform(-1, 1), uniform(-1, 1)},
          d{uniform(-1, 1), uniform(-1, 1), 0.5};
      moveBody(q, 0, rot, O, d);
      moveBody(q, 1, rot, O, d);
      const std::vector<const LagrangianR*> joints{&knee, &prism, &pivot, &fixed};
      // a common rigid velocity: translation u, world angular velocity w about O
      const qn::Vec3 u{uniform(-1, 1), uniform(-1, 1), uniform(-1, 1)},
          w{uniform(-1, 1), uniform(-1, 1), uniform(-1, 1)};
      SiconosVector v(12);
      for (std::size_t i = 0; i < 2; ++i) {
        const qn::Vec3 G = qn::vec3(q, 7 * i);
        const qn::Vec3 wr = qn::cross(w, {G[0] - O[0], G[1] - O[1], G[2] - O[2]});
        const qn::Vec3 Om = qn::rotateTranspose(qn::fromVector(q, 7 * i + 3), w);  // body frame
        for (std::size_t k = 0; k < 3; ++k) {
          v(6 * i + k) = u[k] + wr[k];
          v(6 * i + 3 + k) = Om[k];
        }
      }
      for (const LagrangianR* j : joints) {
        CPPUNIT_ASSERT_MESSAGE(j->className(), maxAbs(j->computeh(q, 0.0)) < 1e-13);
        const SimpleMatrix J = j->computeJacobianQ(q, 0.0);
        const SimpleMatrix H = j->computeJacobianV(q, J, kinematics(q), 0.0);
        CPPUNIT_ASSERT_EQUAL(std::size_t(12), H.cols());
        CPPUNIT_ASSERT_MESSAGE(j->className() + " H v", maxAbs(H * v) < 1e-13);
      }
    }
  }

  void jointErrors() {
    auto b1 = body(randomBodyQ());
    auto b2 = body(randomBodyQ());
    const SiconosVector P{0, 0, 0}, zero{0, 0, 0};
    // zero axis: an Error naming the joint and the value
    const std::string prismMsg = errorMessage([&] { PrismaticJointR(zero, false, b1); });
    CPPUNIT_ASSERT(contains(prismMsg, "PrismaticJointR"));
    CPPUNIT_ASSERT(contains(prismMsg, "(0, 0, 0)"));
    CPPUNIT_ASSERT(
        contains(errorMessage([&] { PrismaticJointR(zero, true, b1, b2); }), "PrismaticJointR"));
    CPPUNIT_ASSERT(contains(errorMessage([&] { PivotJointR(P, zero, true, b1); }), "PivotJointR"));
    CPPUNIT_ASSERT_THROW(PrismaticJointR(SiconosVector{1, 0}, false, b1), Error);
    CPPUNIT_ASSERT_THROW(KneeJointR(SiconosVector{1, 0, 0, 0}, false, b1), Error);
    // the same body twice
    CPPUNIT_ASSERT(contains(errorMessage([&] { KneeJointR(P, true, b1, b1); }), "KneeJointR"));
    CPPUNIT_ASSERT(contains(errorMessage([&] {
                              PrismaticJointR(SiconosVector{1, 0, 0}, true, b1, b1);
                            }),
                            "PrismaticJointR"));
    CPPUNIT_ASSERT(contains(errorMessage([&] {
                              PivotJointR(P, SiconosVector{1, 0, 0}, true, b2, b2);
                            }),
                            "PivotJointR"));
    CPPUNIT_ASSERT(contains(errorMessage([&] { FixedJointR(b1, b1); }), "FixedJointR"));
    // null bodies
    CPPUNIT_ASSERT(contains(errorMessage([&] { KneeJointR(P, true, nullptr); }), "KneeJointR"));
    CPPUNIT_ASSERT(contains(errorMessage([&] { KneeJointR(P, true, b1, nullptr); }), "KneeJointR"));
    CPPUNIT_ASSERT_THROW(FixedJointR(nullptr), Error);
    CPPUNIT_ASSERT_THROW(PrismaticJointR(SiconosVector{1, 0, 0}, true, nullptr, b2), Error);
    // law size and number of coordinates
    KneeJointR knee(P, true, b1);
    const std::string sizeMsg = errorMessage([&] { knee.checkSizes(5, 7, "Interaction #7"); });
    CPPUNIT_ASSERT(contains(sizeMsg, "Interaction #7"));
    CPPUNIT_ASSERT(contains(sizeMsg, "law size 3"));
    CPPUNIT_ASSERT(contains(sizeMsg, "found 5"));
    CPPUNIT_ASSERT_THROW(knee.checkSizes(3, 14, "knee"), Error);
    CPPUNIT_ASSERT_THROW(knee.computeh(concatenate(b1->q(), b2->q()), 0.0), Error);
    PrismaticJointR prism(SiconosVector{1, 0, 0}, false, b1, b2);
    CPPUNIT_ASSERT_THROW(prism.checkSizes(3, 14, "prismatic"), Error);
    CPPUNIT_ASSERT_THROW(prism.checkSizes(5, 7, "prismatic"), Error);
    FixedJointR fixed(b1);
    CPPUNIT_ASSERT_THROW(fixed.checkSizes(5, 7, "weld"), Error);
  }

  void interactionWithJointAndContact() {
    // a knee in an Interaction: wrong law size and wrong bodies are reported at initialisation,
    // y(0) = h = 0 and H = jachq·T, ẏ = H v = velocity of the joint point
    auto b1 = body(randomBodyQ());
    auto b2 = body(randomBodyQ());
    for (std::size_t k = 0; k < 6; ++k) {
      b1->velocityMutable()(k) = uniform(-1, 1);
      b2->velocityMutable()(k) = uniform(-1, 1);
    }
    const SiconosVector P{0.2, -0.1, 0.4};
    auto knee = std::make_shared<KneeJointR>(P, false, b1, b2);
    auto good = std::make_shared<Interaction>(std::make_shared<EqualityConditionNSL>(3), knee);
    good->setDynamicalSystems(b1, b2);
    good->initialize(0.0);
    CPPUNIT_ASSERT(maxAbs(good->y(0)) < 1e-14);
    const SiconosVector q = stateOf(b1, b2);
    const SimpleMatrix H = knee->computeJacobianQ(q, 0.0) * kinematics(q);
    CPPUNIT_ASSERT(maxDiff(good->jacobian(), H) < 1e-15);
    // ẏ = (v1 + ω1 × R1 G1P0) − (v2 + ω2 × R2 G2P0)
    qn::Vec3 u{0, 0, 0};
    const qn::Vec3 arms[2] = {qn::vec3(knee->G1P0()), qn::vec3(knee->G2P0())};
    const SP::NewtonEulerDS bodies[2] = {b1, b2};
    for (std::size_t i = 0; i < 2; ++i) {
      const qn::Quat Q = qn::fromVector(bodies[i]->q());
      const qn::Vec3 w = qn::rotate(Q, qn::vec3(bodies[i]->velocity(), 3));
      const qn::Vec3 r = qn::cross(w, qn::rotate(Q, arms[i]));
      for (std::size_t k = 0; k < 3; ++k)
        u[k] += (i == 0 ? 1.0 : -1.0) * (bodies[i]->velocity()(k) + r[k]);
    }
    for (std::size_t k = 0; k < 3; ++k) CPPUNIT_ASSERT_DOUBLES_EQUAL(u[k], good->y(1)(k), 1e-13);

    auto wrongSize = std::make_shared<Interaction>(std::make_shared<EqualityConditionNSL>(5), knee);
    wrongSize->setDynamicalSystems(b1, b2);
    CPPUNIT_ASSERT(contains(errorMessage([&] { wrongSize->initialize(0.0); }), "law size 3"));
    auto swapped = std::make_shared<Interaction>(std::make_shared<EqualityConditionNSL>(3), knee);
    swapped->setDynamicalSystems(b2, b1);
    CPPUNIT_ASSERT(contains(errorMessage([&] { swapped->initialize(0.0); }), "KneeJointR"));
    auto oneBody = std::make_shared<Interaction>(std::make_shared<EqualityConditionNSL>(3), knee);
    oneBody->setDynamicalSystems(b1);
    CPPUNIT_ASSERT_THROW(oneBody->initialize(0.0), Error);

    // the ball contact of §1 in an Interaction: y = (0.9, 0, 0), H rows of §1
    auto ball = std::make_shared<NewtonEulerDS>(SiconosVector{1, 0, 0, 1, 0, 0, 0},
                                                SiconosVector{2, 0, 0, 0, 0, 0}, 1.0,
                                                SimpleMatrix::identity(3));
    auto contact =
        std::make_shared<Interaction>(std::make_shared<NewtonImpactFrictionNSL>(0.9, 0.9, 0.6, 3),
                                      std::make_shared<BallOnPlaneX>(0.1));
    contact->setDynamicalSystems(ball);
    contact->initialize(0.0);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.9, contact->y(0)(0), 1e-15);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(2.0, contact->y(1)(0), 0.0);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(
        0.0,
        maxDiff(contact->jacobian(),
                SimpleMatrix{{1, 0, 0, 0, 0, 0}, {0, 0, -1, 0, -0.1, 0}, {0, 1, 0, 0, 0, -0.1}}),
        1e-15);
    auto wrongLaw = std::make_shared<Interaction>(std::make_shared<NewtonImpactNSL>(0.9),
                                                  std::make_shared<BallOnPlaneX>(0.1));
    wrongLaw->setDynamicalSystems(ball);
    CPPUNIT_ASSERT_THROW(wrongLaw->initialize(0.0), Error);
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(RelationsTest);
