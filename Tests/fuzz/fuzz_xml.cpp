// Fuzz target: the XML model loader (XmlLoader::loadString): syntax, expressions, sizes,
// scenes and their generators, Model::initialize; then, for a model with a <scene>, the
// SceneEngine `nsdyn run` would step, built and stepped twice (detection, contacts, the
// solver, with the model's threads). A refused model throws nsdyn::Error; anything else
// (a crash, a sanitizer report, a hang, an allocation above the harness's limit) is a
// finding. Plugins are refused by the loader (LoaderLimits), not by a substring test, and
// scenes are bounded by their body count, so every example is a seed.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "nsdyn/Error.hpp"
#include "nsdyn/OneStepNSProblem.hpp"
#include "nsdyn/Simulation.hpp"
#include "nsdyn/io/SceneEngineFromModel.hpp"
#include "nsdyn/io/XmlLoader.hpp"

namespace {
constexpr std::size_t kFuzzSceneBodies = 500;
constexpr int kFuzzSteps = 2;
constexpr int kFuzzIterations = 200;
constexpr double kFuzzSolveSeconds = 0.5;
}  // namespace

extern "C" int LLVMFuzzerInitialize(int* /*argc*/, char*** /*argv*/) {
  // a model may ask for up to 4096 threads (the documented cap): OpenMP runs at most 4 here,
  // so that each input takes milliseconds, while the threads code paths stay reachable
  setenv("OMP_THREAD_LIMIT", "4", 1);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  nsdyn::io::XmlLoader loader;
  nsdyn::io::LoaderLimits limits;
  limits.plugins = false;
  limits.sceneBodies = kFuzzSceneBodies;
  loader.setLimits(limits);
  try {
    const std::unique_ptr<nsdyn::io::LoadedModel> model = loader.loadString(text, "fuzz.xml");
    if (model->scene) {
      // a valid model may ask for a million Newton iterations: the harness bounds each solve
      // (the step is then a failed step, which is not a finding)
      if (model->simulation && model->simulation->oneStepNSProblem()) {
        NsdSolverOptions& o = model->simulation->oneStepNSProblem()->optionsMutable();
        if (o.max_iterations > kFuzzIterations) o.max_iterations = kFuzzIterations;
        o.time_limit = kFuzzSolveSeconds;
      }
      const std::shared_ptr<nsdyn::SceneEngine> engine = nsdyn::io::makeSceneEngine(*model);
      engine->initialize();
      for (int k = 0; k < kFuzzSteps; ++k) engine->step();
    }
  } catch (const nsdyn::Error&) {
  }
  return 0;
}
