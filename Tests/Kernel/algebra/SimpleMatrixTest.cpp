// SimpleMatrix (Kernel/src/algebra/SimpleMatrix.cpp).
#include <cppunit/extensions/HelperMacros.h>

#include <nsdyn/Error.hpp>
#include <nsdyn/SimpleMatrix.hpp>

using nsdyn::SiconosVector;
using nsdyn::SimpleMatrix;

class SimpleMatrixTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(SimpleMatrixTest);
  CPPUNIT_TEST(columnMajorLayout);
  CPPUNIT_TEST(products);
  CPPUNIT_TEST(blocks);
  CPPUNIT_TEST(luSolve);
  CPPUNIT_TEST(choleskySolve);
  CPPUNIT_TEST(factorisationDroppedOnWrite);
  CPPUNIT_TEST(singularAndNonSquareRejected);
  CPPUNIT_TEST(convertsToNsdMatrix);
  CPPUNIT_TEST_SUITE_END();

 public:
  void columnMajorLayout() {
    SimpleMatrix A{{1, 2, 3}, {4, 5, 6}};
    CPPUNIT_ASSERT_EQUAL(std::size_t(2), A.rows());
    CPPUNIT_ASSERT_EQUAL(std::size_t(3), A.cols());
    CPPUNIT_ASSERT_DOUBLES_EQUAL(4.0, A.data()[1], 0.0);  // (1,0) right after (0,0)
    CPPUNIT_ASSERT_DOUBLES_EQUAL(2.0, A.data()[2], 0.0);
    CPPUNIT_ASSERT_EQUAL(std::string("2x3"), A.shapeString());
    SimpleMatrix I = SimpleMatrix::identity(3);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(1.0, I(2, 2), 0.0);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, I(1, 2), 0.0);
  }

  void products() {
    SimpleMatrix A{{1, 2}, {3, 4}, {5, 6}};
    SiconosVector x{1, -1};
    SiconosVector y = A * x;
    CPPUNIT_ASSERT_DOUBLES_EQUAL(-1.0, y(0), 0.0);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(-1.0, y(2), 0.0);
    SiconosVector z = A.transposeTimes(SiconosVector{1, 1, 1});
    CPPUNIT_ASSERT_DOUBLES_EQUAL(9.0, z(0), 0.0);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(12.0, z(1), 0.0);
    SimpleMatrix AtA = A.transpose() * A;
    CPPUNIT_ASSERT_DOUBLES_EQUAL(35.0, AtA(0, 0), 0.0);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(44.0, AtA(0, 1), 0.0);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(44.0, AtA(1, 0), 0.0);
    SimpleMatrix B = AtA + 2.0 * SimpleMatrix::identity(2) - AtA;
    CPPUNIT_ASSERT_DOUBLES_EQUAL(2.0, B(1, 1), 0.0);
    CPPUNIT_ASSERT_THROW(A * SiconosVector(3), nsdyn::Error);
    CPPUNIT_ASSERT_THROW(A * A, nsdyn::Error);
  }

  void blocks() {
    SimpleMatrix A(4, 4);
    A.setBlock(1, 2, SimpleMatrix{{1, 2}, {3, 4}});
    CPPUNIT_ASSERT_DOUBLES_EQUAL(4.0, A(2, 3), 0.0);
    A.addBlock(1, 2, SimpleMatrix{{1, 1}, {1, 1}});
    SimpleMatrix b = A.block(1, 2, 2, 2);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(2.0, b(0, 0), 0.0);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(5.0, b(1, 1), 0.0);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(3.0, A.row(1)(3), 0.0);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(4.0, A.column(2)(2), 0.0);
    CPPUNIT_ASSERT_THROW(A.block(3, 3, 2, 2), nsdyn::Error);
    CPPUNIT_ASSERT_THROW(A.setBlock(3, 0, SimpleMatrix(2, 2)), nsdyn::Error);
  }

  void luSolve() {
    SimpleMatrix A{{0, 2, 1}, {1, 1, 0}, {3, 0, 1}};  // needs pivoting
    SiconosVector xs{1, -2, 3};
    SiconosVector b = A * xs;
    SiconosVector x = A.solve(b);
    CPPUNIT_ASSERT(A.factorization() == SimpleMatrix::Factorization::LU);
    for (std::size_t i = 0; i < 3; ++i) CPPUNIT_ASSERT_DOUBLES_EQUAL(xs(i), x(i), 1e-14);
    SimpleMatrix X = A.solve(SimpleMatrix::identity(3));
    SimpleMatrix I = A * X;
    for (std::size_t i = 0; i < 3; ++i)
      for (std::size_t j = 0; j < 3; ++j)
        CPPUNIT_ASSERT_DOUBLES_EQUAL(i == j ? 1.0 : 0.0, I(i, j), 1e-14);
  }

  void choleskySolve() {
    SimpleMatrix A{{4, 1}, {1, 3}};
    A.factorizeCholesky();
    CPPUNIT_ASSERT(A.factorization() == SimpleMatrix::Factorization::Cholesky);
    SiconosVector x = A.solve(SiconosVector{1, 2});
    CPPUNIT_ASSERT_DOUBLES_EQUAL(1.0 / 11.0, x(0), 1e-15);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(7.0 / 11.0, x(1), 1e-15);
    SimpleMatrix notSpd{{1, 2}, {2, 1}};
    CPPUNIT_ASSERT_THROW(notSpd.factorizeCholesky(), nsdyn::Error);
  }

  void factorisationDroppedOnWrite() {
    SimpleMatrix A{{2, 0}, {0, 2}};
    A.factorizeLU();
    CPPUNIT_ASSERT(A.isFactorized());
    A(0, 0) = 4.0;
    CPPUNIT_ASSERT(!A.isFactorized());
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.25, A.solve(SiconosVector{1, 1})(0), 1e-16);
    SimpleMatrix copy = A;
    CPPUNIT_ASSERT(copy.isFactorized());
  }

  void singularAndNonSquareRejected() {
    SimpleMatrix S{{1, 2}, {2, 4}};
    try {
      S.factorizeLU();
      CPPUNIT_FAIL("singular matrix not reported");
    } catch (const nsdyn::Error& e) {
      CPPUNIT_ASSERT(std::string(e.what()).find("non-singular") != std::string::npos);
    }
    SimpleMatrix R(2, 3);
    CPPUNIT_ASSERT_THROW(R.factorizeLU(), nsdyn::Error);
    CPPUNIT_ASSERT_THROW(SimpleMatrix::identity(2).solve(SiconosVector(3)), nsdyn::Error);
  }

  void convertsToNsdMatrix() {
    SimpleMatrix A{{1, 2}, {3, 4}};
    nsdyn::NsdMatrixPtr m = A.toNsdMatrix();
    CPPUNIT_ASSERT(m != nullptr);
    CPPUNIT_ASSERT_EQUAL(NSD_DENSE, m->storage);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(3.0, nsd_matrix_get(m.get(), 1, 0), 0.0);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(2.0, nsd_matrix_get(m.get(), 0, 1), 0.0);
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(SimpleMatrixTest);
