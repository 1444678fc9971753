// A small valid model, as text, that the tests vary.
#pragma once

#include <string>

namespace nsdyn::test {

/// A ball on a floor (lines 1-29 as laid out here); @p systems, @p interactions,
/// @p simulation and @p outputs replace the default sections when not empty.
inline std::string ballModel(const std::string& systems = "", const std::string& interactions = "",
                             const std::string& simulation = "", const std::string& outputs = "") {
  const std::string defaultSystems =
      "      <LagrangianLinearTIDS name=\"ball\">\n"
      "        <q0>1 0 0</q0>\n"
      "        <v0>0 0 0</v0>\n"
      "        <mass form=\"diagonal\">m m 0.4*m*R*R</mass>\n"
      "        <fExt>-m*g 0 0</fExt>\n"
      "      </LagrangianLinearTIDS>\n";
  const std::string defaultInteractions =
      "      <interaction name=\"floor\" systems=\"ball\">\n"
      "        <NewtonImpactNSL e=\"0.9\"/>\n"
      "        <LagrangianLinearTIR><H>1 0 0</H></LagrangianLinearTIR>\n"
      "      </interaction>\n";
  const std::string defaultSimulation =
      "  <simulation type=\"TimeStepping\" t0=\"0\" T=\"1\" h=\"0.005\">\n"
      "    <MoreauJeanOSI theta=\"0.5\"/>\n"
      "    <LCP solver=\"lemke\"/>\n"
      "  </simulation>\n";
  const std::string defaultOutputs =
      "  <outputs format=\"csv\">\n"
      "    <output name=\"ball\">\n"
      "      <column name=\"t\" value=\"t\"/>\n"
      "      <column name=\"z\" value=\"ball.q[0]\"/>\n"
      "    </output>\n"
      "  </outputs>\n";
  return "<?xml version=\"1.0\"?>\n"                     // 1
         "<nsdyn version=\"1\" name=\"ball\">\n"         // 2
         "  <parameters>\n"                              // 3
         "    <parameter name=\"m\" value=\"1\"/>\n"     // 4
         "    <parameter name=\"R\" value=\"0.1\"/>\n"   // 5
         "    <parameter name=\"g\" value=\"9.81\"/>\n"  // 6
         "  </parameters>\n"                             // 7
         "  <model>\n"                                   // 8
         "    <systems>\n" +                             // 9
         (systems.empty() ? defaultSystems : systems) +  // 10-15
         "    </systems>\n"
         "    <interactions>\n" +
         (interactions.empty() ? defaultInteractions : interactions) +
         "    </interactions>\n"
         "  </model>\n" +
         (simulation.empty() ? defaultSimulation : simulation) +
         (outputs.empty() ? defaultOutputs : outputs) + "</nsdyn>\n";
}

}  // namespace nsdyn::test
