// LagrangianDS, LagrangianLinearTIDS, FirstOrderLinearDS/TIDS (Kernel/src/modeling).
#include <cppunit/extensions/HelperMacros.h>

#include <nsdyn/Kernel.hpp>

using namespace nsdyn;

class DynamicalSystemTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(DynamicalSystemTest);
  CPPUNIT_TEST(lagrangianLinearTIDS);
  CPPUNIT_TEST(lagrangianCallables);
  CPPUNIT_TEST(firstOrder);
  CPPUNIT_TEST(memories);
  CPPUNIT_TEST(sizeErrors);
  CPPUNIT_TEST_SUITE_END();

 public:
  void lagrangianLinearTIDS() {
    auto ds = std::make_shared<LagrangianLinearTIDS>(
        SiconosVector{1.0, 2.0}, SiconosVector{3.0, 0.0}, SimpleMatrix{{2.0, 0.0}, {0.0, 1.0}},
        SimpleMatrix{{10.0, 0.0}, {0.0, 0.0}}, SimpleMatrix(2, 2));
    CPPUNIT_ASSERT_EQUAL(std::size_t(2), ds->dimension());
    CPPUNIT_ASSERT(ds->kind() == DynamicalSystemKind::Lagrangian);
    CPPUNIT_ASSERT(ds->isTimeInvariant());
    CPPUNIT_ASSERT_DOUBLES_EQUAL(9.0, ds->kineticEnergy(), 0.0);  // 1/2 * 2 * 9
    SiconosVector f = ds->computeFInt(ds->q(), ds->velocity(), 0.0);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(10.0, f(0), 0.0);  // K q
    CPPUNIT_ASSERT_DOUBLES_EQUAL(10.0, ds->computeJacobianFIntq(ds->q(), ds->velocity(), 0.0)(0, 0),
                                 0.0);
    ds->setFExt(SiconosVector{-1.0, 0.0});
    CPPUNIT_ASSERT_DOUBLES_EQUAL(-1.0, ds->computeFExt(3.0)(0), 0.0);
    CPPUNIT_ASSERT(ds->name().find("LagrangianLinearTIDS #") == 0);
  }

  void lagrangianCallables() {
    // pendulum-like: M(q) = diag(1 + q0^2), F_int = sin(q), F_ext(t) = t
    auto ds = std::make_shared<LagrangianDS>(SiconosVector{0.5}, SiconosVector{0.0},
                                             LagrangianDS::MassFunction([](const SiconosVector& q) {
                                               return SimpleMatrix{{1.0 + q(0) * q(0)}};
                                             }));
    CPPUNIT_ASSERT(!ds->isTimeInvariant());
    CPPUNIT_ASSERT_DOUBLES_EQUAL(1.25, ds->mass()(0, 0), 1e-15);
    ds->setInternalForces([](const SiconosVector& q, const SiconosVector&, double) {
      return SiconosVector{std::sin(q(0))};
    });
    ds->setJacobianFIntq([](const SiconosVector& q, const SiconosVector&, double) {
      return SimpleMatrix{{std::cos(q(0))}};
    });
    ds->setFExt([](double t) { return SiconosVector{t}; });
    CPPUNIT_ASSERT_DOUBLES_EQUAL(std::sin(0.5), ds->computeFInt(ds->q(), ds->velocity(), 0.0)(0),
                                 1e-15);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(
        std::cos(0.5), ds->computeJacobianFIntq(ds->q(), ds->velocity(), 0.0)(0, 0), 1e-15);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, ds->computeJacobianFIntv(ds->q(), ds->velocity(), 0.0)(0, 0),
                                 0.0);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(2.5, ds->computeFExt(2.5)(0), 0.0);
    ds->computeMass(SiconosVector{2.0});
    CPPUNIT_ASSERT_DOUBLES_EQUAL(5.0, ds->mass()(0, 0), 0.0);
  }

  void firstOrder() {
    auto ds = std::make_shared<FirstOrderLinearTIDS>(
        SiconosVector{1.0, 2.0}, SimpleMatrix{{0.0, 1.0}, {-1.0, 0.0}}, SiconosVector{0.5, 0.0});
    CPPUNIT_ASSERT(ds->kind() == DynamicalSystemKind::FirstOrder);
    SiconosVector f = ds->computeRhs(0.0);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(2.5, f(0), 0.0);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(-1.0, f(1), 0.0);
    auto tv = std::make_shared<FirstOrderLinearDS>(
        SiconosVector{1.0},
        FirstOrderLinearDS::MatrixFunction([](double t) { return SimpleMatrix{{-t}}; }));
    CPPUNIT_ASSERT(!tv->isTimeInvariant());
    CPPUNIT_ASSERT_DOUBLES_EQUAL(-3.0, tv->computeA(3.0)(0, 0), 0.0);
    tv->setb([](double t) { return SiconosVector{2.0 * t}; });
    CPPUNIT_ASSERT_DOUBLES_EQUAL(4.0, tv->computeb(2.0)(0), 0.0);
  }

  void memories() {
    auto ds = std::make_shared<LagrangianLinearTIDS>(SiconosVector{1.0}, SiconosVector{0.0},
                                                     SimpleMatrix{{1.0}});
    ds->qMutable()(0) = 5.0;
    CPPUNIT_ASSERT_DOUBLES_EQUAL(1.0, ds->qMemory()(0), 0.0);
    ds->swapInMemory();
    CPPUNIT_ASSERT_DOUBLES_EQUAL(5.0, ds->qMemory()(0), 0.0);
    ds->pMutable()(0) = 3.0;
    ds->resetNonSmoothInput();
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, ds->p()(0), 0.0);
  }

  void sizeErrors() {
    CPPUNIT_ASSERT_THROW(LagrangianLinearTIDS(SiconosVector{1.0, 2.0}, SiconosVector{0.0},
                                              SimpleMatrix::identity(2)),
                         Error);
    try {
      LagrangianLinearTIDS(SiconosVector{1.0, 2.0}, SiconosVector{0.0, 0.0},
                           SimpleMatrix::identity(3));
      CPPUNIT_FAIL("mass size not reported");
    } catch (const Error& e) {
      const std::string msg = e.what();
      CPPUNIT_ASSERT_MESSAGE(
          msg, msg.find("2x2") != std::string::npos && msg.find("3x3") != std::string::npos);
    }
    auto ds = std::make_shared<LagrangianLinearTIDS>(SiconosVector{1.0}, SiconosVector{0.0},
                                                     SimpleMatrix{{1.0}});
    CPPUNIT_ASSERT_THROW(ds->setK(SimpleMatrix(2, 2)), Error);
    CPPUNIT_ASSERT_THROW(ds->setFExt(SiconosVector{1.0, 2.0}), Error);
    CPPUNIT_ASSERT_THROW(FirstOrderLinearTIDS(SiconosVector{1.0}, SimpleMatrix(2, 2)), Error);
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(DynamicalSystemTest);
