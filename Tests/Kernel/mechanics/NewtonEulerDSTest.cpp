// NewtonEulerDS (Kernel/src/mechanics/NewtonEulerDS.cpp): construction checks,
// wrench and gyroscopic Jacobian, Lie-group position update, T(q), energies
// and momenta (MECHANICS.md §0.1–§0.3).
#include <cppunit/extensions/HelperMacros.h>

#include <cmath>
#include <string>

#include <nsdyn/Error.hpp>
#include <nsdyn/NewtonEulerDS.hpp>
#include <nsdyn/Quaternion.hpp>

using namespace nsdyn;
namespace qn = nsdyn::quaternion;

namespace {

// A full symmetric positive definite inertia (leading minors 2, 5.99, 23.88).
SimpleMatrix fullInertia() {
  return SimpleMatrix{{2.0, 0.1, 0.0}, {0.1, 3.0, -0.2}, {0.0, -0.2, 4.0}};
}

SiconosVector unitQ(double x, double y, double z, const qn::Quat& r) {
  return SiconosVector{x, y, z, r[0], r[1], r[2], r[3]};
}

SiconosVector restQ() {
  return SiconosVector{0, 0, 0, 1, 0, 0, 0};
}

double maxDiff(const SimpleMatrix& a, const SimpleMatrix& b) {
  double d = 0.0;
  for (std::size_t i = 0; i < a.rows(); ++i)
    for (std::size_t j = 0; j < a.cols(); ++j) d = std::max(d, std::abs(a(i, j) - b(i, j)));
  return d;
}

// The message of the Error thrown by f ("" if none is thrown).
template <class F>
std::string errorMessage(F f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

class NewtonEulerDSTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(NewtonEulerDSTest);
  CPPUNIT_TEST(constructionAndMass);
  CPPUNIT_TEST(badConstructionThrows);
  CPPUNIT_TEST(externalForces);
  CPPUNIT_TEST(forcesWithGyroscopicTerm);
  CPPUNIT_TEST(gyroscopicJacobianAgainstFiniteDifferences);
  CPPUNIT_TEST(iterationMatrix);
  CPPUNIT_TEST(integratePositionPureSpin);
  CPPUNIT_TEST(integratePositionIsBodyFrameIncrement);
  CPPUNIT_TEST(integratePositionDoesNotRenormalise);
  CPPUNIT_TEST(kinematicMatrixIsDerivativeOfUpdate);
  CPPUNIT_TEST(energiesAndMomenta);
  CPPUNIT_TEST_SUITE_END();

 public:
  void constructionAndMass() {
    NewtonEulerDS ds(SiconosVector{1, 2, 3, 1, 0, 0, 0}, SiconosVector{1, 0, 0, 0, 0, 0.5}, 2.0,
                     fullInertia());
    CPPUNIT_ASSERT(ds.kind() == DynamicalSystemKind::NewtonEuler);
    CPPUNIT_ASSERT_EQUAL(std::string("NewtonEulerDS"), ds.className());
    CPPUNIT_ASSERT_EQUAL(std::size_t(6), ds.dimension());
    CPPUNIT_ASSERT_EQUAL(std::size_t(7), ds.positionSize());
    CPPUNIT_ASSERT(!ds.kinematicIsIdentity());
    CPPUNIT_ASSERT(ds.isNonlinear());
    CPPUNIT_ASSERT(ds.gyroscopic());
    CPPUNIT_ASSERT_EQUAL(2.0, ds.scalarMass());
    CPPUNIT_ASSERT_EQUAL(std::size_t(6), ds.p().size());
    CPPUNIT_ASSERT_EQUAL(std::size_t(6), ds.forces().size());
    const SimpleMatrix& M = ds.mass();
    CPPUNIT_ASSERT_EQUAL(std::size_t(6), M.rows());
    CPPUNIT_ASSERT_EQUAL(std::size_t(6), M.cols());
    SimpleMatrix expected(6, 6);
    expected(0, 0) = expected(1, 1) = expected(2, 2) = 2.0;
    expected.setBlock(3, 3, fullInertia());
    CPPUNIT_ASSERT_EQUAL(0.0, maxDiff(M, expected));
    CPPUNIT_ASSERT_EQUAL(0.0, maxDiff(ds.inertia(), fullInertia()));
    // quaternion norm within 1e-8 and symmetric within relative 1e-12 are accepted
    NewtonEulerDS nearlyUnit(SiconosVector{0, 0, 0, 1.0 + 5e-9, 0, 0, 0}, SiconosVector(6), 1.0,
                             SimpleMatrix::identity(3));
    SimpleMatrix nearlySym = fullInertia();
    nearlySym(0, 1) += 1e-13;
    NewtonEulerDS ok(restQ(), SiconosVector(6), 1.0, nearlySym);
    // boundary conditions on the 6 velocity components
    ok.setBoundaryConditions({0, 5}, [](double) { return SiconosVector{0.0, 1.0}; });
    ok.checkConsistency();
    CPPUNIT_ASSERT_THROW(ok.setBoundaryConditions({6}, [](double) { return SiconosVector{0.0}; }),
                         Error);
  }

  void badConstructionThrows() {
    const SiconosVector v0(6);
    const SimpleMatrix I = SimpleMatrix::identity(3);
    auto make = [](SiconosVector q, SiconosVector v, double m, SimpleMatrix in) {
      return [=]() { NewtonEulerDS ds(q, v, m, in); };
    };
    // sizes
    CPPUNIT_ASSERT_THROW(make(SiconosVector(6, 0.5), v0, 1.0, I)(), Error);
    CPPUNIT_ASSERT_THROW(make(SiconosVector{0, 0, 0, 1, 0, 0, 0, 0}, v0, 1.0, I)(), Error);
    CPPUNIT_ASSERT_THROW(make(restQ(), SiconosVector(5), 1.0, I)(), Error);
    CPPUNIT_ASSERT_THROW(make(restQ(), SiconosVector(7), 1.0, I)(), Error);
    // mass
    CPPUNIT_ASSERT_THROW(make(restQ(), v0, 0.0, I)(), Error);
    CPPUNIT_ASSERT_THROW(make(restQ(), v0, -1.0, I)(), Error);
    CPPUNIT_ASSERT_THROW(make(restQ(), v0, std::nan(""), I)(), Error);
    CPPUNIT_ASSERT_THROW(make(restQ(), v0, HUGE_VAL, I)(), Error);
    CPPUNIT_ASSERT(errorMessage(make(restQ(), v0, -1.0, I)).find("m = -1") != std::string::npos);
    // inertia shape, symmetry, definiteness
    CPPUNIT_ASSERT_THROW(make(restQ(), v0, 1.0, SimpleMatrix::identity(2))(), Error);
    CPPUNIT_ASSERT_THROW(make(restQ(), v0, 1.0, SimpleMatrix(3, 4))(), Error);
    SimpleMatrix nonSym = fullInertia();
    nonSym(2, 1) += 1e-10;
    CPPUNIT_ASSERT_THROW(make(restQ(), v0, 1.0, nonSym)(), Error);
    CPPUNIT_ASSERT(errorMessage(make(restQ(), v0, 1.0, nonSym)).find("symmetric") !=
                   std::string::npos);
    CPPUNIT_ASSERT_THROW(make(restQ(), v0, 1.0, SimpleMatrix{{1, 0, 0}, {0, 1, 0}, {0, 0, -1}})(),
                         Error);
    CPPUNIT_ASSERT_THROW(make(restQ(), v0, 1.0, SimpleMatrix{{1, 2, 0}, {2, 1, 0}, {0, 0, 1}})(),
                         Error);
    CPPUNIT_ASSERT_THROW(make(restQ(), v0, 1.0, SimpleMatrix{{1, 0, 0}, {0, 0, 0}, {0, 0, 1}})(),
                         Error);
    CPPUNIT_ASSERT_THROW(make(restQ(), v0, 1.0, SimpleMatrix{{-1, 0, 0}, {0, -1, 0}, {0, 0, -1}})(),
                         Error);
    CPPUNIT_ASSERT_THROW(make(restQ(), v0, 1.0, SimpleMatrix(3, 3))(), Error);
    // positive diagonal but indefinite (third minor −2.888)
    CPPUNIT_ASSERT_THROW(
        make(restQ(), v0, 1.0, SimpleMatrix{{1, 0.9, 0.9}, {0.9, 1, -0.9}, {0.9, -0.9, 1}})(),
        Error);
    SimpleMatrix nanI = SimpleMatrix::identity(3);
    nanI(1, 1) = std::nan("");
    CPPUNIT_ASSERT_THROW(make(restQ(), v0, 1.0, nanI)(), Error);
    CPPUNIT_ASSERT(
        errorMessage(make(restQ(), v0, 1.0, SimpleMatrix{{1, 2, 0}, {2, 1, 0}, {0, 0, 1}}))
            .find("positive definite") != std::string::npos);
    // quaternion norm
    CPPUNIT_ASSERT_THROW(make(SiconosVector(7), v0, 1.0, I)(), Error);
    CPPUNIT_ASSERT_THROW(make(SiconosVector{0, 0, 0, 1.0 + 2e-8, 0, 0, 0}, v0, 1.0, I)(), Error);
    CPPUNIT_ASSERT_THROW(make(SiconosVector{0, 0, 0, 0.6, 0.6, 0, 0}, v0, 1.0, I)(), Error);
    const std::string msg = errorMessage(make(SiconosVector{0, 0, 0, 0, 0, 0, 2.0}, v0, 1.0, I));
    CPPUNIT_ASSERT(msg.find("quaternion") != std::string::npos);
    CPPUNIT_ASSERT(msg.find("norm 2") != std::string::npos);
    CPPUNIT_ASSERT(errorMessage(make(SiconosVector(7), v0, 1.0, I)).find("norm 0") !=
                   std::string::npos);
  }

  void externalForces() {
    NewtonEulerDS ds(restQ(), SiconosVector(6), 1.0, SimpleMatrix::identity(3));
    CPPUNIT_ASSERT(!ds.hasFExt());
    CPPUNIT_ASSERT(!ds.hasMExt());
    CPPUNIT_ASSERT_EQUAL(std::size_t(3), ds.computeFExt(0.0).size());
    CPPUNIT_ASSERT_EQUAL(0.0, ds.computeFExt(0.0).normInf());
    CPPUNIT_ASSERT_EQUAL(0.0, ds.computeMExt(0.0).normInf());
    CPPUNIT_ASSERT_THROW(ds.setFExt(SiconosVector{1.0, 2.0}), Error);
    CPPUNIT_ASSERT_THROW(ds.setMExt(SiconosVector{1.0, 2.0, 3.0, 4.0}), Error);
    CPPUNIT_ASSERT(!ds.hasFExt());
    ds.setFExt(SiconosVector{-9.81, 0.0, 0.0});
    ds.setMExt([](double t) { return SiconosVector{0.0, t, 2.0 * t}; });
    CPPUNIT_ASSERT(ds.hasFExt());
    CPPUNIT_ASSERT(ds.hasMExt());
    CPPUNIT_ASSERT_EQUAL(-9.81, ds.computeFExt(7.0)(0));
    CPPUNIT_ASSERT_EQUAL(3.0, ds.computeMExt(1.5)(2));
    ds.setFExt([](double) { return SiconosVector{1.0, 2.0}; });
    CPPUNIT_ASSERT_THROW(ds.computeFExt(0.0), Error);
    CPPUNIT_ASSERT_THROW(ds.computeForces(0.0, ds.q(), ds.velocity()), Error);
    ds.setFExt(SiconosVector{1.0, 2.0, 3.0});
    ds.setMExt([](double) { return SiconosVector(4); });
    CPPUNIT_ASSERT_THROW(ds.computeMExt(0.0), Error);
    CPPUNIT_ASSERT_THROW(ds.computeForces(0.0, ds.q(), ds.velocity()), Error);
  }

  void forcesWithGyroscopicTerm() {
    // I = diag(1,2,3), Ω = (1,2,3): IΩ = (1,4,9), Ω × IΩ = (6,−6,2)
    NewtonEulerDS ds(restQ(), SiconosVector(6), 1.0, SimpleMatrix{{1, 0, 0}, {0, 2, 0}, {0, 0, 3}});
    ds.setFExt(SiconosVector{0.0, 0.0, -9.81});
    ds.setMExt([](double t) { return SiconosVector{t, 0.0, 0.0}; });
    const SiconosVector v{5, 6, 7, 1, 2, 3};
    const SiconosVector F = ds.computeForces(0.5, ds.q(), v);
    CPPUNIT_ASSERT_EQUAL(std::size_t(6), F.size());
    const double expected[6] = {0.0, 0.0, -9.81, 0.5 - 6.0, 6.0, -2.0};
    for (std::size_t i = 0; i < 6; ++i) CPPUNIT_ASSERT_DOUBLES_EQUAL(expected[i], F(i), 1e-15);
    ds.setGyroscopic(false);
    CPPUNIT_ASSERT(!ds.gyroscopic());
    const SiconosVector F0 = ds.computeForces(0.5, ds.q(), v);
    const double expected0[6] = {0.0, 0.0, -9.81, 0.5, 0.0, 0.0};
    for (std::size_t i = 0; i < 6; ++i) CPPUNIT_ASSERT_EQUAL(expected0[i], F0(i));
    CPPUNIT_ASSERT_EQUAL(0.0, ds.computeJacobianForcesV(v).normInf());
    // forces do not depend on the orientation (f_ext world, m_ext body)
    ds.setGyroscopic(true);
    const SiconosVector Fq =
        ds.computeForces(0.5, unitQ(1, 1, 1, qn::fromAxisAngle({1, 1, 0}, 0.7)), v);
    CPPUNIT_ASSERT_EQUAL(0.0, (Fq - F).normInf());
    // a spin about a principal axis has no gyroscopic moment
    const SiconosVector spin{0, 0, 0, 0, 0, 4.0};
    CPPUNIT_ASSERT_EQUAL(0.0, ds.computeForces(0.0, ds.q(), spin)(3));
  }

  void gyroscopicJacobianAgainstFiniteDifferences() {
    NewtonEulerDS ds(restQ(), SiconosVector(6), 1.5, fullInertia());
    ds.setFExt(SiconosVector{0.0, 0.0, -9.81});
    const SiconosVector v{0.3, -0.1, 0.2, 1.3, -0.7, 2.1};
    const SimpleMatrix C = ds.computeJacobianForcesV(v);
    CPPUNIT_ASSERT_EQUAL(std::size_t(6), C.rows());
    CPPUNIT_ASSERT_EQUAL(std::size_t(6), C.cols());
    const double eps = 1e-5;
    for (std::size_t j = 0; j < 6; ++j) {
      SiconosVector vp = v, vm = v;
      vp(j) += eps;
      vm(j) -= eps;
      const SiconosVector d =
          (ds.computeForces(0.0, ds.q(), vp) - ds.computeForces(0.0, ds.q(), vm)) / (2 * eps);
      // F is quadratic in Ω: the central difference is exact up to round-off
      for (std::size_t i = 0; i < 6; ++i) CPPUNIT_ASSERT_DOUBLES_EQUAL(d(i), C(i, j), 1e-8);
    }
    // only the angular block is nonzero; by hand column 0: −(e_x × IΩ + Ω × I e_x)
    for (std::size_t i = 0; i < 6; ++i)
      for (std::size_t j = 0; j < 6; ++j)
        if (i < 3 || j < 3) CPPUNIT_ASSERT_EQUAL(0.0, C(i, j));
    const qn::Vec3 omega{1.3, -0.7, 2.1};
    const SimpleMatrix I = fullInertia();
    const qn::Vec3 Iw{I(0, 0) * omega[0] + I(0, 1) * omega[1],
                      I(1, 0) * omega[0] + I(1, 1) * omega[1] + I(1, 2) * omega[2],
                      I(2, 1) * omega[1] + I(2, 2) * omega[2]};
    const qn::Vec3 a = qn::cross({1, 0, 0}, Iw), b = qn::cross(omega, {I(0, 0), I(1, 0), I(2, 0)});
    for (std::size_t i = 0; i < 3; ++i)
      CPPUNIT_ASSERT_DOUBLES_EQUAL(-(a[i] + b[i]), C(3 + i, 3), 1e-15);
  }

  void iterationMatrix() {
    NewtonEulerDS ds(restQ(), SiconosVector(6), 1.5, fullInertia());
    const SiconosVector v{0.3, -0.1, 0.2, 1.3, -0.7, 2.1};
    const double theta = 0.5, h = 0.005;
    const SimpleMatrix W = ds.computeIterationMatrix(0.0, ds.q(), v, theta, h);
    const SimpleMatrix expected = ds.mass() - (theta * h) * ds.computeJacobianForcesV(v);
    CPPUNIT_ASSERT_EQUAL(0.0, maxDiff(W, expected));
    CPPUNIT_ASSERT(maxDiff(W, ds.mass()) > 1e-3);  // the gyroscopic block is there
    // Ω = 0 or gyroscopic off: W = M exactly
    CPPUNIT_ASSERT_EQUAL(0.0, maxDiff(ds.computeIterationMatrix(
                                          0.0, ds.q(), SiconosVector{1, 2, 3, 0, 0, 0}, theta, h),
                                      ds.mass()));
    ds.setGyroscopic(false);
    CPPUNIT_ASSERT_EQUAL(0.0,
                         maxDiff(ds.computeIterationMatrix(0.0, ds.q(), v, theta, h), ds.mass()));
  }

  void integratePositionPureSpin() {
    const qn::Quat qk = qn::fromAxisAngle({0.3, -1.0, 0.5}, 0.8);
    NewtonEulerDS ds(unitQ(1, 2, 3, qk), SiconosVector(6), 1.0, fullInertia());
    for (double omegaH : {0.015, 1.0, 2.9}) {
      // spin ω about the body axis e_z over h: dv = h (v_lin, 0, 0, ω)
      const SiconosVector dv{0.25, -0.5, 0.125, 0.0, 0.0, omegaH};
      const SiconosVector q = ds.integratePosition(ds.q(), dv);
      CPPUNIT_ASSERT_EQUAL(std::size_t(7), q.size());
      CPPUNIT_ASSERT_EQUAL(1.25, q(0));
      CPPUNIT_ASSERT_EQUAL(1.5, q(1));
      CPPUNIT_ASSERT_EQUAL(3.125, q(2));
      const qn::Quat expected =
          qn::multiply(qk, qn::Quat{std::cos(omegaH / 2), 0.0, 0.0, std::sin(omegaH / 2)});
      for (std::size_t i = 0; i < 4; ++i)
        CPPUNIT_ASSERT_DOUBLES_EQUAL(expected[i], q(3 + i), 1e-15);
      // oblique unit axis (0.6, 0, 0.8)
      const SiconosVector dv2{0, 0, 0, 0.6 * omegaH, 0.0, 0.8 * omegaH};
      const SiconosVector q2 = ds.integratePosition(ds.q(), dv2);
      const double s = std::sin(omegaH / 2);
      const qn::Quat expected2 =
          qn::multiply(qk, qn::Quat{std::cos(omegaH / 2), 0.6 * s, 0.0, 0.8 * s});
      for (std::size_t i = 0; i < 4; ++i)
        CPPUNIT_ASSERT_DOUBLES_EQUAL(expected2[i], q2(3 + i), 1e-15);
    }
    // zero increment: q unchanged exactly
    const SiconosVector same = ds.integratePosition(ds.q(), SiconosVector(6));
    CPPUNIT_ASSERT_EQUAL(0.0, (same - ds.q()).normInf());
    CPPUNIT_ASSERT_THROW(ds.integratePosition(SiconosVector(6), SiconosVector(6)), Error);
    CPPUNIT_ASSERT_THROW(ds.integratePosition(ds.q(), SiconosVector(7)), Error);
  }

  void integratePositionIsBodyFrameIncrement() {
    // Body turned 90° about world z: its x axis points along world y. A spin φ about the
    // body x axis is then a rotation about world y: R_new = R_k R_x(φ) = R_y(φ) R_k.
    const double phi = 0.4;
    const qn::Quat qk = qn::fromAxisAngle({0, 0, 1}, M_PI / 2);
    NewtonEulerDS ds(unitQ(0, 0, 0, qk), SiconosVector(6), 1.0, SimpleMatrix::identity(3));
    const SiconosVector q = ds.integratePosition(ds.q(), SiconosVector{0, 0, 0, phi, 0, 0});
    const SimpleMatrix Rnew = qn::rotationMatrix(qn::fromVector(q));
    const SimpleMatrix Rk = qn::rotationMatrix(qk);
    const SimpleMatrix Rx = qn::rotationMatrix(qn::fromAxisAngle({1, 0, 0}, phi));
    const SimpleMatrix Ry = qn::rotationMatrix(qn::fromAxisAngle({0, 1, 0}, phi));
    CPPUNIT_ASSERT(maxDiff(Rnew, Rk * Rx) < 1e-15 * 4);
    CPPUNIT_ASSERT(maxDiff(Rnew, Ry * Rk) < 1e-15 * 4);
    // not the world-frame (left) increment R_x(φ) R_k
    CPPUNIT_ASSERT(maxDiff(Rnew, Rx * Rk) > 0.3);
    // same with quaternions: q_k ⊗ dq, not dq ⊗ q_k
    const qn::Quat dq = qn::fromAxisAngle({1, 0, 0}, phi);
    const qn::Quat right = qn::multiply(qk, dq), left = qn::multiply(dq, qk);
    double dRight = 0.0, dLeft = 0.0;
    for (std::size_t i = 0; i < 4; ++i) {
      dRight = std::max(dRight, std::abs(right[i] - q(3 + i)));
      dLeft = std::max(dLeft, std::abs(left[i] - q(3 + i)));
    }
    CPPUNIT_ASSERT(dRight < 1e-15);
    CPPUNIT_ASSERT(dLeft > 0.1);
  }

  void integratePositionDoesNotRenormalise() {
    NewtonEulerDS ds(restQ(), SiconosVector(6), 1.0, SimpleMatrix::identity(3));
    // q_k of norm 2: |q_k ⊗ exp(δ)| = 2 |exp(δ)| = 2, kept as is
    const SiconosVector qk{0, 0, 0, 1.0, -1.0, 1.0, 1.0};  // norm 2
    const SiconosVector q = ds.integratePosition(qk, SiconosVector{0, 0, 0, 0.3, 0.2, -0.1});
    CPPUNIT_ASSERT_DOUBLES_EQUAL(2.0, qn::norm(qn::fromVector(q)), 2e-15);
    // a unit q_k stays unit up to round-off after many steps (no renormalisation hides drift)
    SiconosVector u = unitQ(0, 0, 0, qn::fromAxisAngle({1, 2, 3}, 0.5));
    for (int k = 0; k < 1000; ++k)
      u = ds.integratePosition(u, SiconosVector{0, 0, 0, 0.01, -0.02, 0.03});
    CPPUNIT_ASSERT_DOUBLES_EQUAL(1.0, qn::norm(qn::fromVector(u)), 1e-12);
  }

  void kinematicMatrixIsDerivativeOfUpdate() {
    const qn::Quat r = qn::fromAxisAngle({0.3, -1.0, 0.5}, 0.8);
    NewtonEulerDS ds(unitQ(1, 2, 3, r), SiconosVector(6), 1.0, fullInertia());
    const SimpleMatrix T = ds.kinematicMatrix();
    CPPUNIT_ASSERT_EQUAL(std::size_t(7), T.rows());
    CPPUNIT_ASSERT_EQUAL(std::size_t(6), T.cols());
    CPPUNIT_ASSERT_EQUAL(0.0, maxDiff(T, NewtonEulerDS::kinematicMatrix(ds.q())));
    // entries by hand
    const SimpleMatrix Th = NewtonEulerDS::kinematicMatrix(SiconosVector{0, 0, 0, 1, 2, 3, 4});
    const SimpleMatrix expected{{1, 0, 0, 0, 0, 0},        {0, 1, 0, 0, 0, 0},
                                {0, 0, 1, 0, 0, 0},        {0, 0, 0, -1.0, -1.5, -2.0},
                                {0, 0, 0, 0.5, -2.0, 1.5}, {0, 0, 0, 2.0, 0.5, -1.0},
                                {0, 0, 0, -1.5, 1.0, 0.5}};
    CPPUNIT_ASSERT_EQUAL(0.0, maxDiff(Th, expected));
    CPPUNIT_ASSERT_THROW(NewtonEulerDS::kinematicMatrix(SiconosVector(6)), Error);
    // q̇ = T v: central difference of the update q_k ⊕ (±ε v)
    const SiconosVector v{0.4, -1.1, 0.7, 1.3, -0.7, 2.1};
    const SiconosVector Tv = T * v;
    const double eps = 1e-5;
    const SiconosVector d =
        (ds.integratePosition(ds.q(), eps * v) - ds.integratePosition(ds.q(), -eps * v)) /
        (2 * eps);
    for (std::size_t i = 0; i < 7; ++i) CPPUNIT_ASSERT_DOUBLES_EQUAL(Tv(i), d(i), 1e-9);
    // rotation block = ½ q ⊗ (0, Ω)
    const qn::Quat half = qn::multiply(r, qn::Quat{0.0, 1.3, -0.7, 2.1});
    for (std::size_t i = 0; i < 4; ++i)
      CPPUNIT_ASSERT_DOUBLES_EQUAL(0.5 * half[i], Tv(3 + i), 1e-15);
  }

  void energiesAndMomenta() {
    // m = 2, full I, body turned 90° about world z: R (x, y, z) = (−y, x, z)
    const qn::Quat r{std::sqrt(0.5), 0.0, 0.0, std::sqrt(0.5)};
    NewtonEulerDS ds(unitQ(1, 2, 3, r), SiconosVector{1, 2, 3, 0.1, 0.2, 0.3}, 2.0, fullInertia());
    CPPUNIT_ASSERT_EQUAL(0.0, ds.potentialEnergy(0.0));
    // IΩ = (0.22, 0.55, 1.16), ΩᵀIΩ = 0.48: K = ½·2·14 + ½·0.48
    CPPUNIT_ASSERT_DOUBLES_EQUAL(14.24, ds.kineticEnergy(), 1e-14);
    const SiconosVector x = ds.position();
    CPPUNIT_ASSERT_EQUAL(std::size_t(3), x.size());
    CPPUNIT_ASSERT_EQUAL(3.0, x(2));
    const SimpleMatrix R = ds.rotationMatrix();
    CPPUNIT_ASSERT(maxDiff(R, SimpleMatrix{{0, -1, 0}, {1, 0, 0}, {0, 0, 1}}) < 1e-15);
    const SiconosVector w = ds.angularVelocityWorld();
    CPPUNIT_ASSERT_DOUBLES_EQUAL(-0.2, w(0), 1e-15);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.1, w(1), 1e-15);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.3, w(2), 1e-15);
    const SiconosVector p = ds.linearMomentum();
    CPPUNIT_ASSERT_EQUAL(std::size_t(3), p.size());
    CPPUNIT_ASSERT_EQUAL(2.0, p(0));
    CPPUNIT_ASSERT_EQUAL(4.0, p(1));
    CPPUNIT_ASSERT_EQUAL(6.0, p(2));
    const SiconosVector L = ds.angularMomentumWorld();
    CPPUNIT_ASSERT_DOUBLES_EQUAL(-0.55, L(0), 1e-15);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.22, L(1), 1e-15);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(1.16, L(2), 1e-15);
    // gravity along −z on m = 2: V = −f·x = 19.62·3
    ds.setFExt(SiconosVector{0.0, 0.0, -19.62});
    CPPUNIT_ASSERT_DOUBLES_EQUAL(58.86, ds.potentialEnergy(0.0), 1e-13);
    ds.setFExt([](double t) { return SiconosVector{t, 0.0, 0.0}; });
    CPPUNIT_ASSERT_DOUBLES_EQUAL(-2.0, ds.potentialEnergy(2.0), 0.0);
    // the current state (not q0) is used
    ds.qMutable()(0) = 5.0;
    ds.velocityMutable()(3) = 0.0;
    CPPUNIT_ASSERT_DOUBLES_EQUAL(-10.0, ds.potentialEnergy(2.0), 0.0);
    // Ω = (0, 0.2, 0.3): ΩᵀIΩ = 0.2·0.2·3 − 2·0.2·0.3·0.2 + 0.09·4 = 0.456
    CPPUNIT_ASSERT_DOUBLES_EQUAL(14.0 + 0.228, ds.kineticEnergy(), 1e-14);
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(NewtonEulerDSTest);
