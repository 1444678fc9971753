/// @file SceneSpecFromKernel.hpp
/// @brief The distributed form of a Kernel scene (the ContactManager a model file or a C++
///        driver builds): spheres as arrays with global ids, static bodies on every rank.
#ifndef NSDYN_PARALLEL_SCENESPECFROMKERNEL_HPP
#define NSDYN_PARALLEL_SCENESPECFROMKERNEL_HPP

#include <array>
#include <string>

#include "nsdyn/ContactManager.hpp"
#include "nsdyn/parallel/DistributedScene.hpp"

namespace nsdyn {
namespace parallel {

/// The DistributedSceneSpec of the bodies of @p contacts (initialised: Model::initialize
/// done, so that its margin is set), gravity @p gravity, time step @p h from @p t0, Moreau–Jean
/// @p theta. Global id = the body's index in contacts.bodies() (the order of the model file),
/// so that contact keys and orders are those of the single-process run. This rank takes the
/// dynamic bodies of its slice of the index range (rank r of p: [r n/p, (r+1) n/p)); every
/// rank takes every static body. The rules (margin, breaking distance, activation
/// threshold, warm start, stabilisation) are the ContactManager's; the materials its
/// group-pair table. Local; throws nsdyn::Error naming the body for what the distributed
/// stepper does not do: a dynamic body that is not one sphere centred at its centre of mass
/// with isotropic inertia, external moments or forces other than its weight m g
/// (@p context prefixes the message, e.g. the file name).
DistributedSceneSpec sceneSpecFrom(const ContactManager& contacts, const std::array<double, 3>& gravity,
                                   double t0, double h, double theta, int rank, int size,
                                   const std::string& context = "");

}  // namespace parallel
}  // namespace nsdyn

#endif
