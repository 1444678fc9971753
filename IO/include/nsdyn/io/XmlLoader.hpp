/// @file XmlLoader.hpp
/// @brief Load an XML model file (schema IO/schema/nsdyn.xsd, reference
///        doc/xml-reference.md) into a ready-to-run Model and Simulation.
#ifndef NSDYN_IO_XMLLOADER_HPP
#define NSDYN_IO_XMLLOADER_HPP

#include <array>
#include <cmath>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "nsdyn/ContactDetector.hpp"
#include "nsdyn/ContactManager.hpp"
#include "nsdyn/DynamicalSystem.hpp"
#include "nsdyn/Interaction.hpp"
#include "nsdyn/Model.hpp"
#include "nsdyn/OverlapRecovery.hpp"
#include "nsdyn/PeridynamicBody.hpp"
#include "nsdyn/PeridynamicStepper.hpp"
#include "nsdyn/Simulation.hpp"
#include "nsdyn/StepStatistics.hpp"
#include "nsdyn/io/FunctionRegistry.hpp"
#include "nsdyn/io/IoExport.hpp"
#include "nsdyn/io/LoadError.hpp"
#include "nsdyn/io/Outputs.hpp"

namespace nsdyn::io {

/// The scene files of a run (`<sceneFiles>`): frames of the bodies and contacts
/// every `every` steps and after the last step.
struct NSDYN_IO_API SceneFilesSpec {
  long every = 1;     ///< steps between frames
  bool vtk = false;   ///< NAME_bodies.pvd, NAME_contacts.pvd (SceneVtkWriter); `--vtk` sets it too
  bool hdf5 = false;  ///< NAME.hdf5 (SceneHdf5Writer, Siconos mechanics layout)
};

/// Figures of a scene stepped by a SceneEngine (`nsdyn run`), filled by the run loop before
/// each recorded row (summed or maximised over the parts of a distributed run): what the
/// `scene.FIELD` and `step.FIELD` columns read while LoadedScene::figures is set.
struct NSDYN_IO_API SceneFigures {
  double kineticEnergy = 0.0, potentialEnergy = 0.0;
  double contactWork = 0.0;  ///< of the last step
  double contacts = 0.0, bodies = 0.0;
  double minGap = INFINITY;  ///< smallest gap of the contacts of the last step (+inf: none)
  double maxZ = 0.0;         ///< max(0, highest centre of a dynamic body)
  StepStatistics step;       ///< iterations, residual, activeRelations of the last step
};

/// The applied loads of a scene body given in the model file (<fExt>, world frame, without
/// the weight; <mExt>, body frame): constants, or functions of t when set.
struct NSDYN_IO_API SceneBodyLoads {
  std::array<double, 3> force{0.0, 0.0, 0.0}, moment{0.0, 0.0, 0.0};
  std::function<SiconosVector(double)> forceOfTime, momentOfTime;
};

/// A `<PeridynamicBody>` of a scene (doc/xml-reference.md, "Peridynamic bodies"): the body
/// its shape's generator made (material, pre-cracks, initial and prescribed velocities
/// applied) and how it is stepped.
struct NSDYN_IO_API LoadedPeridynamicBody {
  std::shared_ptr<PeridynamicBody> body;
  /// "substitution", "newton" or "verlet" (makePeridynamicStepper).
  std::string method = "substitution";
  /// Tolerance, iterations, line search, threads from the element; gravity the scene's; h
  /// and θ left to the run (the simulation's h, its MoreauJeanOSI's θ).
  PeridynamicStepOptions step;
  bool fracture = true;  ///< break bonds past the critical stretch after each step
  /// The body's iteration matrix in the contact problem (PeridynamicSceneOptions::exactResponse).
  bool exactResponse = true;
  /// Contacts between points of the body no bond joins (PeridynamicSceneOptions::selfContact).
  bool selfContact = false;
  int group = 0;  ///< contact material group of the points
  long line = 0;  ///< line of the element in the model file
};

/// The `<scene>` of a model file: bodies with shapes (given one by one or made
/// by generators), their contacts detected by a ContactManager.
struct NSDYN_IO_API LoadedScene {
  /// Inserted into the simulation (Simulation::insertInteractionManager).
  SP::ContactManager contacts;
  /// Name of each body of contacts->bodies(), in the same order (dynamic bodies
  /// are also systems of LoadedModel::systems under this name).
  std::vector<std::string> bodyNames;
  /// Gravity (m/s², world frame): each dynamic body gets f_ext = m g.
  std::array<double, 3> gravity{0.0, 0.0, 0.0};
  SceneFilesSpec files;
  /// The loads of the bodies that have <fExt> or <mExt>, by index in contacts->bodies().
  std::map<std::size_t, SceneBodyLoads> loads;
  /// The scene engine's overlap recovery (<ContactManager><recovery .../>; off without it).
  OverlapRecoveryOptions recovery;
  /// The scene engine's speculative contacts (<ContactManager speculative-contacts>;
  /// SceneEngineOptions::speculativeContacts).
  bool speculativeContacts = false;
  /// The scene engine's bound on its fallback solver (<FrictionContact fallback-time-factor
  /// fallback-iterations>; SceneEngineOptions::fallbackTimeFactor, fallbackIterations).
  double fallbackTimeFactor = 1.0;
  int fallbackIterations = 0;
  /// The bodies (index in contacts->bodies()) whose state output columns read: a run on
  /// another engine copies their q and v into their NewtonEulerDS before each row.
  std::vector<std::size_t> outputBodies;
  /// Set by a run on a SceneEngine (see SceneFigures); nullptr: the Kernel's objects.
  std::shared_ptr<SceneFigures> figures;
  /// The scene's `<PeridynamicBody>` elements, in file order (not in contacts->bodies()).
  std::vector<LoadedPeridynamicBody> peridynamicBodies;
};

/// A `<parameter>` value given from outside the model file (`nsdyn run --set NAME=VALUE`,
/// XmlLoader::setParameterOverrides): @p value is read as the file's `value` attribute would
/// be (a number or an expression of the parameters before it) and replaces it.
struct NSDYN_IO_API ParameterOverride {
  std::string name, value;
  std::string fileValue;  ///< the file's `value` text it replaced (filled by the loader)
  double number = 0.0;    ///< the value it evaluated to (filled by the loader)
};

/// An override naming no `<parameter>` of the model file: what() names it and lists the
/// file's parameters (`nsdyn run --set`: a usage error, exit 2).
class NSDYN_IO_API UnknownParameterError : public LoadError {
 public:
  using LoadError::LoadError;
};

/// A loaded model file: the initialised Model and Simulation, the named
/// systems and interactions, the number of steps to run and the outputs.
struct NSDYN_IO_API LoadedModel {
  /// Handles of the plugin libraries opened for this model, closed after
  /// everything else (declared first, destroyed last).
  std::vector<std::shared_ptr<void>> plugins;
  std::string file;            ///< path given to the loader ("<string>" for loadString)
  std::string name;            ///< the `name` of the root element (default: the file stem)
  std::string simulationType;  ///< "TimeStepping" or "EventDriven"
  SP::Model model;
  std::shared_ptr<Simulation> simulation;  ///< initialised (Model::initialize done)
  double t0 = 0.0, T = 0.0, h = 0.0;
  long steps = 0;  ///< steps to run (`steps`, default ceil((T - t0)/h))
  /// `on-failure` of <simulation>: stop at the first failed step (default) or continue;
  /// onFailureGiven says whether the file set it (nsdyn run --on-failure overrides it).
  bool stopOnFailure = true;
  bool onFailureGiven = false;
  /// Systems and interactions in the order of the file, with their names.
  std::vector<std::pair<std::string, SP::DynamicalSystem>> systems;
  std::vector<std::pair<std::string, SP::Interaction>> interactions;
  OutputsSpec outputs;
  /// The `<scene>` of the model; nullptr when it has none.
  std::shared_ptr<LoadedScene> scene;
  /// Warnings of the loader (also written to std::cerr as "nsdyn: warning: ..."): a step
  /// size too large for the scene's bodies (doc/robustness.md, "Model input limits").
  std::vector<std::string> warnings;
  /// The parameters set from outside the file (XmlLoader::setParameterOverrides), in the
  /// order given, with the file's value each replaced.
  std::vector<ParameterOverride> overrides;

