#include "nsdyn/MassProperties.hpp"

#include <cmath>
#include <sstream>

#include "nsdyn/Error.hpp"

namespace nsdyn {

namespace {
std::string number(double x) {
  std::ostringstream s;
  s.precision(17);
  s << x;
  return s.str();
}
}  // namespace

MassProperties MassProperties::fromShapes(const std::vector<ShapeInstance>& shapes, double density,
                                          const std::string& object) {
  if (!(std::isfinite(density) && density > 0.0))
    throw Error(object, "density finite and > 0", "density = " + number(density));
  if (shapes.empty()) throw Error(object, "at least one shape to compute a mass from", "no shape");
  struct Part {
    double m;
    Shape::Vec3 c;
    Shape::Mat3 I;
  };
  std::vector<Part> parts;
  MassProperties out;
  for (std::size_t k = 0; k < shapes.size(); ++k) {
    const ShapeInstance& s = shapes[k];
    const std::string where = object + " shape #" + std::to_string(k);
    if (!s.shape) throw Error(where, "a shape", "null");
    if (!s.shape->isFinite())
      throw Error(where, "a finite shape in a body with mass (half-spaces belong to static bodies)",
                  s.shape->kindName());
    const double qn = quaternion::norm(s.orientation);
    if (!(std::abs(qn - 1.0) <= 1e-8))
      throw Error(where, "a unit offset quaternion", "norm " + number(qn));
    const SimpleMatrix R = quaternion::rotationMatrix(s.orientation);
    Part p;
    p.m = density * s.shape->volume();
    const Shape::Vec3 c = quaternion::rotate(s.orientation, s.shape->centroid());
    p.c = {s.position[0] + c[0], s.position[1] + c[1], s.position[2] + c[2]};
    const Shape::Mat3 I = s.shape->inertiaPerUnitDensity();
    for (std::size_t i = 0; i < 3; ++i)
      for (std::size_t j = 0; j < 3; ++j) {
        double v = 0.0;
        for (std::size_t a = 0; a < 3; ++a)
          for (std::size_t b = 0; b < 3; ++b) v += R(i, a) * I[a][b] * R(j, b);
        p.I[i][j] = density * v;
      }
    parts.push_back(p);
    out.mass += p.m;
    for (std::size_t i = 0; i < 3; ++i) out.centerOfMass[i] += p.m * p.c[i];
  }
  for (std::size_t i = 0; i < 3; ++i) out.centerOfMass[i] /= out.mass;
  for (const Part& p : parts) {
    const Shape::Vec3 d{p.c[0] - out.centerOfMass[0], p.c[1] - out.centerOfMass[1],
                        p.c[2] - out.centerOfMass[2]};
    const double d2 = quaternion::dot(d, d);
    for (std::size_t i = 0; i < 3; ++i)
      for (std::size_t j = 0; j < 3; ++j)
        out.inertia[i][j] += p.I[i][j] + p.m * ((i == j ? d2 : 0.0) - d[i] * d[j]);
  }
  for (std::size_t i = 0; i < 3; ++i)
    for (std::size_t j = i + 1; j < 3; ++j)
      out.inertia[i][j] = out.inertia[j][i] = 0.5 * (out.inertia[i][j] + out.inertia[j][i]);
  return out;
}

}  // namespace nsdyn
