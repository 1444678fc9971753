# Peridynamic bodies in a SceneEngine (Kernel/src/peridynamics/scene): the SceneSystem extension
# point with dummy systems (same bits without a system, collision families, locked rotation).
nsdyn_add_test(NAME test_kernel_peridynamics_scene_system SOURCES SceneSystemTest.cpp LIBS nsdyn::kernel)
# PeridynamicSceneSystem: a PMB block sticking and sliding on an incline, a PMB ball rebounding
# from a rigid plane (e = 0), a rigid sphere resting on a PMB block (issue 28, item 3).
nsdyn_add_test(NAME test_kernel_peridynamics_scene SOURCES PeridynamicSceneTest.cpp LIBS nsdyn::kernel)
