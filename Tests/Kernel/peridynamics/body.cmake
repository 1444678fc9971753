# Peridynamic bodies and generators (Kernel/src/peridynamics/{body,generators}): bonds against a
# brute-force search, symmetry and reverse bonds, bulk sums, surface factors, pre-cracks,
# fracture and damage, generators (box, cylinder, sphere, mesh, sheet), bad input, threads.
nsdyn_add_test(NAME test_kernel_peridynamics_body SOURCES PeridynamicBodyTest.cpp LIBS nsdyn::kernel)
# The same with a test-only material: full lattice neighbourhoods, bulk sums, damage, mesh files,
# each bad input named, threads, the build time of 30k points.
nsdyn_add_test(NAME test_kernel_peridynamics_body_input SOURCES PeridynamicBodyInputTest.cpp LIBS nsdyn::kernel)
