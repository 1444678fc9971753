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

namespace nsdyn::test {

/// Two rigid bodies (with the default sections, lines as numbered): "arm"
/// (lines 10-18: mass 11, inertia 12, position 13, quaternion 14, velocity
/// 15, angularVelocity 16, fExt 17) hangs from the world origin by "pin"
/// (lines 29-32, KneeJointR on 31); "tip" (lines 19-26, axisAngle 23) is welded
/// to it by "weld" (lines 33-36, FixedJointR on 35); the simulation is on
/// lines 39-43 (MLCP 41, newton 42), the outputs on 44-49 (columns 46-47).
/// @p systems, @p interactions, @p simulation and @p outputs replace the
/// default sections when not empty.
inline std::string bodyModel(const std::string& systems = "", const std::string& interactions = "",
                             const std::string& simulation = "", const std::string& outputs = "") {
  const std::string defaultSystems =
      "      <NewtonEulerDS name=\"arm\">\n"
      "        <mass>m</mass>\n"
      "        <inertia form=\"diagonal\">0.01 m*L*L/12 m*L*L/12</inertia>\n"
      "        <position>0.5*L 0 0</position>\n"
      "        <quaternion>1 0 0 0</quaternion>\n"
      "        <velocity>0 0 0</velocity>\n"
      "        <angularVelocity>0 0 0</angularVelocity>\n"
      "        <fExt>0 0 -m*g</fExt>\n"
      "      </NewtonEulerDS>\n"
      "      <NewtonEulerDS name=\"tip\">\n"
      "        <mass>0.5</mass>\n"
      "        <inertia>0.001, 0, 0; 0, 0.001, 0; 0, 0, 0.001</inertia>\n"
      "        <position>L 0 0</position>\n"
      "        <axisAngle axis=\"0 0 1\" angle=\"pi/2\"/>\n"
      "        <fExt>0 0 -0.5*g</fExt>\n"
      "        <mExt>0 0 0</mExt>\n"
      "      </NewtonEulerDS>\n";
  const std::string defaultInteractions =
      "      <interaction name=\"pin\" systems=\"arm\">\n"
      "        <EqualityConditionNSL size=\"3\"/>\n"
      "        <KneeJointR point=\"0 0 0\" absolute=\"true\"/>\n"
      "      </interaction>\n"
      "      <interaction name=\"weld\" systems=\"arm tip\">\n"
      "        <EqualityConditionNSL size=\"6\"/>\n"
      "        <FixedJointR/>\n"
      "      </interaction>\n";
  const std::string defaultSimulation =
      "  <simulation type=\"TimeStepping\" t0=\"0\" T=\"1\" h=\"0.01\">\n"
      "    <MoreauJeanOSI theta=\"0.5\"/>\n"
      "    <MLCP solver=\"enum\"/>\n"
      "    <newton tolerance=\"1e-10\" max-iterations=\"20\"/>\n"
      "  </simulation>\n";
  const std::string defaultOutputs =
      "  <outputs>\n"
      "    <output name=\"arm\">\n"
      "      <column name=\"t\" value=\"t\"/>\n"
      "      <column name=\"z\" value=\"arm.q[2]\"/>\n"
      "    </output>\n"
      "  </outputs>\n";
  return "<?xml version=\"1.0\"?>\n"
         "<nsdyn version=\"1\" name=\"arm\">\n"
         "  <parameters>\n"
         "    <parameter name=\"m\" value=\"1\"/>\n"
         "    <parameter name=\"L\" value=\"1\"/>\n"
         "    <parameter name=\"g\" value=\"9.81\"/>\n"
         "  </parameters>\n"
         "  <model>\n"
         "    <systems>\n" +
         (systems.empty() ? defaultSystems : systems) +
         "    </systems>\n"
         "    <interactions>\n" +
         (interactions.empty() ? defaultInteractions : interactions) +
         "    </interactions>\n"
         "  </model>\n" +
         (simulation.empty() ? defaultSimulation : simulation) +
         (outputs.empty() ? defaultOutputs : outputs) + "</nsdyn>\n";
}

}  // namespace nsdyn::test
