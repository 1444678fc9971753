// The schema table: every attribute of every element of a model file, once. The rows are in
// SchemaModel.cpp, SchemaScenes.cpp and SchemaSimulation.cpp, one file per family; the
// content of each element (for the XSD) in SchemaStructure.cpp. The order of an element's rows
// is the order of its unknown-attribute message ("expected one of: ...").

#include "Schema.hpp"

#include <map>
#include <mutex>
#include <stdexcept>
#include <utility>

#include "SchemaRows.hpp"

namespace nsdyn::io::xml::schema {

namespace {

const std::vector<Element> kElements = {
    // the root, parameters, plugins, functions, the model
    {"nsdyn", "", "the root"},
    {"parameters", "", "named numbers"},
    {"parameter", "", "one named number"},
    {"plugin", "", "a shared library of functions"},
    {"functions", "", "functions written in the file"},
    {"function", "", "a function of t, q or (q, v, t)"},
    {"model", "", "systems, interactions or a scene"},
    {"systems", "", "the dynamical systems"},
    {"interactions", "", "the interactions"},
    // shared types of element data (the XSD's named complex types)
    {"vector", "", "element text: entries of a vector"},
    {"matrix", "", "element text: entries of a matrix"},
    {"functionRef", "", "a registered function instead of element text"},
    {"vectorOrFunction", "vector", "element text: entries of a vector, or a function"},
    {"matrixOrFunction", "matrix", "element text: entries of a matrix, or a function"},
    {"axisAngleType", "", "an orientation as an axis and an angle"},
    // systems
    {"LagrangianDS", "", "a Lagrangian system M(q) v' = f"},
    {"LagrangianLinearTIDS", "", "a linear time-invariant Lagrangian system"},
    {"NewtonEulerDS", "", "a rigid body"},
    {"boundaryCondition", "", "prescribed velocities of a rigid body"},
    {"FirstOrderLinearDS", "", "x' = A(t) x + b(t) + r"},
    {"FirstOrderLinearTIDS", "", "x' = A x + b + r"},
    // interactions: laws and relations
    {"interaction", "", "a law and a relation between one or two systems"},
    {"NewtonImpactNSL", "", "unilateral contact with Newton impacts"},
    {"NewtonImpactFrictionNSL", "", "contact with Coulomb friction"},
    {"ComplementarityConditionNSL", "", "0 <= y _|_ lambda >= 0"},
    {"EqualityConditionNSL", "", "y = 0"},
    {"MixedComplementarityConditionNSL", "", "equalities then complementarities"},
    {"RelayNSL", "", "a relay between lb and ub"},
    {"LagrangianLinearTIR", "", "y = H q + b"},
    {"LagrangianScleronomousR", "", "y = h(q), G = dh/dq"},
    {"NewtonEulerR", "", "y = C q + e on rigid bodies"},
    {"SpherePlaneContact", "", "a sphere against a plane"},
    {"KneeJointR", "", "a ball joint"},
    {"PivotJointR", "", "a hinge"},
    {"PrismaticJointR", "", "a slider"},
    {"FixedJointR", "", "a weld"},
    {"FirstOrderLinearR", "", "y = C x + D lambda + e (+ F u), r = B lambda"},
    {"FirstOrderLinearTIR", "", "time-invariant FirstOrderLinearR"},
    // scenes
    {"scene", "", "bodies with shapes and detected contacts"},
    {"ContactManager", "", "contact detection settings"},
    {"recovery", "", "the scene engine's overlap recovery"},
    {"material", "", "friction and restitution between body groups"},
    {"RigidBody", "", "a dynamic body with shapes"},
    {"StaticBody", "", "a fixed body with shapes"},
    {"shapePose", "", "a shape's offset pose in its body frame"},
    {"SphereShape", "shapePose", "a sphere"},
    {"BoxShape", "shapePose", "a box"},
    {"CapsuleShape", "shapePose", "a capsule along z"},
    {"CylinderShape", "shapePose", "a cylinder along z"},
    {"ConvexHullShape", "shapePose", "the convex hull of points"},
    {"HalfSpaceShape", "shapePose", "a half-space (static bodies)"},
    {"TriangleMeshShape", "shapePose", "a triangle mesh terrain (static bodies)"},
    {"HeightfieldShape", "shapePose", "a heightfield terrain (static bodies)"},
    {"particle", "", "the particles of a packing"},
    {"region", "", "an axis-aligned box"},
    {"latticePacking", "", "particles on a lattice"},
    {"randomPacking", "", "particles at random places"},
    {"container", "", "walls around a region"},
    {"hopper", "", "a hopper of plates"},
    {"chute", "", "an inclined chute"},
    {"roughBase", "", "a floor of fixed spheres"},
    // peridynamic bodies (SchemaPeridynamics.cpp)
    {"PeridynamicBody", "", "a deformable body of material points joined by bonds"},
    {"box", "", "the points of a peridynamic body inside a box"},
    {"cylinder", "", "the points of a peridynamic body inside a cylinder"},
    {"sphere", "", "the points of a peridynamic body inside a ball"},
    {"mesh", "", "the points of a peridynamic body inside a closed triangle mesh"},
    {"sheet", "", "a peridynamic sheet: one layer of points in a rectangle"},
    {"peridynamicMaterial", "", "the material of a peridynamic body"},
    {"precrack", "", "bonds of a peridynamic body removed across a segment"},
    {"prescribe", "", "points of a peridynamic body moved at a given velocity"},
    // simulation
    {"simulation", "", "time stepping or event driven"},
    {"integrator", "", "shared attributes of one-step integrators"},
    {"MoreauJeanOSI", "integrator", "Moreau-Jean for mechanical systems"},
    {"EulerMoreauOSI", "integrator", "Euler-Moreau for first order systems"},
    {"MoreauJeanDirectProjectionOSI", "integrator", "Moreau-Jean with position projection"},
    {"CvodeOSI", "", "CVODE between the events of EventDriven"},
    {"problem", "", "shared attributes of one-step nonsmooth problems"},
    {"LCP", "problem", "a linear complementarity problem"},
    {"MLCP", "problem", "a mixed LCP"},
    {"Relay", "problem", "a relay problem"},
    {"FrictionContact", "problem", "a friction-contact problem"},
    {"GenericMechanical", "problem", "joints, limits, motors and contacts in one problem"},
    {"RollingFrictionContact", "problem",
     "a `<scene>`'s contacts with rolling resistance (the materials' `rolling`)"},
    {"newton", "", "TimeStepping's Newton loop"},
    {"projection", "", "TimeSteppingDirectProjection's projections"},
    {"events", "", "EventDriven's event settings"},
    // outputs
    {"outputs", "", "tables, VTK frames, scene files"},
    {"sceneFiles", "", "the scene's VTK and HDF5 files"},
    {"output", "", "a table of columns"},
    {"column", "", "a column of a table"},
    {"plot", "", "a plot of a table"},
    {"curve", "", "a curve of a plot"},
    {"vtk", "", "VTK frames of bodies"},
    {"body", "", "a body in the VTK frames"},
};

// the rows, family by family, in the order of the error messages
const std::vector<Attribute> kAttributes = [] {
  std::vector<Attribute> all;
  for (auto family :
       {rows::modelRows, rows::sceneRows, rows::peridynamicRows, rows::simulationRows})
    for (const Attribute& a : family()) all.push_back(a);
  return all;
}();
const std::vector<Wording> kWordings = rows::wordings();

const Element* elementNamed(const std::string& name) {
  for (const Element& e : kElements)
    if (name == e.name) return &e;
  return nullptr;
}

const Element& known(const std::string& name) {
  const Element* e = elementNamed(name);
  if (!e) throw std::logic_error("xml::schema: no element <" + name + "> in the table");
  return *e;
}

bool applies(Context row, Context wanted) {
  return row == Context::Any || row == wanted;
}

}  // namespace

const std::vector<Attribute>& attributes() {
  return kAttributes;
}

const std::vector<Element>& elements() {
  return kElements;
}

const std::vector<Wording>& wordings() {
  return kWordings;
}

const Element& element(const std::string& name) {
  return known(name);
}

const std::vector<std::string>& allowed(const std::string& element, Context context) {
  // computed once per (element, context): a scene of 10^5 bodies checks each
  static std::mutex mutex;
  static std::map<std::pair<std::string, Context>, std::vector<std::string>> cache;
  const std::lock_guard<std::mutex> lock(mutex);
  const auto key = std::make_pair(element, context);
  auto at = cache.find(key);
  if (at != cache.end()) return at->second;
  const Element& e = known(element);
  std::vector<std::string> names;
  for (const std::string& owner : {std::string(e.base), element})
    if (!owner.empty())
      for (const Attribute& a : kAttributes)
        if (owner == a.element && applies(a.context, context)) names.emplace_back(a.name);
  return cache.emplace(key, std::move(names)).first->second;
}

const Attribute& find(const std::string& element, const std::string& attribute) {
  const Element& e = known(element);
  for (const std::string& owner : {element, std::string(e.base)})
    for (const Attribute& a : kAttributes)
      if (owner == a.element && attribute == a.name) return a;
  throw std::logic_error("xml::schema: no attribute '" + attribute + "' of <" + element +
                         "> in the table");
}

std::vector<std::string> values(const std::string& element, const std::string& attribute) {
  const Attribute& a = find(element, attribute);
  std::vector<std::string> out;
  std::string text = a.values;
  for (std::size_t start = 0; !text.empty();) {
    const std::size_t bar = text.find('|', start);
    out.push_back(text.substr(start, bar == std::string::npos ? std::string::npos : bar - start));
    if (bar == std::string::npos) break;
    start = bar + 1;
  }
  return out;
}

}  // namespace nsdyn::io::xml::schema
