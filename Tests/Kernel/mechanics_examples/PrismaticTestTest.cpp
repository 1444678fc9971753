// Examples/PrismaticTest: a tilted body sliding down a vertical prismatic joint,
// Moreau-Jean theta = 1 + Newton, equality problem (MECHANICS.md §5).
#include <cppunit/extensions/HelperMacros.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "mechanics_check.hpp"

namespace {

namespace mech = nsdyn::test::mech;
constexpr double kH = 0.001, kG = 9.81;
const double kPi = std::acos(-1.0), kS14 = std::sqrt(14.0);
const mech::Quat kQ0{std::cos(kPi / 5.0), 3.0 / kS14* std::sin(kPi / 5.0),
                     2.0 / kS14* std::sin(kPi / 5.0), 1.0 / kS14* std::sin(kPi / 5.0)};
enum { NEWTON = 8, Y0 = 9, Y1 = 10, V = 11 };

}  // namespace

class PrismaticTestTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(PrismaticTestTest);
  CPPUNIT_TEST(hasDocumentedShape);
  CPPUNIT_TEST(orientationAndHorizontalPositionUnchanged);
  CPPUNIT_TEST(fallsAlongZAsTheImplicitEulerScheme);
  CPPUNIT_TEST(jointHeldWithOneNewtonIteration);
  CPPUNIT_TEST_SUITE_END();

  const nsdyn::test::ExampleCsv& csv() { return nsdyn::test::runExample("PrismaticTest"); }
  const nsdyn::test::ExampleCsv& diag() {
    return nsdyn::test::runExample("PrismaticTest", "--diagnostics");
  }

 public:
  // 2000 rows, no initial row, t, q[0..6].
  void hasDocumentedShape() { mech::assertStepRows(csv(), 2000, 8, kH, 8); }

  void orientationAndHorizontalPositionUnchanged() {
    const auto& c = csv();
    double errQ = 0.0, errXY = 0.0;
    for (std::size_t k = 0; k < c.rowCount(); ++k) {
      const mech::Quat q = mech::orientation(c, k, 1);
      for (std::size_t i = 0; i < 4; ++i) errQ = std::max(errQ, std::fabs(q[i] - kQ0[i]));
      errXY = std::max({errXY, std::fabs(c(k, 1) - 1.0), std::fabs(c(k, 2) - 1.0)});
    }
    std::printf("\n  PrismaticTest: max |q - q0| = %.1e, max |x - 1|, |y - 1| = %.1e\n", errQ,
                errXY);
    CPPUNIT_ASSERT(errQ <= 1e-12);
    CPPUNIT_ASSERT(errXY <= 1e-12);
  }

  // theta = 1 free fall along the slider: v_n = -g h n, z_n = 1 - g h^2 n (n + 1) / 2.
  void fallsAlongZAsTheImplicitEulerScheme() {
    const auto& c = csv();
    double err = 0.0;
    for (std::size_t k = 0; k < c.rowCount(); ++k) {
      const double n = double(k + 1);
      const double z = 1.0 - kG * kH * kH * n * (n + 1.0) / 2.0;
      err = std::max(err, std::fabs(c(k, 3) - z) / std::max(1.0, std::fabs(z)));
    }
    std::printf(
        "\n  PrismaticTest: max relative error of z against the theta = 1 solution %.1e (final z = "
        "%.10f)\n",
        err, c(c.rowCount() - 1, 3));
    CPPUNIT_ASSERT(err <= 1e-12);
  }

  // Diagnostics: h(q) and H v stay at round-off, v = (0, 0, -g h n, 0, 0, 0), one Newton iteration.
  void jointHeldWithOneNewtonIteration() {
    const auto& d = diag();
    CPPUNIT_ASSERT_EQUAL(std::size_t(17), d.columnCount());
    mech::assertSameLeadingColumns(csv(), d, 8);
    CPPUNIT_ASSERT_EQUAL(1.0, mech::columnMin(d, NEWTON));
    CPPUNIT_ASSERT_EQUAL(1.0, mech::columnMax(d, NEWTON));
    std::printf("\n  PrismaticTest: max ||y0|| %.1e, max ||y1|| %.1e\n", mech::columnMax(d, Y0),
                mech::columnMax(d, Y1));
    CPPUNIT_ASSERT(mech::columnMax(d, Y0) <= 1e-13);
    CPPUNIT_ASSERT(mech::columnMax(d, Y1) <= 1e-13);
    for (std::size_t k = 0; k < d.rowCount(); ++k) {
      const double v[6] = {0.0, 0.0, -kG * kH * double(k + 1), 0.0, 0.0, 0.0};
      for (std::size_t i = 0; i < 6; ++i) CPPUNIT_ASSERT_DOUBLES_EQUAL(v[i], d(k, V + i), 1e-12);
    }
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(PrismaticTestTest);
