// Kernel: the modelling and simulation classes under their Siconos names. Objects are held
// by std::shared_ptr (the Kernel's SP:: pointers), so a part stays alive as long as a model
// or a Python name refers to it. A simulation keeps its Model alive (keep_alive): the Kernel's
// Simulation holds a plain pointer to the Model that owns it.
#include "kernel_helpers.hpp"

namespace nsdpy {

void initKernel(py::module_& m) {
  initKernelSystems(m);
  initKernelRelations(m);
  initKernelSimulation(m);
}

}  // namespace nsdpy
