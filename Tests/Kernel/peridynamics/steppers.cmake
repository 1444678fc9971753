# Steppers of a peridynamic body (Kernel/src/peridynamics/steppers): successive substitution,
# Newton–CHOLMOD, velocity Verlet, PeridynamicSimulation; the physical checks of issue 28 they
# own (Young's modulus of a bar, wave speed, energy of θ = 1/2, Neo-Hookean stretch to 2), one
# ctest each (a few seconds apiece).
nsdyn_add_test(NAME test_kernel_peridynamics_steppers SOURCES PeridynamicStepperTest.cpp LIBS nsdyn::kernel)
nsdyn_add_test(NAME test_kernel_peridynamics_checks SOURCES PeridynamicChecksTest.cpp LIBS nsdyn::kernel NO_CTEST)
foreach(_check barInTensionRecoversYoungsModulus thinBarWaveSpeed plateKeepsEnergyWithHalfTheta neoHookeanBarToStretchTwo)
  nsdyn_add_test_case(test_kernel_peridynamics_checks_${_check} test_kernel_peridynamics_checks PeridynamicChecksTest::${_check})
  # CHOLMOD's supernodal BLAS on matrices of a few hundred rows: OpenBLAS's threads spin in
  # sched_yield (the plate's 10,000 factorisations took 28 s instead of 4 on 2 busy cores).
  set_tests_properties(test_kernel_peridynamics_checks_${_check} PROPERTIES ENVIRONMENT OPENBLAS_NUM_THREADS=1)
endforeach()
