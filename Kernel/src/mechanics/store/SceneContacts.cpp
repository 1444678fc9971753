// SceneContacts: resize every array together (nsdyn/SceneContacts.hpp).
#include "nsdyn/SceneContacts.hpp"

namespace nsdyn {

void SceneContacts::resize(std::size_t n) {
  key.resize(n);
  bodyA.resize(n);
  bodyB.resize(n);
  frame.resize(9 * n);
  pointA.resize(3 * n);
  pointB.resize(3 * n);
  armA.resize(3 * n);
  armB.resize(3 * n);
  gap.resize(n);
  mu.resize(n);
  restitution.resize(n);
  bias.resize(n);
  velocityStart.resize(3 * n);
  velocity.resize(3 * n);
  impulse.resize(3 * n);
  active.resize(n);
  warm.resize(n);
}

}  // namespace nsdyn
