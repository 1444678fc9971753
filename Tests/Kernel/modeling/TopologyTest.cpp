// Topology and NonSmoothDynamicalSystem (Kernel/src/modeling).
#include <cppunit/extensions/HelperMacros.h>

#include <nsdyn/Kernel.hpp>

using namespace nsdyn;

namespace {
SP::LagrangianLinearTIDS bead(double z) {
  return std::make_shared<LagrangianLinearTIDS>(SiconosVector{z}, SiconosVector{0.0},
                                                SimpleMatrix{{1.0}});
}
SP::Interaction contact(double e, std::size_t dof) {
  SimpleMatrix H(1, dof);
  H(0, dof - 1) = 1.0;
  if (dof == 2) H(0, 0) = -1.0;
  return std::make_shared<Interaction>(std::make_shared<NewtonImpactNSL>(e),
                                       std::make_shared<LagrangianLinearTIR>(H));
}
}  // namespace

class TopologyTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(TopologyTest);
  CPPUNIT_TEST(graphOfSystemsAndInteractions);
  CPPUNIT_TEST(unitaryRelationsFollowTheLaw);
  CPPUNIT_TEST(removeInteraction);
  CPPUNIT_TEST(unlinkedInteractionRejected);
  CPPUNIT_TEST_SUITE_END();

 public:
  void graphOfSystemsAndInteractions() {
    NonSmoothDynamicalSystem nsds;
    auto b0 = bead(0.0), b1 = bead(1.0), b2 = bead(2.0);
    auto floor = contact(0.9, 1), c01 = contact(0.9, 2), c12 = contact(0.9, 2);
    nsds.link(floor, b0);
    nsds.link(c01, b0, b1);
    nsds.link(c12, b1, b2);
    CPPUNIT_ASSERT_EQUAL(std::size_t(3), nsds.numberOfDynamicalSystems());
    CPPUNIT_ASSERT_EQUAL(std::size_t(3), nsds.numberOfInteractions());
    const Topology& topo = nsds.topology();
    CPPUNIT_ASSERT_EQUAL(std::size_t(2), topo.interactionsOf(*b1).size());
    CPPUNIT_ASSERT_EQUAL(std::size_t(2), topo.interactionsOf(*b0).size());
    const IndexSet& i0 = topo.indexSet(0);
    CPPUNIT_ASSERT_EQUAL(std::size_t(3), i0.size());
    // floor and c12 share no system, c01 and c12 share b1
    CPPUNIT_ASSERT(topo.commonSystems(*i0[0], *i0[2]).empty());
    CPPUNIT_ASSERT_EQUAL(std::size_t(1), topo.commonSystems(*i0[1], *i0[2]).size());
    CPPUNIT_ASSERT(topo.commonSystems(*i0[1], *i0[2]).front() == b1);
    CPPUNIT_ASSERT(nsds.dynamicalSystem(b2->number()) == b2);
    CPPUNIT_ASSERT_THROW(nsds.link(floor, b1), Error);  // already linked
  }

  void unitaryRelationsFollowTheLaw() {
    NonSmoothDynamicalSystem nsds;
    auto ds = std::make_shared<LagrangianLinearTIDS>(SiconosVector(2), SiconosVector(2),
                                                     SimpleMatrix::identity(2));
    auto two = std::make_shared<Interaction>(
        std::make_shared<NewtonImpactNSL>(0.5, 2),
        std::make_shared<LagrangianLinearTIR>(SimpleMatrix::identity(2)));
    auto friction = std::make_shared<Interaction>(
        std::make_shared<NewtonImpactFrictionNSL>(0.0, 0.0, 0.3, 2),
        std::make_shared<LagrangianLinearTIR>(SimpleMatrix::identity(2)));
    nsds.link(two, ds);
    nsds.link(friction, ds);
    const IndexSet& i0 = nsds.topology().indexSet(0);
    CPPUNIT_ASSERT_EQUAL(std::size_t(3), i0.size());  // two rows + one friction block
    CPPUNIT_ASSERT_EQUAL(std::size_t(1), i0[1]->relativePosition());
    CPPUNIT_ASSERT_EQUAL(std::size_t(2), i0[2]->size());
  }

  void removeInteraction() {
    NonSmoothDynamicalSystem nsds;
    auto b0 = bead(0.0);
    auto c = contact(0.9, 1);
    nsds.link(c, b0);
    const unsigned long rev = nsds.topology().revision();
    CPPUNIT_ASSERT(nsds.removeInteraction(c));
    CPPUNIT_ASSERT(nsds.topology().revision() > rev);
    CPPUNIT_ASSERT_EQUAL(std::size_t(0), nsds.numberOfInteractions());
    CPPUNIT_ASSERT(nsds.topology().indexSet(0).empty());
    CPPUNIT_ASSERT(!nsds.removeInteraction(c));
    nsds.link(c, b0);  // linked again
    CPPUNIT_ASSERT_EQUAL(std::size_t(1), nsds.topology().indexSet(0).size());
  }

  void unlinkedInteractionRejected() {
    NonSmoothDynamicalSystem nsds;
    nsds.insertDynamicalSystem(bead(0.0));
    nsds.insertInteraction(contact(0.9, 1));
    try {
      nsds.checkConsistency();
      CPPUNIT_FAIL("unlinked interaction accepted");
    } catch (const Error& e) {
      CPPUNIT_ASSERT(std::string(e.what()).find("0 systems") != std::string::npos);
    }
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(TopologyTest);
