// Checks shared by the scene writers.
#include "SceneWriterChecks.hpp"

#include "nsdyn/Error.hpp"

namespace nsdyn::io::detail {

void needEntries(const std::string& where, const char* what, std::size_t size, std::size_t per,
                 std::size_t n) {
  if (size != per * n)
    throw Error(where,
                std::string(what) + " of " + std::to_string(per * n) + " entries (" +
                    std::to_string(n) + " contacts)",
                std::to_string(size));
}

void checkBodyIndices(const std::int32_t* bodyA, const std::int32_t* bodyB, std::size_t n,
                      std::size_t bodies, const std::string& writer) {
  for (std::size_t k = 0; k < n; ++k)
    if (bodyA[k] < 0 || bodyB[k] < 0 || static_cast<std::size_t>(bodyA[k]) >= bodies ||
        static_cast<std::size_t>(bodyB[k]) >= bodies)
      throw Error(writer + ": contact " + std::to_string(k),
                  "body indices below " + std::to_string(bodies),
                  "bodyA = " + std::to_string(bodyA[k]) + ", bodyB = " + std::to_string(bodyB[k]));
}

}  // namespace nsdyn::io::detail
