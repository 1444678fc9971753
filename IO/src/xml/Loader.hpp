/// @file Loader.hpp
/// @brief The XML loader (internal): one class, its methods in one file per model family.
///        Loader.cpp reads the root and calls the families in the order of the file;
///        Reader (Reader.hpp) holds the typed readers they share; the attributes each
///        element allows (and enum values) are the schema table's (Schema.hpp).
#ifndef NSDYN_IO_XML_LOADER_HPP
#define NSDYN_IO_XML_LOADER_HPP

#include "Reader.hpp"

#pragma GCC visibility push(hidden)

namespace nsdyn::io::xml {

/// Reads one model file into a LoadedModel (XmlLoader::loadFile, loadString).
class Loader : public Reader {
 public:
  Loader(std::string text, const std::string& file, const FunctionRegistry& registry,
         const LoaderLimits& limits);
  std::unique_ptr<LoadedModel> load();
  /// XmlLoader::setParameterOverrides: applied by parameters(), checked by load().
  void setOverrides(std::vector<ParameterOverride> overrides) { overrides_ = std::move(overrides); }

 private:
  // ---- the root, parameters, plugins, functions, <model>, initialisation (Loader.cpp) ----
  void parameters(const Node& n);
  void unknownOverrides(const Node& root);
  void plugin(const Node& n);
  void functions(const Node& n);
  SP::DynamicalSystem systemNamed(const std::string& name) const;
  void addSystem(const std::string& name, const SP::DynamicalSystem& ds);
  void model(const Node& n);
  void initializeModel(const Node& n, const std::shared_ptr<Simulation>& sim);

  // ---- systems: Lagrangian, rigid bodies, first order (Systems.cpp) ----
  void systems(const Node& n);
  SP::DynamicalSystem lagrangian(const Node& s);
  SP::DynamicalSystem newtonEuler(const Node& s);
  void boundaryCondition(const Node& b, NewtonEulerDS& ds) const;
  SP::DynamicalSystem firstOrder(const Node& s);

  // ---- laws and relations (Interactions.cpp) ----
  void interactions(const Node& n);
  SP::NonSmoothLaw law(const Node& l) const;
  void interaction(const Node& n);
  SP::Relation lagrangianR(const Node& r, std::size_t m, std::size_t dof,
                           const std::vector<SP::DynamicalSystem>& linked) const;
  SP::Relation rigidBodyR(const Node& r, std::size_t m,
                          const std::vector<SP::DynamicalSystem>& linked,
                          const std::vector<std::string>& names) const;
  SP::Relation spherePlane(const Node& r, std::size_t m, std::size_t nb) const;
  SP::Relation firstOrderR(const Node& r, std::size_t m, std::size_t n) const;

  // ---- one-step problems and solver options (Problems.cpp) ----
  void applyOptions(const Node& o, NsdSolverOptions& opt, const NsdSolverEntry* solver,
                    const NsdSolverEntry* fallback) const;
  SP::OneStepNSProblem problem(const Node& p, bool withRole = false) const;
  void sceneFallbackBound(const Node& p) const;
  void jointAxes(const Node& r, const SP::Relation& relation, const std::string& name,
                 const std::vector<SP::DynamicalSystem>& linked);  // (JointAxes.cpp)
  JointAxisR::TargetFunction servoTarget(const Node& r, const SP::NewtonEulerJointR& joint,
                                         const TimeVector& rate,
                                         const std::vector<SP::DynamicalSystem>& linked);

  // ---- integrators and the simulation (Simulation.cpp) ----
  SP::OneStepIntegrator integrator(const Node& i) const;
  std::shared_ptr<Simulation> eventDriven(const Node& n, const SP::TimeDiscretisation& td) const;
  void simulation(const Node& n);
  void newtonOptions(const Node& x, TimeStepping& sim) const;
  void projectionOptions(const Node& x, TimeSteppingDirectProjection& sim) const;

  // ---- shapes and scene bodies (Bodies.cpp) ----
  ShapeInstance shapeInstance(const Node& n) const;
  std::shared_ptr<const Shape> terrainShape(const Node& n) const;  // (Terrain.cpp)
  std::string besideModel(const std::string& path) const;
  void shapeCount(const Node& body) const;
  int groupOf(const Node& n) const;
  void newSceneName(const Node& n, const std::string& name);
  void addSceneBody(const Node& n, const std::string& name, BodyShapes body, int group);
  void bodyPose(const Node& n, Vec3& position, Shape::Quat& orientation) const;
  void rigidBody(const Node& n);
  void staticBody(const Node& n);

  // ---- the scene, its contact manager and generators (Scenes.cpp) ----
  void stepSizeCheck(const Node& simulationNode);
  void scene(const Node& n);
  void overlapRecovery(const Node& n);
  void contactManager(const Node& n);
  scenes::ParticleSpec particle(const Node& p) const;
  scenes::Region region(const Node& r) const;
  void packing(const Node& n);
  void staticGenerator(const Node& n);
  std::vector<scenes::StaticPart> roughBase(const Node& n) const;

  // ---- peridynamic bodies (Peridynamics.cpp) ----
  void peridynamicBody(const Node& n);
  std::shared_ptr<const PeridynamicMaterial> peridynamicMaterial(const Node& m, double horizon,
                                                                 bool sheet) const;
  std::unique_ptr<PeridynamicBody> peridynamicShape(
      const Node& s, const PeridynamicBodyOptions& options,
      std::shared_ptr<const PeridynamicMaterial> material) const;

  // ---- names read by output expressions (OutputBindings.cpp) ----
  void noteOutputBody(const std::string& name) const;
  Binding sceneBinding(const Reference& r) const;
  Binding systemBinding(const Reference& r, const SP::DynamicalSystem& ds) const;
  Binding interactionBinding(const Reference& r, const SP::Interaction& inter) const;
  Binding outputBinding(const Reference& r) const;
  Binding stepBinding(const Reference& r) const;
  Binding eventBinding(const Reference& r) const;

  // ---- outputs (OutputElements.cpp) ----
  Expression outputExpression(const Node& n, const char* attr, const std::string& meaning) const;
  void outputs(const Node& n);
  void defaultBody(BodySpec& body, const SP::DynamicalSystem& ds) const;
  void defaultVtk();

  LoaderLimits limits_;
  std::vector<ParameterOverride> overrides_;
  std::unique_ptr<LoadedModel> out_;
  std::set<std::string> sceneNames_;  // names of the scene's bodies and of the systems
  // Indices by name, so that a model of N bodies loads in O(N log N): out_->systems,
  // out_->scene->bodyNames, out_->interactions, and the scene bodies already in outputBodies.
  std::unordered_map<std::string, std::size_t> systemIndex_, bodyIndex_, interactionIndex_;
  mutable std::vector<bool> outputNoted_;
  SP::Model model_ = std::make_shared<Model>(0.0, 1.0);
};

}  // namespace nsdyn::io::xml

#pragma GCC visibility pop

#endif
