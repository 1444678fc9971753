// ContactSet: the arrays of one step's contacts.
#include "nsdyn/ContactSet.hpp"

namespace nsdyn {

void ContactSet::resize(std::size_t n) {
  key.resize(n);
  bodyA.resize(n);
  bodyB.resize(n);
  dynA.resize(n);
  dynB.resize(n);
  frame.resize(9 * n);
  pointA.resize(3 * n);
  pointB.resize(3 * n);
  gap.resize(n);
  jacA.resize(18 * n);
  jacB.resize(18 * n);
  mu.resize(n);
  restitution.resize(n);
  velocityStart.resize(3 * n);
  impulse.resize(3 * n);
  velocity.resize(3 * n);
  bias.resize(n);
  active.resize(n);
  warm.resize(n);
  rolling.resize(n);
  rollA.resize(6 * n);
  rollB.resize(6 * n);
  rollingImpulse.resize(2 * n);
  rollingVelocityStart.resize(2 * n);
  rollingVelocity.resize(2 * n);
  if (activeCount_ > n) activeCount_ = n;
}

}  // namespace nsdyn
