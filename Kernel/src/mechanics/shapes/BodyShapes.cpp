#include "nsdyn/BodyShapes.hpp"

#include <algorithm>
#include <limits>

#include "nsdyn/Error.hpp"

namespace nsdyn {

namespace {
void checkShapes(const std::vector<ShapeInstance>& shapes, const std::string& object) {
  if (shapes.empty()) throw Error(object, "at least one shape", "no shape");
  for (std::size_t k = 0; k < shapes.size(); ++k)
    if (!shapes[k].shape) throw Error(object + " shape #" + std::to_string(k), "a shape", "null");
}
}  // namespace

BodyShapes::BodyShapes(SP::NewtonEulerDS body, std::vector<ShapeInstance> shapes)
    : body_(std::move(body)), shapes_(std::move(shapes)) {
  if (!body_) throw Error("BodyShapes", "a NewtonEulerDS (or the static-body constructor)", "null");
  checkShapes(shapes_, "BodyShapes");
}

BodyShapes::BodyShapes(std::vector<ShapeInstance> shapes, const Shape::Vec3& position,
                       const Shape::Quat& orientation)
    : shapes_(std::move(shapes)), position_(position), orientation_(orientation) {
  checkShapes(shapes_, "BodyShapes (static)");
}

Shape::Vec3 BodyShapes::position() const {
  if (!body_) return position_;
  return quaternion::vec3(body_->q(), 0);
}

Shape::Quat BodyShapes::orientation() const {
  if (!body_) return orientation_;
  return quaternion::fromVector(body_->q(), 3);
}

Shape::Aabb BodyShapes::boundingBox() const {
  constexpr double inf = std::numeric_limits<double>::infinity();
  Shape::Aabb box{Shape::Vec3{inf, inf, inf}, Shape::Vec3{-inf, -inf, -inf}};
  const Shape::Vec3 x = position();
  const Shape::Quat r = orientation();
  for (const ShapeInstance& s : shapes_) {
    const Shape::Aabb b = s.boundingBox(x, r);
    for (std::size_t i = 0; i < 3; ++i) {
      box.min[i] = std::min(box.min[i], b.min[i]);
      box.max[i] = std::max(box.max[i], b.max[i]);
    }
  }
  return box;
}

}  // namespace nsdyn
