// The block pattern of J M^-1 J^T over the active contacts of a ContactSet, shared by the
// contact problems that assemble it (FrictionContact(3): 3x3 blocks, RollingFrictionContact:
// 5x5 blocks).
#ifndef NSDYN_KERNEL_CONTACTPATTERN_HPP
#define NSDYN_KERNEL_CONTACTPATTERN_HPP

#include <cstdint>
#include <vector>

#include "nsdyn/ContactSet.hpp"
#include "nsdyn/OneStepNSProblem.hpp"
#include "nsdyn/SiconosVector.hpp"

namespace nsdyn::contacts {

/// Block (a, b) of the active contacts @p act (indices in @p cs) exists when contacts a and b
/// share a dynamic body: @p rowPtr [na + 1] and @p colIndex (each row's partners sorted, the
/// diagonal included), computed over @p threads threads with the same result for any count.
void blockPattern(const ContactSet& cs, const std::vector<std::int32_t>& act, int threads,
                  std::vector<int>& rowPtr, std::vector<int>& colIndex);

/// The bodies the active contacts @p act touch: @p minv [6 × 6 per body of cs.systems,
/// column-major] receives M⁻¹ from the integrator's iteration matrix W (factorised here if it
/// was not), @p vfree the integrator's free velocity; the bodies no active contact touches
/// keep a zero block and a null pointer. The integrator lookups (which may throw) run
/// sequentially, the inverses over @p threads threads.
void bodyInverses(const ContactSet& cs, const std::vector<std::int32_t>& act,
                  const OneStepNSProblem::IntegratorLookup& lookup, int threads,
                  std::vector<double>& minv, std::vector<const SiconosVector*>& vfree);

}  // namespace nsdyn::contacts

#endif
