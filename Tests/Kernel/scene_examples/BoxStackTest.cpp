// Examples/BoxStack: 10 cubes of 0.2 m (μ = 0.5) resting on a plane, here for 2 s:
// the top box drifts less than 1e-4 m, no box moves faster than 1e-3 m/s in the last second.
#include <cppunit/extensions/HelperMacros.h>

#include <string>

#include "scene_check.hpp"

namespace {
namespace sc = nsdyn::test::scene;
}  // namespace

class BoxStackTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(BoxStackTest);
  CPPUNIT_TEST(topBoxDoesNotDrift);
  CPPUNIT_TEST(noJitterInTheLastSecond);
  CPPUNIT_TEST(fourContactsPerFace);
  CPPUNIT_TEST_SUITE_END();

  const nsdyn::test::ExampleCsv& csv() {
    return nsdyn::test::runExample("BoxStack", "--quiet --time 2");
  }

 public:
  void topBoxDoesNotDrift() {
    const auto& c = csv();
    CPPUNIT_ASSERT_EQUAL(std::size_t(2001), c.rowCount());
    const double drift = sc::maxAbs(c, "top_drift");
    CPPUNIT_ASSERT_MESSAGE("top drift " + std::to_string(drift) + " m", drift < 1e-4);
  }

  void noJitterInTheLastSecond() {
    const double speed = sc::maxAbs(csv(), "max_speed", 1.0);
    CPPUNIT_ASSERT_MESSAGE("max speed " + std::to_string(speed) + " m/s", speed < 1e-3);
  }

  // 10 box-box or box-plane faces, 4 contacts each, all in the problem, every step
  void fourContactsPerFace() {
    const auto& c = csv();
    for (std::size_t k = 1; k < c.rowCount(); ++k) {
      CPPUNIT_ASSERT_EQUAL(40.0, sc::at(c, k, "contacts"));
      CPPUNIT_ASSERT_EQUAL(40.0, sc::at(c, k, "active"));
    }
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(BoxStackTest);
