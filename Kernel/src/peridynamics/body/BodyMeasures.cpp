// PeridynamicBody: mass, centre of mass, momentum, energies; rigid motions of the whole body.
#include "nsdyn/PeridynamicBody.hpp"
#include "nsdyn/PeridynamicMaterial.hpp"

namespace nsdyn {

double PeridynamicBody::totalMass() const {
  double m = 0.0;
  for (double mi : mass) m += mi;
  return m;
}

std::array<double, 3> PeridynamicBody::centreOfMass() const {
  std::array<double, 3> c{0.0, 0.0, 0.0};
  double m = 0.0;
  for (std::size_t i = 0; i < size(); ++i) {
    for (int k = 0; k < 3; ++k) c[k] += mass[i] * x[3 * i + k];
    m += mass[i];
  }
  for (int k = 0; k < 3; ++k) c[k] /= m;
  return c;
}

std::array<double, 3> PeridynamicBody::momentum() const {
  std::array<double, 3> p{0.0, 0.0, 0.0};
  for (std::size_t i = 0; i < size(); ++i)
    for (int k = 0; k < 3; ++k) p[k] += mass[i] * v[3 * i + k];
  return p;
}

double PeridynamicBody::kineticEnergy() const {
  double e = 0.0;
  for (std::size_t i = 0; i < size(); ++i)
    e += 0.5 * mass[i] *
         (v[3 * i] * v[3 * i] + v[3 * i + 1] * v[3 * i + 1] + v[3 * i + 2] * v[3 * i + 2]);
  return e;
}

double PeridynamicBody::elasticEnergy() const {
  return material_->energy(*this, x.data());
}

void PeridynamicBody::translate(const std::array<double, 3>& d) {
  for (std::size_t i = 0; i < size(); ++i)
    for (int k = 0; k < 3; ++k) {
      x[3 * i + k] += d[k];
      X[3 * i + k] += d[k];  // a placement: the reference moves with it
    }
}

void PeridynamicBody::setVelocity(const std::array<double, 3>& velocity) {
  for (std::size_t i = 0; i < size(); ++i)
    for (int k = 0; k < 3; ++k) v[3 * i + k] = velocity[k];
}

}  // namespace nsdyn
