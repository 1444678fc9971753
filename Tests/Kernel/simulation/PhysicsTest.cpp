// Physics checks of Moreau-Jean time-stepping on a bouncing ball (issue 4, point 9).
#include <cppunit/extensions/HelperMacros.h>

#include <algorithm>
#include <cmath>

#include "sim_helpers.hpp"

using namespace nsdyn;
using nsdyn::test::makeBall;

namespace {
constexpr double kG = 9.81;

struct Run {
  double maxEnergyError = 0.0;  // max |E - E0| / E0 over the run
  double minZ = 1.0;
  double finalZ = 0.0, finalV = 0.0;
  int impacts = 0;
};

Run dropBall(double e, double h, double T) {
  auto b = makeBall(1.0, 0.0, e, h, T);
  const double e0 = kG * 1.0;
  Run r;
  while (b.sim->hasNextEvent()) {
    b.sim->computeOneStep();
    const double z = b.ds->q()(0), v = b.ds->velocity()(0);
    r.maxEnergyError = std::max(r.maxEnergyError, std::fabs(0.5 * v * v + kG * z - e0) / e0);
    r.minZ = std::min(r.minZ, z);
    if (b.floor->lambda(1)(0) > 0.0) ++r.impacts;
    b.sim->nextStep();
  }
  r.finalZ = b.ds->q()(0);
  r.finalV = b.ds->velocity()(0);
  return r;
}
}  // namespace

class PhysicsTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(PhysicsTest);
  CPPUNIT_TEST(elasticBounceKeepsEnergy);
  CPPUNIT_TEST(plasticImpactComesToRest);
  CPPUNIT_TEST(penetrationIsOrderH);
  CPPUNIT_TEST(apexesShrinkByESquared);
  CPPUNIT_TEST_SUITE_END();

 public:
  void elasticBounceKeepsEnergy() {
    // e = 1: the energy on the grid stays within O(h^2) of its initial value.
    // (With theta = 1/2 and the impact step giving v_{k+1} = -v_k it is in
    // fact kept to round-off, so the bound holds with room to spare.)
    for (double h : {4e-3, 2e-3, 1e-3}) {
      const Run r = dropBall(1.0, h, 3.0);
      CPPUNIT_ASSERT(r.impacts >= 3);
      CPPUNIT_ASSERT_MESSAGE(std::to_string(r.maxEnergyError), r.maxEnergyError < h * h);
      CPPUNIT_ASSERT_MESSAGE(std::to_string(r.maxEnergyError), r.maxEnergyError < 1e-12);
    }
  }

  void plasticImpactComesToRest() {
    // e = 0: after the first impact the ball stays on the floor, velocity 0
    const double h = 1e-3;
    const Run r = dropBall(0.0, h, 1.0);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, r.finalV, 1e-12);
    CPPUNIT_ASSERT(std::fabs(r.finalZ) <= 4.43 * h);  // rests within one step of travel
    CPPUNIT_ASSERT(r.finalZ <= 0.0);
  }

  void penetrationIsOrderH() {
    // the deepest penetration is below |v_impact| h (|v| = sqrt(2 g) for a 1 m drop)
    const double vImpact = std::sqrt(2.0 * kG);
    for (double h : {4e-3, 2e-3, 1e-3}) {
      const Run r = dropBall(0.9, h, 3.0);
      CPPUNIT_ASSERT_MESSAGE(std::to_string(r.minZ), r.minZ > -vImpact * h);
    }
  }

  void apexesShrinkByESquared() {
    // successive apexes (grid maxima) in the ratio e^2 within O(h)
    auto b = makeBall(1.0, 0.0, 0.9, 1e-3, 4.0);
    std::vector<double> apex;
    double prevV = 0.0;
    while (b.sim->hasNextEvent()) {
      b.sim->computeOneStep();
      const double v = b.ds->velocity()(0);
      if (prevV > 0.0 && v <= 0.0) apex.push_back(b.ds->q()(0));
      prevV = v;
      b.sim->nextStep();
    }
    CPPUNIT_ASSERT(apex.size() >= 3);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.81, apex[0], 1e-2);
    for (std::size_t i = 1; i < apex.size(); ++i)
      CPPUNIT_ASSERT_DOUBLES_EQUAL(0.81, apex[i] / apex[i - 1], 1e-2);
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(PhysicsTest);
