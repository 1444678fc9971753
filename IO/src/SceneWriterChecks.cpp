// Checks shared by the scene writers.
#include "SceneWriterChecks.hpp"

#include "nsdyn/Error.hpp"

namespace nsdyn::io::detail {

void checkContacts(const ContactSet& c, std::size_t bodies, const std::string& writer,
                   bool dynamics) {
  const std::size_t n = c.size();
  auto need = [&](const char* what, std::size_t size, std::size_t per) {
    if (size != per * n)
      throw Error(writer + ": ContactSet",
                  std::string(what) + " of " + std::to_string(per * n) + " entries (" +
                      std::to_string(n) + " contacts)",
                  std::to_string(size));
  };
  need("bodyA", c.bodyA.size(), 1);
  need("bodyB", c.bodyB.size(), 1);
  need("frame", c.frame.size(), 9);
  need("pointA", c.pointA.size(), 3);
  need("pointB", c.pointB.size(), 3);
  need("gap", c.gap.size(), 1);
  if (dynamics) need("mu", c.mu.size(), 1);
  need("impulse", c.impulse.size(), 3);
  if (dynamics) need("velocity", c.velocity.size(), 3);
  need("active", c.active.size(), 1);
  for (std::size_t k = 0; k < n; ++k)
    if (c.bodyA[k] < 0 || c.bodyB[k] < 0 || static_cast<std::size_t>(c.bodyA[k]) >= bodies ||
        static_cast<std::size_t>(c.bodyB[k]) >= bodies)
      throw Error(
          writer + ": contact " + std::to_string(k), "body indices below " + std::to_string(bodies),
          "bodyA = " + std::to_string(c.bodyA[k]) + ", bodyB = " + std::to_string(c.bodyB[k]));
}

}  // namespace nsdyn::io::detail
