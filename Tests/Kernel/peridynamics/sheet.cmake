# SheetMaterial (cloth): membrane and bending energies against the continuum plate, forces and
# tangent by finite differences, a simply supported plate (Newton statics), bad input, tearing.
nsdyn_add_test(NAME test_kernel_peridynamics_sheet SOURCES SheetMaterialTest.cpp LIBS nsdyn::kernel)
