// Examples/KaplaTower: 12 layers of 2 planks (reduced from the default) standing for
// 0.1 s: the top layer stays in place, each crossing of two planks has 4 contacts.
#include <cppunit/extensions/HelperMacros.h>

#include <string>

#include "scene_check.hpp"

namespace {
namespace sc = nsdyn::test::scene;
}  // namespace

class KaplaTowerTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(KaplaTowerTest);
  CPPUNIT_TEST(towerStaysUp);
  CPPUNIT_TEST(crossingsHaveFourContacts);
  CPPUNIT_TEST_SUITE_END();

  const nsdyn::test::ExampleCsv& csv() {
    return nsdyn::test::runExample("KaplaTower",
                                   "--quiet --layers 12 --per-layer 2 --time 0.1 --threads 1");
  }

 public:
  void towerStaysUp() {
    const auto& c = csv();
    CPPUNIT_ASSERT_EQUAL(std::size_t(101), c.rowCount());
    const double top = sc::maxAbs(c, "top_displacement");
    CPPUNIT_ASSERT_MESSAGE("top displacement " + std::to_string(top) + " m", top < 1e-6);
    const double speed = sc::maxAbs(c, "max_speed");
    CPPUNIT_ASSERT_MESSAGE("max speed " + std::to_string(speed) + " m/s", speed < 1e-4);
  }

  // 11 interfaces of 2 x 2 crossings and 2 planks on the floor, 4 points each: 184
  void crossingsHaveFourContacts() {
    const auto& c = csv();
    for (std::size_t k = 1; k < c.rowCount(); ++k) {
      CPPUNIT_ASSERT_EQUAL(4.0, sc::at(c, k, "max_pair_contacts"));
      CPPUNIT_ASSERT_EQUAL(184.0, sc::at(c, k, "contacts"));
    }
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(KaplaTowerTest);
