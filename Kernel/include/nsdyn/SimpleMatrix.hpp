/// @file SimpleMatrix.hpp
/// @brief Dense column-major matrix over Boost uBLAS with cached LAPACK factorisations.
#ifndef NSDYN_KERNEL_SIMPLEMATRIX_HPP
#define NSDYN_KERNEL_SIMPLEMATRIX_HPP

#include <boost/numeric/ublas/matrix.hpp>
#include <cstddef>
#include <initializer_list>
#include <memory>
#include <string>
#include <vector>

#include "nsdyn/KernelExport.hpp"
#include "nsdyn/SiconosVector.hpp"
#include "nsdyn/nsd_matrix.h"

namespace nsdyn {

/// Deleter of an ::NsdMatrix owned by a std::unique_ptr.
struct NSDYN_KERNEL_API NsdMatrixDeleter {
  void operator()(NsdMatrix* m) const { nsd_matrix_destroy(m); }
};
/// An ::NsdMatrix owned by C++ code.
using NsdMatrixPtr = std::unique_ptr<NsdMatrix, NsdMatrixDeleter>;

/// Dense matrix, column-major (`ublas::matrix<double, column_major>`), so its
/// values are laid out as LAPACK and the Numerics NSD_DENSE storage expect.
///
/// Factorisations: factorizeLU() (LAPACKE dgetrf) or factorizeCholesky()
/// (dpotrf) are computed once and cached; solve() uses the cached factors
/// (LU is computed on first use when none is cached). Every mutable access
/// (non-const operator(), storageMutable(), setBlock(), ...) drops the cache.
/// The cache makes solve() logically const but not thread-safe on one object.
class NSDYN_KERNEL_API SimpleMatrix {
 public:
  using Storage = boost::numeric::ublas::matrix<double, boost::numeric::ublas::column_major>;

  /// Which factorisation is cached.
  enum class Factorization { None, LU, Cholesky };

  /// 0 x 0 matrix.
  SimpleMatrix();
  /// rows x cols matrix, every entry @p value.
  SimpleMatrix(std::size_t rows, std::size_t cols, double value = 0.0);
  /// Matrix given row by row: `SimpleMatrix{{1, 0}, {0, 2}}`. Rows must have equal lengths.
  SimpleMatrix(std::initializer_list<std::initializer_list<double>> rows);
  /// Matrix taking a uBLAS matrix.
  explicit SimpleMatrix(Storage values);
  SimpleMatrix(const SimpleMatrix& other);
  SimpleMatrix& operator=(const SimpleMatrix& other);
  SimpleMatrix(SimpleMatrix&& other) noexcept;
  SimpleMatrix& operator=(SimpleMatrix&& other) noexcept;
  ~SimpleMatrix();

  /// n x n identity.
  static SimpleMatrix identity(std::size_t n);
  /// Square diagonal matrix with @p d on its diagonal.
  static SimpleMatrix diagonal(const SiconosVector& d);
  /// Matrix from @p values given column-major (rows*cols entries).
  static SimpleMatrix fromColumnMajor(std::size_t rows, std::size_t cols, const double* values);

  std::size_t rows() const { return m_.size1(); }
  std::size_t cols() const { return m_.size2(); }
  /// Siconos name: size(0) rows, size(1) columns.
  std::size_t size(int dim) const { return dim == 0 ? rows() : cols(); }
  bool isSquare() const { return rows() == cols(); }
  /// "3x2"
  std::string shapeString() const;

  double operator()(std::size_t i, std::size_t j) const;
  /// Mutable entry; drops the cached factorisation.
  double& operator()(std::size_t i, std::size_t j);
  double getValue(std::size_t i, std::size_t j) const;
  void setValue(std::size_t i, std::size_t j, double value);

  /// Column-major values (nullptr when empty).
  const double* data() const;
  /// Mutable column-major values; drops the cached factorisation.
  double* dataMutable();
  const Storage& storage() const { return m_; }
  /// Mutable storage; drops the cached factorisation.
  Storage& storageMutable();

  /// Set every entry to 0.
  void zero();
  /// Resize to rows x cols of zeros.
  void resize(std::size_t rows, std::size_t cols);

  /// The nr x nc block starting at (r0, c0) (nsdyn::Error if out of range).
  SimpleMatrix block(std::size_t r0, std::size_t c0, std::size_t nr, std::size_t nc) const;
  /// Overwrite the block at (r0, c0) with @p b.
  void setBlock(std::size_t r0, std::size_t c0, const SimpleMatrix& b);
  /// Add @p b into the block at (r0, c0).
  void addBlock(std::size_t r0, std::size_t c0, const SimpleMatrix& b);
  SiconosVector row(std::size_t i) const;
  SiconosVector column(std::size_t j) const;

  SimpleMatrix transpose() const;
  /// Largest |a_ij|.
  double normInf() const;

  /// A x (nsdyn::Error on a size mismatch).
  SiconosVector operator*(const SiconosVector& x) const;
  /// A B.
  SimpleMatrix operator*(const SimpleMatrix& b) const;
  /// Aᵀ x.
  SiconosVector transposeTimes(const SiconosVector& x) const;
  SimpleMatrix& operator+=(const SimpleMatrix& b);
  SimpleMatrix& operator-=(const SimpleMatrix& b);
  SimpleMatrix& operator*=(double s);

  /// LU factorisation with partial pivoting, cached. nsdyn::Error if not square or singular.
  void factorizeLU() const;
  /// Cholesky factorisation, cached. nsdyn::Error if not square or not positive definite.
  void factorizeCholesky() const;
  /// Which factorisation is cached.
  Factorization factorization() const;
  bool isFactorized() const { return factorization() != Factorization::None; }
  /// Drop the cached factorisation.
  void resetFactorization() const;

  /// x = A⁻¹ b with the cached factors (LU computed if none).
  SiconosVector solve(const SiconosVector& b) const;
  /// X = A⁻¹ B, column by column.
  SimpleMatrix solve(const SimpleMatrix& b) const;
  /// b ← A⁻¹ b.
  void solveInPlace(SiconosVector& b) const;

  /// A dense ::NsdMatrix copying the values (the column-major layouts are the
  /// same, but Numerics problems take ownership of their matrices, so a copy is made).
  NsdMatrixPtr toNsdMatrix() const;

  /// Multi-line text, one row per line.
  std::string toString() const;

 private:
  struct Factors;
  Storage m_;
  mutable std::unique_ptr<Factors> factors_;
};

NSDYN_KERNEL_API SimpleMatrix operator+(const SimpleMatrix& a, const SimpleMatrix& b);
NSDYN_KERNEL_API SimpleMatrix operator-(const SimpleMatrix& a, const SimpleMatrix& b);
NSDYN_KERNEL_API SimpleMatrix operator*(double s, const SimpleMatrix& a);

namespace SP {
using SimpleMatrix = std::shared_ptr<nsdyn::SimpleMatrix>;
}

}  // namespace nsdyn

#endif
