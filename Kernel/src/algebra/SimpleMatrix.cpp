// SimpleMatrix: dense column-major matrix over uBLAS with cached LAPACKE factors.
#include "nsdyn/SimpleMatrix.hpp"

#include <lapacke.h>

#include <algorithm>
#include <cassert>
#include <cmath>
#include <sstream>

#include "nsdyn/Error.hpp"

namespace nsdyn {

/// Cached factorisation: the factors (LAPACK layout) and the LU pivots.
struct SimpleMatrix::Factors {
  Factorization kind = Factorization::None;
  std::vector<double> values;
  std::vector<lapack_int> pivots;
};

namespace {
std::string shapeOf(std::size_t r, std::size_t c) {
  return std::to_string(r) + "x" + std::to_string(c);
}
}  // namespace

SimpleMatrix::SimpleMatrix() : m_(0, 0) {}

SimpleMatrix::SimpleMatrix(std::size_t rows, std::size_t cols, double value) : m_(rows, cols) {
  std::fill(m_.data().begin(), m_.data().end(), value);
}

SimpleMatrix::SimpleMatrix(std::initializer_list<std::initializer_list<double>> rows) {
  const std::size_t nr = rows.size();
  const std::size_t nc = nr ? rows.begin()->size() : 0;
  m_.resize(nr, nc, false);
  std::size_t i = 0;
  for (const auto& row : rows) {
    if (row.size() != nc)
      throw Error("SimpleMatrix row " + std::to_string(i), std::to_string(nc) + " entries",
                  std::to_string(row.size()));
    std::size_t j = 0;
    for (double x : row) m_(i, j++) = x;
    ++i;
  }
}

SimpleMatrix::SimpleMatrix(Storage values) : m_(std::move(values)) {}

SimpleMatrix::SimpleMatrix(const SimpleMatrix& other) : m_(other.m_) {
  if (other.factors_) factors_ = std::make_unique<Factors>(*other.factors_);
}

SimpleMatrix& SimpleMatrix::operator=(const SimpleMatrix& other) {
  if (this != &other) {
    m_ = other.m_;
    factors_ = other.factors_ ? std::make_unique<Factors>(*other.factors_) : nullptr;
  }
  return *this;
}

SimpleMatrix::SimpleMatrix(SimpleMatrix&& other) noexcept
    : m_(std::move(other.m_)), factors_(std::move(other.factors_)) {}

SimpleMatrix& SimpleMatrix::operator=(SimpleMatrix&& other) noexcept {
  m_ = std::move(other.m_);
  factors_ = std::move(other.factors_);
  return *this;
}

SimpleMatrix::~SimpleMatrix() = default;

SimpleMatrix SimpleMatrix::identity(std::size_t n) {
  SimpleMatrix I(n, n);
  for (std::size_t i = 0; i < n; ++i) I.m_(i, i) = 1.0;
  return I;
}

SimpleMatrix SimpleMatrix::diagonal(const SiconosVector& d) {
  SimpleMatrix D(d.size(), d.size());
  for (std::size_t i = 0; i < d.size(); ++i) D.m_(i, i) = d(i);
  return D;
}

SimpleMatrix SimpleMatrix::fromColumnMajor(std::size_t rows, std::size_t cols,
                                           const double* values) {
  SimpleMatrix A(rows, cols);
  std::copy(values, values + rows * cols, A.m_.data().begin());
  return A;
}

std::string SimpleMatrix::shapeString() const {
  return shapeOf(rows(), cols());
}

double SimpleMatrix::operator()(std::size_t i, std::size_t j) const {
  assert(i < rows() && j < cols());
  return m_(i, j);
}

double& SimpleMatrix::operator()(std::size_t i, std::size_t j) {
  assert(i < rows() && j < cols());
  factors_.reset();
  return m_(i, j);
}

double SimpleMatrix::getValue(std::size_t i, std::size_t j) const {
  if (i >= rows() || j >= cols())
    throw Error("SimpleMatrix::getValue", "index within " + shapeString(),
                "(" + std::to_string(i) + ", " + std::to_string(j) + ")");
  return m_(i, j);
}

void SimpleMatrix::setValue(std::size_t i, std::size_t j, double value) {
  if (i >= rows() || j >= cols())
    throw Error("SimpleMatrix::setValue", "index within " + shapeString(),
                "(" + std::to_string(i) + ", " + std::to_string(j) + ")");
  factors_.reset();
  m_(i, j) = value;
}

const double* SimpleMatrix::data() const {
  return m_.data().size() ? &m_.data()[0] : nullptr;
}

double* SimpleMatrix::dataMutable() {
  factors_.reset();
  return m_.data().size() ? &m_.data()[0] : nullptr;
}

SimpleMatrix::Storage& SimpleMatrix::storageMutable() {
  factors_.reset();
  return m_;
}

void SimpleMatrix::zero() {
  factors_.reset();
  std::fill(m_.data().begin(), m_.data().end(), 0.0);
}

void SimpleMatrix::resize(std::size_t nr, std::size_t nc) {
  factors_.reset();
  m_.resize(nr, nc, false);
  std::fill(m_.data().begin(), m_.data().end(), 0.0);
}

SimpleMatrix SimpleMatrix::block(std::size_t r0, std::size_t c0, std::size_t nr,
                                 std::size_t nc) const {
  if (r0 + nr > rows() || c0 + nc > cols())
    throw Error("SimpleMatrix::block", "block within " + shapeString(),
                shapeOf(nr, nc) + " at (" + std::to_string(r0) + ", " + std::to_string(c0) + ")");
  SimpleMatrix B(nr, nc);
  for (std::size_t j = 0; j < nc; ++j)
    for (std::size_t i = 0; i < nr; ++i) B.m_(i, j) = m_(r0 + i, c0 + j);
  return B;
}

void SimpleMatrix::setBlock(std::size_t r0, std::size_t c0, const SimpleMatrix& b) {
  if (r0 + b.rows() > rows() || c0 + b.cols() > cols())
    throw Error("SimpleMatrix::setBlock", "block within " + shapeString(),
                b.shapeString() + " at (" + std::to_string(r0) + ", " + std::to_string(c0) + ")");
  factors_.reset();
  for (std::size_t j = 0; j < b.cols(); ++j)
    for (std::size_t i = 0; i < b.rows(); ++i) m_(r0 + i, c0 + j) = b.m_(i, j);
}

void SimpleMatrix::addBlock(std::size_t r0, std::size_t c0, const SimpleMatrix& b) {
  if (r0 + b.rows() > rows() || c0 + b.cols() > cols())
    throw Error("SimpleMatrix::addBlock", "block within " + shapeString(),
                b.shapeString() + " at (" + std::to_string(r0) + ", " + std::to_string(c0) + ")");
  factors_.reset();
  for (std::size_t j = 0; j < b.cols(); ++j)
    for (std::size_t i = 0; i < b.rows(); ++i) m_(r0 + i, c0 + j) += b.m_(i, j);
}

SiconosVector SimpleMatrix::row(std::size_t i) const {
  if (i >= rows())
    throw Error("SimpleMatrix::row", "row < " + std::to_string(rows()), std::to_string(i));
  SiconosVector r(cols());
  for (std::size_t j = 0; j < cols(); ++j) r(j) = m_(i, j);
  return r;
}

SiconosVector SimpleMatrix::column(std::size_t j) const {
  if (j >= cols())
    throw Error("SimpleMatrix::column", "column < " + std::to_string(cols()), std::to_string(j));
  SiconosVector c(rows());
  for (std::size_t i = 0; i < rows(); ++i) c(i) = m_(i, j);
  return c;
}

SimpleMatrix SimpleMatrix::transpose() const {
  SimpleMatrix T(cols(), rows());
  for (std::size_t j = 0; j < cols(); ++j)
    for (std::size_t i = 0; i < rows(); ++i) T.m_(j, i) = m_(i, j);
  return T;
}

double SimpleMatrix::normInf() const {
  double m = 0.0;
  for (double x : m_.data()) m = std::max(m, std::fabs(x));
  return m;
}

SiconosVector SimpleMatrix::operator*(const SiconosVector& x) const {
  if (x.size() != cols())
    throw Error("SimpleMatrix " + shapeString() + " * vector",
                "vector of size " + std::to_string(cols()), std::to_string(x.size()));
  // y_i = sum_j a_ij x_j, accumulated in increasing j.
  SiconosVector y(rows());
  for (std::size_t i = 0; i < rows(); ++i) {
    double s = 0.0;
    for (std::size_t j = 0; j < cols(); ++j) s += m_(i, j) * x(j);
    y(i) = s;
  }
  return y;
}

SimpleMatrix SimpleMatrix::operator*(const SimpleMatrix& b) const {
  if (b.rows() != cols())
    throw Error("SimpleMatrix " + shapeString() + " * matrix",
                "matrix with " + std::to_string(cols()) + " rows", b.shapeString());
  SimpleMatrix C(rows(), b.cols());
  for (std::size_t j = 0; j < b.cols(); ++j)
    for (std::size_t i = 0; i < rows(); ++i) {
      double s = 0.0;
      for (std::size_t l = 0; l < cols(); ++l) s += m_(i, l) * b.m_(l, j);
      C.m_(i, j) = s;
    }
  return C;
}

SiconosVector SimpleMatrix::transposeTimes(const SiconosVector& x) const {
  if (x.size() != rows())
    throw Error("SimpleMatrix " + shapeString() + " transposeTimes",
                "vector of size " + std::to_string(rows()), std::to_string(x.size()));
  SiconosVector y(cols());
  for (std::size_t j = 0; j < cols(); ++j) {
    double s = 0.0;
    for (std::size_t i = 0; i < rows(); ++i) s += m_(i, j) * x(i);
    y(j) = s;
  }
  return y;
}

SimpleMatrix& SimpleMatrix::operator+=(const SimpleMatrix& b) {
  if (b.rows() != rows() || b.cols() != cols())
    throw Error("SimpleMatrix " + shapeString() + " +=", "matrix " + shapeString(),
                b.shapeString());
  factors_.reset();
  m_ += b.m_;
  return *this;
}

SimpleMatrix& SimpleMatrix::operator-=(const SimpleMatrix& b) {
  if (b.rows() != rows() || b.cols() != cols())
    throw Error("SimpleMatrix " + shapeString() + " -=", "matrix " + shapeString(),
                b.shapeString());
  factors_.reset();
  m_ -= b.m_;
  return *this;
}

SimpleMatrix& SimpleMatrix::operator*=(double s) {
  factors_.reset();
  m_ *= s;
  return *this;
}

void SimpleMatrix::factorizeLU() const {
  if (!isSquare()) throw Error("SimpleMatrix::factorizeLU", "a square matrix", shapeString());
  if (factors_ && factors_->kind == Factorization::LU) return;
  auto f = std::make_unique<Factors>();
  const lapack_int n = static_cast<lapack_int>(rows());
  f->values.assign(m_.data().begin(), m_.data().end());
  f->pivots.resize(static_cast<std::size_t>(n));
  if (n > 0) {
    const lapack_int info =
        LAPACKE_dgetrf(LAPACK_COL_MAJOR, n, n, f->values.data(), n, f->pivots.data());
    if (info != 0)
      throw Error("SimpleMatrix::factorizeLU (" + shapeString() + ")", "a non-singular matrix",
                  info > 0 ? "a zero pivot at row " + std::to_string(info - 1)
                           : "LAPACK error " + std::to_string(info));
  }
  f->kind = Factorization::LU;
  factors_ = std::move(f);
}

void SimpleMatrix::factorizeCholesky() const {
  if (!isSquare()) throw Error("SimpleMatrix::factorizeCholesky", "a square matrix", shapeString());
  if (factors_ && factors_->kind == Factorization::Cholesky) return;
  auto f = std::make_unique<Factors>();
  const lapack_int n = static_cast<lapack_int>(rows());
  f->values.assign(m_.data().begin(), m_.data().end());
  if (n > 0) {
    const lapack_int info = LAPACKE_dpotrf(LAPACK_COL_MAJOR, 'L', n, f->values.data(), n);
    if (info != 0)
      throw Error("SimpleMatrix::factorizeCholesky (" + shapeString() + ")",
                  "a symmetric positive definite matrix",
                  info > 0 ? "a non-positive pivot at row " + std::to_string(info - 1)
                           : "LAPACK error " + std::to_string(info));
  }
  f->kind = Factorization::Cholesky;
  factors_ = std::move(f);
}

SimpleMatrix::Factorization SimpleMatrix::factorization() const {
  return factors_ ? factors_->kind : Factorization::None;
}

void SimpleMatrix::resetFactorization() const {
  factors_.reset();
}

void SimpleMatrix::solveInPlace(SiconosVector& b) const {
  if (!isSquare()) throw Error("SimpleMatrix::solve", "a square matrix", shapeString());
  if (b.size() != rows())
    throw Error("SimpleMatrix::solve (" + shapeString() + ")",
                "right-hand side of size " + std::to_string(rows()), std::to_string(b.size()));
  if (rows() == 0) return;
  if (!factors_) factorizeLU();
  const lapack_int n = static_cast<lapack_int>(rows());
  lapack_int info = 0;
  if (factors_->kind == Factorization::LU)
    info = LAPACKE_dgetrs(LAPACK_COL_MAJOR, 'N', n, 1, factors_->values.data(), n,
                          factors_->pivots.data(), b.data(), n);
  else
    info = LAPACKE_dpotrs(LAPACK_COL_MAJOR, 'L', n, 1, factors_->values.data(), n, b.data(), n);
  if (info != 0)
    throw Error("SimpleMatrix::solve", "LAPACK success", "error " + std::to_string(info));
}

SiconosVector SimpleMatrix::solve(const SiconosVector& b) const {
  SiconosVector x(b);
  solveInPlace(x);
  return x;
}

SimpleMatrix SimpleMatrix::solve(const SimpleMatrix& b) const {
  if (b.rows() != rows())
    throw Error("SimpleMatrix::solve (" + shapeString() + ")",
                "right-hand sides with " + std::to_string(rows()) + " rows", b.shapeString());
  SimpleMatrix X(b.rows(), b.cols());
  for (std::size_t j = 0; j < b.cols(); ++j) {
    SiconosVector c = b.column(j);
    solveInPlace(c);
    for (std::size_t i = 0; i < b.rows(); ++i) X.m_(i, j) = c(i);
  }
  return X;
}

NsdMatrixPtr SimpleMatrix::toNsdMatrix() const {
  NsdMatrix* m =
      nsd_matrix_create_dense_from(static_cast<int>(rows()), static_cast<int>(cols()), data());
  if (!m && rows() * cols() > 0)
    throw Error("SimpleMatrix::toNsdMatrix", "an NsdMatrix " + shapeString(), "allocation failure");
  return NsdMatrixPtr(m);
}

std::string SimpleMatrix::toString() const {
  std::ostringstream os;
  os.precision(17);
  os << "[" << shapeString() << "]\n";
  for (std::size_t i = 0; i < rows(); ++i) {
    for (std::size_t j = 0; j < cols(); ++j) os << (j ? " " : "") << m_(i, j);
    os << "\n";
  }
  return os.str();
}

SimpleMatrix operator+(const SimpleMatrix& a, const SimpleMatrix& b) {
  SimpleMatrix r(a);
  r += b;
  return r;
}

SimpleMatrix operator-(const SimpleMatrix& a, const SimpleMatrix& b) {
  SimpleMatrix r(a);
  r -= b;
  return r;
}

SimpleMatrix operator*(double s, const SimpleMatrix& a) {
  SimpleMatrix r(a);
  r *= s;
  return r;
}

}  // namespace nsdyn
