// Examples/ClothDrape: a cloth square (SheetMaterial) dropped on a rigid sphere resting on a
// table drapes over it; then cut at the middle of one edge and pulled apart by its side edges,
// it tears along the cut's line. Its XML twin (ClothDrape.xml, the drape) runs as the driver
// without drag.
#include <cppunit/extensions/HelperMacros.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "pd_example_check.hpp"

namespace {

namespace dc = nsdyn::test::pd;

// The reduced run: dx = 5 cm (256 points), drape 0.6 s, pull 0.5 s, no VTK. Sphere R = 0.2 m
// on the table z = 0; contact radius dx/4; the cloth starts at z = 2R + dx/4 + 0.02.
const nsdyn::test::ExampleCsv& coarse() {
  return nsdyn::test::runExample(
      "ClothDrape", "--quiet --spacing 0.05 --drape-time 0.6 --pull --pull-time 0.5 --frames 0");
}
constexpr double kR = 0.2, kContact = 0.0125, kStart = 2.0 * kR + kContact + 0.02;

/// The last row of phase 1 (the drape).
std::size_t draped(const nsdyn::test::ExampleCsv& c) {
  std::size_t k = 0;
  while (k + 1 < c.rowCount() && dc::at(c, k + 1, "phase") == 1.0) ++k;
  return k;
}

}  // namespace

class ClothDrapeTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(ClothDrapeTest);
  CPPUNIT_TEST(drapesOverTheSphere);
  CPPUNIT_TEST(noPointInsideTheSphere);
  CPPUNIT_TEST(tearsAlongTheCutLine);
  CPPUNIT_TEST(xmlTwinDrapesLikeTheDriver);
  CPPUNIT_TEST(notchLongerThanHalfTheSideIsRefused);
  CPPUNIT_TEST_SUITE_END();

 public:
  // The centre rests on the sphere's top (above the table, below its start), the corners hang
  // below it, the cloth touches the sphere, and nothing broke while it draped.
  void drapesOverTheSphere() {
    const auto& c = coarse();
    const std::size_t k = draped(c);
    CPPUNIT_ASSERT(dc::at(c, k, "t") > 0.59);
    const double centre = dc::at(c, k, "z_centre");
    CPPUNIT_ASSERT_MESSAGE("centre " + std::to_string(centre),
                           centre < kStart - 0.01 && centre > 2.0 * kR);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(2.0 * kR + kContact, centre, 0.01);
    CPPUNIT_ASSERT(dc::at(c, k, "z_corners") < centre - 0.03);
    CPPUNIT_ASSERT(dc::at(c, k, "z_lowest") > 0.0);
    CPPUNIT_ASSERT(dc::at(c, k, "contact_points") > 0.0);
    for (std::size_t j = 0; j <= k; ++j) CPPUNIT_ASSERT_EQUAL(0.0, dc::at(c, j, "broken_bonds"));
    // it fell: gravity energy went into motion, then out through the contacts and the drag
    CPPUNIT_ASSERT(dc::at(c, k, "potential") < dc::at(c, 0, "potential"));
    CPPUNIT_ASSERT(dc::at(c, k, "kinetic") <
                   1e-2 * (dc::at(c, 0, "potential") - dc::at(c, k, "potential")));
  }

  // No point deeper than a tenth of its contact radius inside the sphere at any sample of the
  // drape (measured 0.65 mm for a radius of 12.5 mm).
  void noPointInsideTheSphere() {
    const auto& c = coarse();
    for (std::size_t j = 0; j <= draped(c); ++j)
      CPPUNIT_ASSERT_MESSAGE("inside by " + std::to_string(dc::at(c, j, "inside_sphere")),
                             dc::at(c, j, "inside_sphere") < 0.1 * kContact);
  }

  // The cut (x = 0 from the edge y = -0.4 to y = -0.2) opens into a tear along x = 0 that
  // crosses the centre: most of the broken bonds lie within 1.5 dx of the line.
  void tearsAlongTheCutLine() {
    const auto& c = coarse();
    const std::size_t k = draped(c);
    const double cut = dc::at(c, k + 1, "broken_bonds");
    CPPUNIT_ASSERT(cut > 0.0);
    CPPUNIT_ASSERT_EQUAL(cut, dc::at(c, k + 1, "line_bonds"));
    const double broken = dc::last(c, "broken_bonds"), line = dc::last(c, "line_bonds");
    CPPUNIT_ASSERT_MESSAGE("broken " + std::to_string(broken), broken > cut + 50.0);
    CPPUNIT_ASSERT_MESSAGE("on the line " + std::to_string(line), line > 0.5 * broken);
    CPPUNIT_ASSERT(line > cut + 50.0);
    CPPUNIT_ASSERT_MESSAGE("tip " + std::to_string(dc::last(c, "tear_tip")),
                           dc::last(c, "tear_tip") > 0.1);
  }

  // ClothDrape.xml (the drape, no air drag) with the coarse cloth over 0.2 s (it lands at
  // 0.065 s) against the driver with --drag 0 and a row every 5 steps: the same scene, so the
  // same motion (the XML sets the driver's detection margin). At each of the 41 rows the gravity
  // energy, the kinetic energy and the highest point agree within 1e-9 (measured: equal) and
  // the contacts are the same; at the end the cloth rests on the sphere's top
  // (highest point within 1 cm of 2R + dx/4, 1 cm below its start), touches it, and the
  // deepest point inside the sphere agrees within 1 µm (the XML's from the gaps at the
  // last step's start, the driver's from the positions at its end: 0.052 mm both).
  void xmlTwinDrapesLikeTheDriver() {
    const nsdyn::test::ExampleCsv x = dc::runXml("ClothDrape", "--set dx=0.05 --set T=0.2");
    const auto& c = nsdyn::test::runExample(
        "ClothDrape", "--quiet --spacing 0.05 --drape-time 0.2 --drag 0 --frames 0 --samples 40");
    CPPUNIT_ASSERT_EQUAL(std::size_t(41), x.rowCount());
    CPPUNIT_ASSERT_EQUAL(x.rowCount(), c.rowCount());
    for (std::size_t k = 0; k < x.rowCount(); ++k) {
      CPPUNIT_ASSERT_DOUBLES_EQUAL(dc::at(c, k, "t"), dc::at(x, k, "t"), 1e-12);
      CPPUNIT_ASSERT_DOUBLES_EQUAL(dc::at(c, k, "potential"), dc::at(x, k, "potential"), 1e-9);
      CPPUNIT_ASSERT_DOUBLES_EQUAL(dc::at(c, k, "kinetic"), dc::at(x, k, "kinetic"), 1e-9);
      CPPUNIT_ASSERT_DOUBLES_EQUAL(dc::at(c, k, "z_highest"), dc::at(x, k, "z_highest"), 1e-9);
      CPPUNIT_ASSERT_EQUAL(dc::at(c, k, "contacts"), dc::at(x, k, "contacts"));
    }
    // the mean height from the gravity energy: M = rho t L^2 = 0.096 kg
    CPPUNIT_ASSERT_DOUBLES_EQUAL(kStart, dc::at(x, 0, "z_mean"), 1e-12);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(dc::last(c, "potential") / (0.096 * 9.81), dc::last(x, "z_mean"),
                                 1e-12);
    const double top = dc::last(x, "z_highest");
    CPPUNIT_ASSERT_MESSAGE("top " + std::to_string(top), top < kStart - 0.01);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(2.0 * kR + kContact, top, 0.01);
    CPPUNIT_ASSERT(dc::last(x, "z_mean") < top - 0.03);  // the sides hang
    CPPUNIT_ASSERT(dc::last(x, "contacts") > 0.0);
    CPPUNIT_ASSERT(dc::last(x, "deepest") > 0.0);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(dc::last(c, "inside_sphere"), dc::last(x, "deepest"), 1e-6);
    CPPUNIT_ASSERT(dc::last(x, "deepest") < 0.1 * kContact);
  }

  void notchLongerThanHalfTheSideIsRefused() {
    const dc::ExampleRun run = dc::runStatus("ClothDrape", "--quiet --notch 0.5");
    CPPUNIT_ASSERT_EQUAL(2, run.status);
    CPPUNIT_ASSERT(run.output.find("--notch 0.5 must be shorter than half the side 0.8 m") !=
                   std::string::npos);
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(ClothDrapeTest);
