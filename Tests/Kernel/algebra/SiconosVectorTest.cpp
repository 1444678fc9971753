// SiconosVector (Kernel/src/algebra/SiconosVector.cpp).
#include <cppunit/extensions/HelperMacros.h>

#include <nsdyn/Error.hpp>
#include <nsdyn/SiconosVector.hpp>

using nsdyn::SiconosVector;

class SiconosVectorTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(SiconosVectorTest);
  CPPUNIT_TEST(constructsAndReads);
  CPPUNIT_TEST(arithmetic);
  CPPUNIT_TEST(segments);
  CPPUNIT_TEST(normsAndDot);
  CPPUNIT_TEST(errorsNameSizes);
  CPPUNIT_TEST_SUITE_END();

 public:
  void constructsAndReads() {
    SiconosVector a(3, 2.0);
    CPPUNIT_ASSERT_EQUAL(std::size_t(3), a.size());
    CPPUNIT_ASSERT_DOUBLES_EQUAL(2.0, a(2), 0.0);
    SiconosVector b{1.0, -2.0, 3.5};
    CPPUNIT_ASSERT_DOUBLES_EQUAL(-2.0, b.getValue(1), 0.0);
    b.setValue(1, 4.0);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(4.0, b(1), 0.0);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(3.5, b.data()[2], 0.0);
    b.resize(5, 7.0);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(7.0, b(4), 0.0);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(3.5, b(2), 0.0);
    SiconosVector empty;
    CPPUNIT_ASSERT(empty.data() == nullptr);
  }

  void arithmetic() {
    SiconosVector a{1.0, 2.0}, b{3.0, -1.0};
    SiconosVector c = a + 2.0 * b;
    CPPUNIT_ASSERT_DOUBLES_EQUAL(7.0, c(0), 0.0);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, c(1), 0.0);
    c -= a;
    CPPUNIT_ASSERT_DOUBLES_EQUAL(6.0, c(0), 0.0);
    c /= 2.0;
    CPPUNIT_ASSERT_DOUBLES_EQUAL(3.0, c(0), 0.0);
    SiconosVector d = -a;
    CPPUNIT_ASSERT_DOUBLES_EQUAL(-2.0, d(1), 0.0);
    SiconosVector e = nsdyn::concatenate(a, b);
    CPPUNIT_ASSERT_EQUAL(std::size_t(4), e.size());
    CPPUNIT_ASSERT_DOUBLES_EQUAL(-1.0, e(3), 0.0);
  }

  void segments() {
    SiconosVector a{1, 2, 3, 4, 5};
    SiconosVector s = a.segment(1, 3);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(2.0, s(0), 0.0);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(4.0, s(2), 0.0);
    a.setSegment(3, SiconosVector{9, 9});
    CPPUNIT_ASSERT_DOUBLES_EQUAL(9.0, a(4), 0.0);
    a.addSegment(0, SiconosVector{1, 1});
    CPPUNIT_ASSERT_DOUBLES_EQUAL(3.0, a(1), 0.0);
  }

  void normsAndDot() {
    SiconosVector a{3.0, -4.0};
    CPPUNIT_ASSERT_DOUBLES_EQUAL(5.0, a.norm2(), 1e-15);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(4.0, a.normInf(), 0.0);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(-5.0, a.dot(SiconosVector{1.0, 2.0}), 0.0);
  }

  void errorsNameSizes() {
    SiconosVector a(2), b(3);
    try {
      a += b;
      CPPUNIT_FAIL("size mismatch not reported");
    } catch (const nsdyn::Error& e) {
      const std::string msg = e.what();
      CPPUNIT_ASSERT_MESSAGE(
          msg, msg.find("2") != std::string::npos && msg.find("3") != std::string::npos);
    }
    CPPUNIT_ASSERT_THROW(a.at(2), nsdyn::Error);
    CPPUNIT_ASSERT_THROW(a.segment(1, 2), nsdyn::Error);
    CPPUNIT_ASSERT_THROW(a.setSegment(1, b), nsdyn::Error);
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(SiconosVectorTest);
