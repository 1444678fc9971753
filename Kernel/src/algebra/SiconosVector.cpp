// SiconosVector: dense vector over uBLAS.
#include "nsdyn/SiconosVector.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <sstream>

#include "nsdyn/Error.hpp"

namespace nsdyn {

namespace {
void requireSameSize(const SiconosVector& a, const SiconosVector& b, const char* op) {
  if (a.size() != b.size())
    throw Error(std::string("SiconosVector ") + op, "sizes equal to " + std::to_string(a.size()),
                std::to_string(b.size()));
}
}  // namespace

SiconosVector::SiconosVector(std::size_t n, double value) : v_(n) {
  std::fill(v_.begin(), v_.end(), value);
}

SiconosVector::SiconosVector(std::initializer_list<double> values) : v_(values.size()) {
  std::copy(values.begin(), values.end(), v_.begin());
}

SiconosVector::SiconosVector(const std::vector<double>& values) : v_(values.size()) {
  std::copy(values.begin(), values.end(), v_.begin());
}

SiconosVector::SiconosVector(Storage values) : v_(std::move(values)) {}

void SiconosVector::resize(std::size_t n, double value) {
  const std::size_t old = v_.size();
  v_.resize(n, true);
  for (std::size_t i = old; i < n; ++i) v_(i) = value;
}

double SiconosVector::operator()(std::size_t i) const {
  assert(i < v_.size());
  return v_(i);
}

double& SiconosVector::operator()(std::size_t i) {
  assert(i < v_.size());
  return v_(i);
}

double SiconosVector::at(std::size_t i) const {
  if (i >= v_.size())
    throw Error("SiconosVector::at", "index < " + std::to_string(v_.size()), std::to_string(i));
  return v_(i);
}

void SiconosVector::setValue(std::size_t i, double x) {
  if (i >= v_.size())
    throw Error("SiconosVector::setValue", "index < " + std::to_string(v_.size()),
                std::to_string(i));
  v_(i) = x;
}

const double* SiconosVector::data() const {
  return v_.size() ? &v_.data()[0] : nullptr;
}
double* SiconosVector::data() {
  return v_.size() ? &v_.data()[0] : nullptr;
}

std::vector<double> SiconosVector::toStdVector() const {
  return std::vector<double>(v_.begin(), v_.end());
}

void SiconosVector::zero() {
  std::fill(v_.begin(), v_.end(), 0.0);
}
void SiconosVector::fill(double value) {
  std::fill(v_.begin(), v_.end(), value);
}

SiconosVector SiconosVector::segment(std::size_t start, std::size_t n) const {
  if (start + n > v_.size())
    throw Error("SiconosVector::segment", "range within size " + std::to_string(v_.size()),
                "[" + std::to_string(start) + ", " + std::to_string(start + n) + ")");
  SiconosVector out(n);
  for (std::size_t i = 0; i < n; ++i) out.v_(i) = v_(start + i);
  return out;
}

void SiconosVector::setSegment(std::size_t start, const SiconosVector& v) {
  if (start + v.size() > v_.size())
    throw Error("SiconosVector::setSegment", "range within size " + std::to_string(v_.size()),
                "[" + std::to_string(start) + ", " + std::to_string(start + v.size()) + ")");
  for (std::size_t i = 0; i < v.size(); ++i) v_(start + i) = v.v_(i);
}

void SiconosVector::addSegment(std::size_t start, const SiconosVector& v) {
  if (start + v.size() > v_.size())
    throw Error("SiconosVector::addSegment", "range within size " + std::to_string(v_.size()),
                "[" + std::to_string(start) + ", " + std::to_string(start + v.size()) + ")");
  for (std::size_t i = 0; i < v.size(); ++i) v_(start + i) += v.v_(i);
}

double SiconosVector::dot(const SiconosVector& other) const {
  requireSameSize(*this, other, "dot");
  double s = 0.0;
  for (std::size_t i = 0; i < v_.size(); ++i) s += v_(i) * other.v_(i);
  return s;
}

double SiconosVector::norm2() const {
  return std::sqrt(dot(*this));
}

double SiconosVector::normInf() const {
  double m = 0.0;
  for (double x : v_) m = std::max(m, std::fabs(x));
  return m;
}

SiconosVector& SiconosVector::operator+=(const SiconosVector& other) {
  requireSameSize(*this, other, "+=");
  v_ += other.v_;
  return *this;
}

SiconosVector& SiconosVector::operator-=(const SiconosVector& other) {
  requireSameSize(*this, other, "-=");
  v_ -= other.v_;
  return *this;
}

SiconosVector& SiconosVector::operator*=(double a) {
  v_ *= a;
  return *this;
}

SiconosVector& SiconosVector::operator/=(double a) {
  v_ /= a;
  return *this;
}

std::string SiconosVector::toString() const {
  std::ostringstream os;
  os.precision(17);
  os << "[" << v_.size() << "](";
  for (std::size_t i = 0; i < v_.size(); ++i) os << (i ? ", " : "") << v_(i);
  os << ")";
  return os.str();
}

SiconosVector operator+(const SiconosVector& a, const SiconosVector& b) {
  SiconosVector r(a);
  r += b;
  return r;
}

SiconosVector operator-(const SiconosVector& a, const SiconosVector& b) {
  SiconosVector r(a);
  r -= b;
  return r;
}

SiconosVector operator-(const SiconosVector& a) {
  SiconosVector r(a);
  r *= -1.0;
  return r;
}

SiconosVector operator*(double s, const SiconosVector& a) {
  SiconosVector r(a);
  r *= s;
  return r;
}

SiconosVector operator*(const SiconosVector& a, double s) {
  return s * a;
}

SiconosVector operator/(const SiconosVector& a, double s) {
  SiconosVector r(a);
  r /= s;
  return r;
}

SiconosVector concatenate(const SiconosVector& a, const SiconosVector& b) {
  SiconosVector r(a.size() + b.size());
  r.setSegment(0, a);
  r.setSegment(a.size(), b);
  return r;
}

}  // namespace nsdyn
