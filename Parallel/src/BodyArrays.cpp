#include "nsdyn/parallel/BodyArrays.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <sstream>

namespace nsdyn {
namespace parallel {

void BodyArrays::clear() {
  id.clear();
  x.clear();
  y.clear();
  z.clear();
  radius.clear();
  data.clear();
}

void BodyArrays::reserve(std::size_t n) {
  id.reserve(n);
  x.reserve(n);
  y.reserve(n);
  z.reserve(n);
  radius.reserve(n);
  data.reserve(n * static_cast<std::size_t>(width > 0 ? width : 0));
}

void BodyArrays::push_back(std::int64_t gid, double px, double py, double pz, double r,
                           const double* state) {
  id.push_back(gid);
  x.push_back(px);
  y.push_back(py);
  z.push_back(pz);
  radius.push_back(r);
  if (width > 0) {
    if (state)
      data.insert(data.end(), state, state + width);
    else
      data.insert(data.end(), static_cast<std::size_t>(width), 0.0);
  }
}

void BodyArrays::append(const BodyArrays& other, std::size_t k) {
  push_back(other.id[k], other.x[k], other.y[k], other.z[k], other.radius[k],
            other.width > 0 ? other.state(k) : nullptr);
}

void BodyArrays::sortById() {
  std::vector<std::size_t> order(id.size());
  std::iota(order.begin(), order.end(), std::size_t(0));
  std::stable_sort(order.begin(), order.end(),
                   [this](std::size_t a, std::size_t b) { return id[a] < id[b]; });
  BodyArrays sorted;
  sorted.width = width;
  sorted.reserve(order.size());
  for (std::size_t k : order) sorted.append(*this, k);
  *this = std::move(sorted);
}

std::string BodyArrays::firstFault() const {
  const std::size_t n = id.size();
  if (x.size() != n || y.size() != n || z.size() != n || radius.size() != n) {
    std::ostringstream s;
    s << "BodyArrays: arrays of different sizes (id " << n << ", x " << x.size() << ", y "
      << y.size() << ", z " << z.size() << ", radius " << radius.size() << ")";
    return s.str();
  }
  if (width < 0 || data.size() != n * static_cast<std::size_t>(width < 0 ? 0 : width)) {
    std::ostringstream s;
    s << "BodyArrays: " << data.size() << " state values for " << n << " bodies of width " << width;
    return s.str();
  }
  for (std::size_t k = 0; k < n; ++k) {
    std::ostringstream s;
    if (id[k] < 0) {
      s << "body at index " << k << ": global id " << id[k] << " negative";
      return s.str();
    }
    if (!std::isfinite(x[k]) || !std::isfinite(y[k]) || !std::isfinite(z[k])) {
      s << "body " << id[k] << ": position (" << x[k] << ", " << y[k] << ", " << z[k]
        << ") not finite";
      return s.str();
    }
    if (!std::isfinite(radius[k]) || !(radius[k] > 0.0)) {
      s << "body " << id[k] << ": bounding radius " << radius[k] << " not finite and > 0";
      return s.str();
    }
  }
  return "";
}

}  // namespace parallel
}  // namespace nsdyn
