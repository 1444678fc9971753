/// @file SceneEngineFromModel.hpp
/// @brief The SceneEngine of a model file's <scene>: what `nsdyn run` steps (one process or
///        N ranks), built from the bodies, materials and options the XmlLoader read.
#ifndef NSDYN_IO_SCENEENGINEFROMMODEL_HPP
#define NSDYN_IO_SCENEENGINEFROMMODEL_HPP

#include <memory>

#include "nsdyn/SceneEngine.hpp"
#include "nsdyn/io/IoExport.hpp"
#include "nsdyn/io/SceneParts.hpp"
#include "nsdyn/io/XmlLoader.hpp"

namespace nsdyn::io {

/// A SceneEngine over the scene of @p model: the bodies of model.scene->contacts in file
/// order (global id = that index; dynamic bodies with the pose, velocity and mass properties
/// of their NewtonEulerDS, static ones at their pose) and their groups, the materials, the
/// ContactManager's options, gravity owned by the scene (not m g in each f_ext), the bodies'
/// own <fExt>/<mExt> (constants, or force functions of t), h, t0, θ of the MoreauJeanOSI,
/// the FrictionContact's solver, options and fallback. Not initialised (a restart may load
/// a checkpoint first; SceneEngine::setExchange for N ranks). nsdyn::Error naming the model
/// file for what the engine does not step: a model with systems beside the scene, an
/// integrator other than one MoreauJeanOSI, a problem other than FrictionContact dim 3.
NSDYN_IO_API std::shared_ptr<SceneEngine> makeSceneEngine(const LoadedModel& model);

/// Before a recorded row: the state of the bodies output columns read
/// (LoadedScene::outputBodies) copied from @p engine into their NewtonEulerDS. On one
/// process, @p values = sceneOutputState(model, engine); a distributed run passes those
/// summed over the parts.
NSDYN_IO_API void copyOutputBodies(const LoadedModel& model, const std::vector<double>& values);
/// This part's share of those bodies' states: 13 values (q, v) per output body in
/// outputBodies order, zeros for a body this part does not own. Summed over the parts
/// (zeros added to the owner's value change no bit), it is every body's state.
NSDYN_IO_API std::vector<double> sceneOutputState(const LoadedModel& model,
                                                  const SceneEngine& engine);

/// Before a recorded row of a run on @p engine: *model.scene->figures (which must be set)
/// filled from the engine's last step — energies and contact work of the whole scene, the
/// kept and active contacts summed over @p parts, the highest centre of a dynamic body
/// maximised over them, a StepStatistics of the step (steps() > @p firstStep; before it,
/// the state's energies and no solve) — and the bodies output columns read copied into
/// their NewtonEulerDS (copyOutputBodies). Collective over @p parts.
NSDYN_IO_API void fillSceneFigures(const LoadedModel& model, const SceneEngine& engine,
                                   long firstStep, SceneParts& parts);

}  // namespace nsdyn::io

#endif
