/// @file SiconosVector.hpp
/// @brief Dense vector of doubles over Boost uBLAS.
#ifndef NSDYN_KERNEL_SICONOSVECTOR_HPP
#define NSDYN_KERNEL_SICONOSVECTOR_HPP

#include <boost/numeric/ublas/vector.hpp>
#include <cstddef>
#include <initializer_list>
#include <memory>
#include <string>
#include <vector>

#include "nsdyn/KernelExport.hpp"

namespace nsdyn {

/// Dense vector (contiguous storage, `boost::numeric::ublas::vector<double>`).
/// Value semantics: copies are deep. Indices are 0-based; operator() checks
/// bounds with assert only, at() throws nsdyn::Error.
class NSDYN_KERNEL_API SiconosVector {
 public:
  using Storage = boost::numeric::ublas::vector<double>;

  /// Empty vector (size 0).
  SiconosVector() = default;
  /// Vector of @p n entries, all @p value.
  explicit SiconosVector(std::size_t n, double value = 0.0);
  /// Vector holding @p values, e.g. `SiconosVector{1.0, 0.0, 0.0}`.
  SiconosVector(std::initializer_list<double> values);
  /// Vector copying @p values.
  explicit SiconosVector(const std::vector<double>& values);
  /// Vector taking a uBLAS vector.
  explicit SiconosVector(Storage values);

  /// Number of entries.
  std::size_t size() const { return v_.size(); }
  /// Resize to @p n entries; existing entries are kept, new ones are @p value.
  void resize(std::size_t n, double value = 0.0);

  double operator()(std::size_t i) const;
  double& operator()(std::size_t i);
  /// Entry i with a bounds check (nsdyn::Error when i >= size()).
  double at(std::size_t i) const;
  /// Siconos names: getValue(i) / setValue(i, x).
  double getValue(std::size_t i) const { return at(i); }
  void setValue(std::size_t i, double x);

  /// Contiguous values (nullptr when empty).
  const double* data() const;
  double* data();
  /// The uBLAS storage (read only) and mutable.
  const Storage& storage() const { return v_; }
  Storage& storageMutable() { return v_; }
  /// Copy as a std::vector.
  std::vector<double> toStdVector() const;

  /// Set every entry to 0 / to @p value.
  void zero();
  void fill(double value);

  /// Entries [start, start + n) as a new vector (nsdyn::Error if out of range).
  SiconosVector segment(std::size_t start, std::size_t n) const;
  /// Overwrite entries [start, start + v.size()) with @p v.
  void setSegment(std::size_t start, const SiconosVector& v);
  /// Add @p v into entries [start, start + v.size()).
  void addSegment(std::size_t start, const SiconosVector& v);

  double dot(const SiconosVector& other) const;
  double norm2() const;
  double normInf() const;

  SiconosVector& operator+=(const SiconosVector& other);
  SiconosVector& operator-=(const SiconosVector& other);
  SiconosVector& operator*=(double a);
  SiconosVector& operator/=(double a);

  /// "[3](1, 0, 0)"
  std::string toString() const;

 private:
  Storage v_;
};

NSDYN_KERNEL_API SiconosVector operator+(const SiconosVector& a, const SiconosVector& b);
NSDYN_KERNEL_API SiconosVector operator-(const SiconosVector& a, const SiconosVector& b);
NSDYN_KERNEL_API SiconosVector operator-(const SiconosVector& a);
NSDYN_KERNEL_API SiconosVector operator*(double s, const SiconosVector& a);
NSDYN_KERNEL_API SiconosVector operator*(const SiconosVector& a, double s);
NSDYN_KERNEL_API SiconosVector operator/(const SiconosVector& a, double s);

/// (a; b): the two vectors one after the other.
NSDYN_KERNEL_API SiconosVector concatenate(const SiconosVector& a, const SiconosVector& b);

namespace SP {
using SiconosVector = std::shared_ptr<nsdyn::SiconosVector>;
}

}  // namespace nsdyn

#endif
