// Fuzz target: the Siconos .dat reader (nsd_read_problem_text), every layout detected.
#include <cstddef>
#include <cstdint>

#include "nsdyn/nsd_io.h"
#include "nsdyn/nsd_problems.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  NsdProblem problem{};
  NsdReport report{};
  if (nsd_read_problem_text(reinterpret_cast<const char*>(data), size, "fuzz.dat", NSD_KIND_UNKNOWN,
                            &problem, &report) == NSD_OK)
    nsd_problem_clear(&problem);
  return 0;
}
