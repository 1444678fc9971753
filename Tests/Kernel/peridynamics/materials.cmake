# Peridynamic material models (Kernel/src/peridynamics/materials): forces against finite
# differences of the energy, the bulk calibration against the continuum, rigid motions, stress,
# tangents and implicit stiffness, bad constants, thread independence; PMB speed.
nsdyn_add_test(NAME test_kernel_peridynamics_materials_pmb SOURCES BondBasedMaterialTest.cpp LIBS nsdyn::kernel)
nsdyn_add_test(NAME test_kernel_peridynamics_materials_lps SOURCES LinearSolidMaterialTest.cpp LIBS nsdyn::kernel)
nsdyn_add_test(NAME test_kernel_peridynamics_materials_hyperelastic SOURCES HyperelasticMaterialTest.cpp LIBS nsdyn::kernel)
