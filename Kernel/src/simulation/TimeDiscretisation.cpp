// TimeDiscretisation: check of the step.
#include "nsdyn/TimeDiscretisation.hpp"

#include <cmath>
#include <cstdio>

#include "nsdyn/Error.hpp"

namespace nsdyn {

void TimeDiscretisation::check() const {
  if (!(h_ > 0.0) || !std::isfinite(h_)) {
    char buf[48];
    std::snprintf(buf, sizeof buf, "h = %.17g", h_);
    throw Error("TimeDiscretisation", "time step h > 0", buf);
  }
  if (!std::isfinite(t0_)) throw Error("TimeDiscretisation", "a finite t0", "not finite");
}

}  // namespace nsdyn
