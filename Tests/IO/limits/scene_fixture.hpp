// Scene models as text for the limits tests: line 5 holds the first line of the scene's
// content; the <simulation> element is on the line after the scene's content ends.
#pragma once

#include <string>

namespace nsdyn::test {

inline std::string sceneModel(const std::string& content, const std::string& h = "0.001",
                              const std::string& T = "0.002") {
  return "<?xml version=\"1.0\"?>\n"                // 1
         "<nsdyn version=\"1\" name=\"limits\">\n"  // 2
         "<model>\n"                                // 3
         "<scene gravity=\"0 0 -9.81\">\n" +        // 4
         content +                                  // 5...
         "</scene>\n</model>\n"
         "<simulation type=\"TimeStepping\" t0=\"0\" T=\"" +
         T + "\" h=\"" + h +
         "\">\n<MoreauJeanOSI theta=\"0.5\"/>\n<FrictionContact dim=\"3\" solver=\"nsgs\"/>\n"
         "</simulation>\n</nsdyn>\n";
}

/// @p n spheres of radius 0.04 on a 0.1 m lattice, one <RigidBody> a line, and a floor.
inline std::string spheres(std::size_t n) {
  std::string out = "<StaticBody name=\"floor\"><HalfSpaceShape normal=\"0 0 1\"/></StaticBody>\n";
  std::size_t side = 1;
  while (side * side * side < n) ++side;
  for (std::size_t k = 0; k < n; ++k)
    out += "<RigidBody name=\"b" + std::to_string(k) + "\" density=\"1000\"><position>" +
           std::to_string(0.1 * static_cast<double>(k % side)) + " " +
           std::to_string(0.1 * static_cast<double>(k / side % side)) + " " +
           std::to_string(0.05 + 0.1 * static_cast<double>(k / side / side)) +
           "</position><SphereShape radius=\"0.04\"/></RigidBody>\n";
  return out;
}

}  // namespace nsdyn::test
