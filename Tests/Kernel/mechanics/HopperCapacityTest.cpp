// The hopper generator's capacity (Kernel/src/mechanics/scenes/Hopper.cpp): hopperVolume
// against the volume of the generated plates integrated by Simpson's rule (exact for the
// quadratic cross-sections), hopperTopWidth as its inverse, the sizing of
// Examples/HopperDischarge at its documented size (issue 24: the funnel held 0.46 m³ for
// 2.27 m³ of spheres), bad input.
#include <cppunit/extensions/HelperMacros.h>

#include <cmath>
#include <iostream>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include <nsdyn/BoxShape.hpp>
#include <nsdyn/Error.hpp>
#include <nsdyn/SceneGenerators.hpp>

using namespace nsdyn;
using namespace nsdyn::scenes;
using Vec3 = Shape::Vec3;

namespace {

constexpr double degree = M_PI / 180.0;

// The inner face's edge of a plate at local x = ±half length (up the slope: +).
Vec3 innerEdge(const StaticPart& part, double side) {
  const auto box = std::dynamic_pointer_cast<const BoxShape>(part.body.shapes().at(0).shape);
  CPPUNIT_ASSERT(box);
  const Vec3 h = box->halfExtents();
  const Vec3 d = quaternion::rotate(part.body.orientation(), {side * h[0], 0.0, h[2]});
  const Vec3 p = part.body.position();
  return {p[0] + d[0], p[1] + d[1], p[2] + d[2]};
}

// The volume between the +x and −x plates' inner faces from the outlet to the top edges,
// read from the generated parts: the gap between the faces grows linearly with height, so
// the cross-section is gap² (4 plates) or gap · depth (2 plates) and Simpson's rule is exact.
double volumeOfParts(const std::vector<StaticPart>& parts, int plates, double depth) {
  const Vec3 lowPlus = innerEdge(parts[0], -1.0), lowMinus = innerEdge(parts[1], -1.0);
  const Vec3 topPlus = innerEdge(parts[0], 1.0), topMinus = innerEdge(parts[1], 1.0);
  const double w = lowPlus[0] - lowMinus[0], W = topPlus[0] - topMinus[0];
  const double H = topPlus[2] - lowPlus[2];
  CPPUNIT_ASSERT_DOUBLES_EQUAL(topPlus[2], topMinus[2], 1e-12);
  auto area = [&](double gap) { return plates == 4 ? gap * gap : gap * depth; };
  return H / 6.0 * (area(w) + 4.0 * area(0.5 * (w + W)) + area(W));
}

template <class F>
void assertError(F f, const std::vector<std::string>& words) {
  try {
    f();
  } catch (const Error& e) {
    const std::string what = e.what();
    for (const std::string& w : words)
      if (what.find(w) == std::string::npos) {
        std::cerr << "message: " << what << "\nmissing: " << w << "\n";
        CPPUNIT_FAIL("error message incomplete");
      }
    return;
  }
  CPPUNIT_FAIL("no nsdyn::Error thrown");
}

}  // namespace

class HopperCapacityTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(HopperCapacityTest);
  CPPUNIT_TEST(volumeOfTheGeneratedFunnel);
  CPPUNIT_TEST(topWidthInvertsVolume);
  CPPUNIT_TEST(exampleFunnelHoldsItsSpheres);
  CPPUNIT_TEST(badInput);
  CPPUNIT_TEST_SUITE_END();

 public:
  void volumeOfTheGeneratedFunnel() {
    HopperSpec h;
    h.outletWidth = 0.3;
    h.topWidth = 1.2;
    h.angle = 60 * degree;
    // (1.2³ − 0.3³) tan 60° / 6 = 0.491 m³
    CPPUNIT_ASSERT_DOUBLES_EQUAL((1.728 - 0.027) * std::sqrt(3.0) / 6.0, hopperVolume(h), 1e-12);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(volumeOfParts(hopper(h), 4, 0.0), hopperVolume(h), 1e-12);
    h.plates = 2;
    h.depth = 0.4;
    h.angle = 40 * degree;
    CPPUNIT_ASSERT_DOUBLES_EQUAL(volumeOfParts(hopper(h), 2, 0.4), hopperVolume(h), 1e-12);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.4 * (1.44 - 0.09) * std::tan(40 * degree) / 4.0, hopperVolume(h),
                                 1e-12);
  }

  void topWidthInvertsVolume() {
    HopperSpec h;
    h.outletWidth = 0.2;
    h.angle = 55 * degree;
    h.topWidth = -1.0;  // not read
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.2, hopperTopWidth(h, 0.0), 1e-15);
    for (int plates : {4, 2})
      for (double volume : {0.01, 0.5, 3.0}) {
        h.plates = plates;
        h.topWidth = hopperTopWidth(h, volume);
        CPPUNIT_ASSERT(h.topWidth > h.outletWidth);
        CPPUNIT_ASSERT_DOUBLES_EQUAL(volume, hopperVolume(h), 1e-12 * volume);
        CPPUNIT_ASSERT_DOUBLES_EQUAL(volume, volumeOfParts(hopper(h), plates, h.depth),
                                     1e-12 * volume);
      }
  }

  // Examples/HopperDischarge at 20,000 spheres (radius 2.5 cm ± 20 %): the spheres fill
  // N (4/3) π r³ (1 + s²) / 0.6 = 2.27 m³ at packing fraction 0.6. The funnel of before
  // (top 0.6 cbrt(bounding / 0.3) = 1.18 m) held 0.46 m³ and overflowed; the example now
  // asks hopperTopWidth for 1.25 times the spheres' volume: 2.14 m, 2.84 m³.
  void exampleFunnelHoldsItsSpheres() {
    const double count = 20000, r = 0.025, s = 0.2, rmax = r * (1 + s);
    const double settled = count * 4.0 / 3.0 * M_PI * r * r * r * (1 + s * s) / 0.6;
    CPPUNIT_ASSERT_DOUBLES_EQUAL(2.27, settled, 0.005);
    HopperSpec h;
    h.outletWidth = 0.3;
    h.topWidth = 0.6 * std::cbrt(count * 4.0 / 3.0 * M_PI * rmax * rmax * rmax / 0.3);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.46, hopperVolume(h), 0.005);  // before: overflows
    h.topWidth = std::max(1.0, hopperTopWidth(h, 1.25 * settled));
    CPPUNIT_ASSERT_DOUBLES_EQUAL(2.14, h.topWidth, 0.005);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(1.25, hopperVolume(h) / settled, 1e-12);
  }

  void badInput() {
    HopperSpec h;
    assertError([&] { hopperTopWidth(h, -1.0); }, {"hopper", "volume = -1"});
    assertError([&] { hopperTopWidth(h, std::numeric_limits<double>::quiet_NaN()); },
                {"hopper", "volume = nan"});
    h.angle = 0.0;
    assertError([&] { hopperTopWidth(h, 1.0); }, {"hopper", "angle = 0"});
    h.angle = 1.0;
    h.plates = 2;
    h.depth = 0.0;
    assertError([&] { hopperTopWidth(h, 1.0); }, {"hopper", "depth = 0"});
    h.plates = 4;
    h.topWidth = 0.1;
    assertError([&] { hopperVolume(h); }, {"hopper", "topWidth = 0.1"});
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(HopperCapacityTest);
