// The active contacts of a ContactSet going into a contact problem and the problem's solution
// coming back, shared by the contact problems over a ContactManager's contacts
// (FrictionContact(3): 3 unknowns per contact, RollingFrictionContact: 5).
#ifndef NSDYN_KERNEL_CONTACTSOLUTION_HPP
#define NSDYN_KERNEL_CONTACTSOLUTION_HPP

#include <cstdint>
#include <string>
#include <vector>

#include "nsdyn/ContactSet.hpp"
#include "nsdyn/SiconosVector.hpp"
#include "nsdyn/StepStatistics.hpp"
#include "nsdyn/nsd_common.h"

namespace nsdyn::contacts {

/// The active contacts of @p cs, in key order. An inactive contact carries no impulse: its
/// impulse is zeroed, and its rolling impulse too when @p rolling.
std::vector<std::int32_t> activeContacts(ContactSet& cs, bool rolling);

/// The solution of a problem over the active contacts @p act back into @p cs: @p z (impulses)
/// and @p w (velocities) hold @p dim unknowns per active contact, 3 or 5; impulse and velocity
/// take the first three, rollingImpulse and rollingVelocity the next two when dim is 5. A
/// non-finite z is dropped first (zeroed, in z too).
void writeBack(ContactSet& cs, const std::vector<std::int32_t>& act, int dim, SiconosVector& z,
               const SiconosVector& w);

/// The figures of a solve into @p stats: solved; the solver "solverName+fallbackSolver" when
/// stats.fallbacks; the step's verdict @p verdict (OneStepNSProblem::judge); iterations,
/// residual and seconds from @p report, and its message when the verdict is not NSD_OK.
void recordSolve(StepStatistics& stats, NsdStatus verdict, const NsdReport& report,
                 const std::string& solverName, const std::string& fallbackSolver);

}  // namespace nsdyn::contacts

#endif
