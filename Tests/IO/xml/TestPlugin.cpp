// A plugin for the XmlLoader <plugin> test: registers a vector function of t.
#include <nsdyn/io/FunctionRegistry.hpp>

extern "C" void nsdyn_register_functions(nsdyn::io::FunctionRegistry* registry);

extern "C" void nsdyn_register_functions(nsdyn::io::FunctionRegistry* registry) {
  // F_ext(t) = (-9.81, t, 0)
  registry->add("pluginForce", nsdyn::io::FunctionRegistry::VectorOfTime([](double t) {
                  return nsdyn::SiconosVector{-9.81, t, 0.0};
                }));
}
