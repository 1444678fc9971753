#include "nsdyn/BodyFactory.hpp"

#include <cmath>
#include <memory>
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

BodyShapes makeBody(const BodySpec& spec) {
  const std::string& object = spec.name;
  if (spec.shapes.empty()) throw Error(object, "at least one shape", "no shape");
  for (std::size_t k = 0; k < spec.shapes.size(); ++k) {
    const ShapeInstance& s = spec.shapes[k];
    if (!s.shape) throw Error(object + " shape #" + std::to_string(k), "a shape", "null");
    if (!s.shape->isFinite())
      throw Error(object + " shape #" + std::to_string(k),
                  "a finite shape in a body with mass (half-spaces belong to makeStaticBody)",
                  s.shape->kindName());
  }
  if (!spec.mass && !spec.density)
    throw Error(object, "a mass or a density for its shapes", "neither mass nor density");
  if (spec.mass && spec.density)
    throw Error(object, "a mass or a density, not both",
                "mass = " + number(*spec.mass) + ", density = " + number(*spec.density));
  if (spec.inertia && !spec.mass)
    throw Error(object, "a mass with the given inertia", "an inertia without a mass");
  if (spec.mass && !(std::isfinite(*spec.mass) && *spec.mass > 0.0))
    throw Error(object, "mass finite and > 0", "mass = " + number(*spec.mass));

  MassProperties props;
  std::vector<ShapeInstance> shapes = spec.shapes;
  if (spec.inertia) {
    props.mass = *spec.mass;
    props.inertia = *spec.inertia;
  } else {
    double density = 0.0;
    if (spec.density) {
      density = *spec.density;
    } else {
      double volume = 0.0;
      for (const ShapeInstance& s : spec.shapes) volume += s.shape->volume();
      density = *spec.mass / volume;
    }
    props = MassProperties::fromShapes(spec.shapes, density, object);
    for (ShapeInstance& s : shapes)
      for (std::size_t i = 0; i < 3; ++i) s.position[i] -= props.centerOfMass[i];
  }
  const double qn = quaternion::norm(spec.orientation);
  if (!(std::abs(qn - 1.0) <= 1e-8))
    throw Error(object, "a unit orientation quaternion", "norm " + number(qn));
  const Shape::Vec3 c = quaternion::rotate(spec.orientation, props.centerOfMass);
  SiconosVector q0{spec.position[0] + c[0], spec.position[1] + c[1], spec.position[2] + c[2],
                   spec.orientation[0],     spec.orientation[1],     spec.orientation[2],
                   spec.orientation[3]};
  SiconosVector v0(6);
  for (std::size_t i = 0; i < 6; ++i) v0(i) = spec.velocity[i];
  SimpleMatrix inertia(3, 3);
  for (std::size_t i = 0; i < 3; ++i)
    for (std::size_t j = 0; j < 3; ++j) inertia(i, j) = props.inertia[i][j];
  auto body =
      std::make_shared<NewtonEulerDS>(std::move(q0), std::move(v0), props.mass, std::move(inertia));
  return BodyShapes(std::move(body), std::move(shapes));
}

BodyShapes makeBody(const std::vector<ShapeInstance>& shapes, double density,
                    const Shape::Vec3& position, const Shape::Quat& orientation,
                    const std::array<double, 6>& velocity) {
  BodySpec spec;
  spec.shapes = shapes;
  spec.density = density;
  spec.position = position;
  spec.orientation = orientation;
  spec.velocity = velocity;
  return makeBody(spec);
}

BodyShapes makeStaticBody(const std::vector<ShapeInstance>& shapes, const Shape::Vec3& position,
                          const Shape::Quat& orientation) {
  const double qn = quaternion::norm(orientation);
  if (!(std::abs(qn - 1.0) <= 1e-8))
    throw Error("static body", "a unit orientation quaternion", "norm " + number(qn));
  return BodyShapes(shapes, position, orientation);
}

}  // namespace nsdyn