  /// The system named @p name; nullptr if none.
  SP::DynamicalSystem system(const std::string& name) const;
  /// The interaction named @p name; nullptr if none.
  SP::Interaction interaction(const std::string& name) const;
};

/// What a loader may do beyond checking the file: open the shared libraries of <plugin>
/// elements, and how many scene bodies a file may make (generators included). `nsdyn run`
/// keeps the defaults; the fuzzing harness forbids plugins and bounds the bodies so that
/// each input is loaded and stepped in milliseconds (doc/robustness.md, "Fuzzing").
struct NSDYN_IO_API LoaderLimits {
  bool plugins = true;                        ///< false: a <plugin> element is refused
  std::size_t sceneBodies = kMaxSceneBodies;  ///< bodies of a <scene>, static ones included
};

/// Reads model files. Everything is checked before the model is returned:
/// XML syntax, unknown elements and attributes, missing values, sizes of
/// vectors and matrices, references to undefined systems, parameters or
/// functions, and Model::initialize(). Any problem throws LoadError with the
/// file, the line and what was expected; nothing is simulated or written.
class NSDYN_IO_API XmlLoader {
 public:
  XmlLoader() = default;
  /// A loader that also knows the functions of @p registry.
  explicit XmlLoader(FunctionRegistry registry) : registry_(std::move(registry)) {}

  /// The functions model files may name (drivers add theirs before loading).
  FunctionRegistry& functions() { return registry_; }
  /// Plugins allowed and the most scene bodies (below the scene's own limit of 2^21).
  void setLimits(const LoaderLimits& limits) { limits_ = limits; }
  /// Values that replace those of the file's `<parameter>` elements of the same names, before
  /// anything reads them. A name the file has no `<parameter>` for throws
  /// UnknownParameterError; a value that is not a number or an expression of the parameters
  /// before it throws LoadError (the file, the parameter's line and the value).
  void setParameterOverrides(std::vector<ParameterOverride> overrides) {
    overrides_ = std::move(overrides);
  }

  /// Load the file @p path.
  std::unique_ptr<LoadedModel> loadFile(const std::string& path) const;
  /// Load XML text; @p fileName is used in messages.
  std::unique_ptr<LoadedModel> loadString(const std::string& xml,
                                          const std::string& fileName = "<string>") const;

 private:
  FunctionRegistry registry_;
  LoaderLimits limits_;
  std::vector<ParameterOverride> overrides_;
};

}  // namespace nsdyn::io

#endif
