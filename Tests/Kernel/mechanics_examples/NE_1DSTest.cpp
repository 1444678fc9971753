// Examples/NE_1DS: a free body spinning about its body z axis under gravity,
// Moreau-Jean theta = 1 + Newton (MECHANICS.md §3a).
#include <cppunit/extensions/HelperMacros.h>

#include <cmath>
#include <cstdio>

#include "mechanics_check.hpp"

namespace {

namespace mech = nsdyn::test::mech;
constexpr double kH = 0.01, kG = 9.81;
using mech::ne1ds::kQ0;
using mech::ne1ds::kX0;

}  // namespace

class NE_1DSTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(NE_1DSTest);
  CPPUNIT_TEST(hasDocumentedShape);
  CPPUNIT_TEST(spinsAtConstantRateAboutBodyZ);
  CPPUNIT_TEST(centreOfMassFollowsTheImplicitEulerTrajectory);
  CPPUNIT_TEST(oneNewtonIterationAndConstantVelocity);
  CPPUNIT_TEST_SUITE_END();

  const nsdyn::test::ExampleCsv& csv() { return nsdyn::test::runExample("NE_1DS"); }
  const nsdyn::test::ExampleCsv& diag() {
    return nsdyn::test::runExample("NE_1DS", "--diagnostics");
  }

 public:
  // 1000 rows, no initial row (row k: after step k+1), t, q[0..6], 14 zero columns.
  void hasDocumentedShape() { mech::assertStepRows(csv(), 1000, 22, kH, 8); }

  // Ω = (0, 0, 100) stays constant (IΩ ∥ Ω: no gyroscopic torque), so each step
  // multiplies the quaternion on the right by the body-frame increment of
  // h Ω = (0, 0, 1): after n steps q_n = q0 ⊗ (cos(n/2), 0, 0, sin(n/2)).
  void spinsAtConstantRateAboutBodyZ() {
    const auto& c = csv();
    double err = 0.0, normErr = 0.0;
    for (std::size_t k = 0; k < c.rowCount(); ++k) {
      const double n = double(k + 1);
      const mech::Quat expected = mech::mul(kQ0, {std::cos(n / 2.0), 0.0, 0.0, std::sin(n / 2.0)});
      const mech::Quat q = mech::orientation(c, k, 1);
      for (std::size_t i = 0; i < 4; ++i) err = std::max(err, std::fabs(q[i] - expected[i]));
      normErr = std::max(normErr, std::fabs(mech::norm(q) - 1.0));
    }
    std::printf("\n  NE_1DS: max |q - q0 (x) exp(n h Omega)| = %.3e, max ||q| - 1| = %.3e\n", err,
                normErr);
    CPPUNIT_ASSERT(err <= 1e-12);
    CPPUNIT_ASSERT(normErr <= 1e-13);
  }

  // theta = 1: v_{n} = v_{n-1} + h g, x_n = x_{n-1} + h v_n, so with v0 = (100, 0, 0)
  // x_n = x0 + 100 n h,  y_n = 0,  z_n = z0 - g h^2 n (n + 1) / 2.
  void centreOfMassFollowsTheImplicitEulerTrajectory() {
    const auto& c = csv();
    double err = 0.0;
    for (std::size_t k = 0; k < c.rowCount(); ++k) {
      const double n = double(k + 1);
      const mech::Vec3 expected{kX0[0] + 100.0 * n * kH, 0.0,
                                kX0[2] - kG * kH * kH * n * (n + 1.0) / 2.0};
      for (std::size_t i = 0; i < 3; ++i)
        err = std::max(
            err, std::fabs(c(k, 1 + i) - expected[i]) / std::max(1.0, std::fabs(expected[i])));
    }
    std::printf(
        "\n  NE_1DS: max relative error of the centre of mass against the theta = 1 solution %.3e"
        " (final z = %.10f)\n",
        err, c(c.rowCount() - 1, 3));
    CPPUNIT_ASSERT(err <= 1e-13);
    CPPUNIT_ASSERT_EQUAL(0.0, mech::columnMax(c, 2));
    CPPUNIT_ASSERT_EQUAL(0.0, mech::columnMin(c, 2));
  }

  // Diagnostics run: one Newton iteration per step, v_n = (100, 0, -g h n, 0, 0, 100);
  // the 22 reference columns are those of the plain run.
  void oneNewtonIterationAndConstantVelocity() {
    const auto& d = diag();
    CPPUNIT_ASSERT_EQUAL(std::size_t(29), d.columnCount());
    mech::assertSameLeadingColumns(csv(), d, 22);
    for (std::size_t k = 0; k < d.rowCount(); ++k) {
      const double n = double(k + 1);
      CPPUNIT_ASSERT_EQUAL(1.0, d(k, 22));
      const double v[6] = {100.0, 0.0, -kG * kH * n, 0.0, 0.0, 100.0};
      for (std::size_t i = 0; i < 6; ++i)
        CPPUNIT_ASSERT_DOUBLES_EQUAL(v[i], d(k, 23 + i), 1e-12 * (1.0 + std::fabs(v[i])));
    }
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(NE_1DSTest);
